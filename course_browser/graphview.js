// Draw a computation graph (engine.graph.to_graph data) as SVG boxes and arrows.
// Shared by the step-through lab and the live expression graph.

export const SVG = "http://www.w3.org/2000/svg";
const OP_TEXT = { "*": "·", "+": "+", "-": "−", "/": "/" };
const W = 118, H = 62, COL = 170, ROW = 84, PAD = 14;

export const fmt = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)))).replace("-", "−");

export function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Columns by depth; leaves sit one column before their first consumer. */
export function layout(graph) {
  const { nodes, edges } = graph;
  const children = nodes.map(() => []);
  const parents = nodes.map(() => []);
  for (const e of edges) { children[e.target].push(e.source); parents[e.source].push(e.target); }
  const col = nodes.map(() => 0);
  for (const n of nodes) if (children[n.id].length) col[n.id] = 1 + Math.max(...children[n.id].map((c) => col[c]));
  for (const n of nodes) if (!children[n.id].length && parents[n.id].length) col[n.id] = Math.max(0, Math.min(...parents[n.id].map((p) => col[p])) - 1);
  const row = nodes.map(() => 0);
  let next = 0;
  for (const n of nodes) {
    if (!children[n.id].length) row[n.id] = next++;
    else row[n.id] = children[n.id].reduce((s, c) => s + row[c], 0) / children[n.id].length;
    next = Math.max(next, Math.ceil(row[n.id] + 0.5));
  }
  return { col, row, children, rows: next, cols: Math.max(...col) + 1 };
}

/** "e = a · b" for an operation node, "a (input)" for a leaf, "tanh(…)" for a function. */
export function formula(node, graph, kids) {
  const name = node.label || "";
  if (!node.op) return name ? `${name} (input)` : `${fmt(node.data)} (constant)`;
  const names = kids[node.id].map((c) => graph.nodes[c].label || (graph.nodes[c].op ? "·" : fmt(graph.nodes[c].data)));
  const body = OP_TEXT[node.op] ? names.join(` ${OP_TEXT[node.op]} `)
    : node.op.startsWith("**") ? `${names[0]}${node.op}` : `${node.op}(${names.join(", ")})`;
  return name ? `${name} = ${body}` : body;
}

/** Draw into `figure`. `computed`: ids whose data shows; `grads`: array or null; `active`: id. */
export function drawGraph(figure, graph, { computed, grads, active, factors = true } = {}) {
  const lay = layout(graph);
  computed = computed || new Set(graph.nodes.map((n) => n.id));
  figure.replaceChildren();
  figure.setAttribute("viewBox", `0 0 ${lay.cols * COL + PAD} ${lay.rows * ROW + PAD}`);
  const markerId = `course-arrow-${Math.random().toString(36).slice(2, 8)}`;
  const marker = svg("marker", { id: markerId, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "course-lab__arrowhead" }));
  const defs = svg("defs");
  defs.append(marker);
  figure.append(defs);
  const pos = (id) => ({ x: PAD + lay.col[id] * COL, y: PAD + lay.row[id] * ROW });
  for (const e of graph.edges) {
    const a = pos(e.source), b = pos(e.target);
    const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
    figure.append(svg("line", { x1, y1, x2, y2, class: "course-lab__edge", "marker-end": `url(#${markerId})` }));
    if (grads && factors && typeof e.factor === "number") {
      // the local factor comes from the engine's own rule (engine/graph.py)
      figure.append(svg("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 6, class: "course-lab__factor", "text-anchor": "middle" }, `×${fmt(e.factor)}`));
    }
  }
  for (const n of graph.nodes) {
    const { x, y } = pos(n.id);
    const g = svg("g", { class: `course-lab__node${active === n.id ? " is-active" : ""}` });
    g.append(svg("rect", { x, y, width: W, height: H, rx: 8 }));
    g.append(svg("text", { x: x + 8, y: y + 17, class: "course-lab__name" }, formula(n, graph, lay.children)));
    g.append(svg("text", { x: x + 8, y: y + 36 }, `data ${computed.has(n.id) ? fmt(n.data) : "?"}`));
    g.append(svg("text", { x: x + 8, y: y + 54, class: "course-lab__grad" }, `grad ${grads ? fmt(grads[n.id]) : "—"}`));
    figure.append(g);
  }
  figure.setAttribute("aria-label", `Computation graph. ${graph.nodes.map((n) =>
    `${n.label || formula(n, graph, lay.children)}: data ${computed.has(n.id) ? fmt(n.data) : "not computed"}${grads ? `, grad ${fmt(grads[n.id])}` : ""}`).join("; ")}.`);
  return lay;
}
