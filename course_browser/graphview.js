// Draw a computation graph (engine.graph.to_graph data) as SVG boxes and arrows.
// Shared by the step-through lab and the live expression graph; loaded only on
// pages that have one (dagre is most of its weight).

import { Graph, layout as dagreLayout } from "@dagrejs/dagre";
import { fmt } from "./numbers.js";
import { svg } from "./svg.js";

const OP_TEXT = { "*": "·", "+": "+", "-": "−", "/": "/" };
const W = 132, H = 62, PAD = 14;
const CHAR = 7.9; // px per character of the boxes' 13 px monospace text, with room to spare
const GRAD_ROOM = "grad −0.0000000".length; // what a gradient line may need, known before any backward pass

/** A box as wide as its longest line (the formula, the data), never narrower than W:
 * its text never runs past its edge. */
function boxWidth(node, graph, children) {
  const chars = Math.max(formula(node, graph, children).length, `data ${fmt(node.data)}`.length, GRAD_ROOM);
  return Math.max(W, Math.ceil(16 + CHAR * chars));
}



// Each graph's layout, made once: a lab replaces its graph rather than change it, and
// dagre is most of what a redraw costs the main thread (10-40 ms a graph), while a
// step, a resize or a gate that opens draws the same graph again.
const laidOut = new WeakMap();

/** A layered left-to-right layout by dagre (the layout family of micrograd's draw_dot):
 * each node's top-left corner, each edge's route, and the drawing's size. Edges are
 * kept one per operand, so `a + a` has two. Shared between callers: read it only. */
export function layout(graph) {
  if (!laidOut.has(graph)) laidOut.set(graph, layOut(graph));
  return laidOut.get(graph);
}

function layOut(graph) {
  const { nodes, edges } = graph;
  const children = nodes.map(() => []);
  for (const e of edges) children[e.target].push(e.source);
  const widths = nodes.map((n) => boxWidth(n, graph, children));
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 22, ranksep: 56, edgesep: 14, marginx: PAD, marginy: PAD });
  for (const n of nodes) g.setNode(String(n.id), { width: widths[n.id], height: H });
  for (const [i, e] of edges.entries()) g.setEdge(String(e.source), String(e.target), {}, `e${i}`);
  dagreLayout(g);
  const pos = nodes.map((n) => { const p = g.node(String(n.id)); return { x: p.x - widths[n.id] / 2, y: p.y - H / 2, w: widths[n.id] }; });
  const routes = edges.map((e, i) => g.edge({ v: String(e.source), w: String(e.target), name: `e${i}` }).points);
  const { width, height } = g.graph();
  return { pos, routes, children, width: Math.ceil(width), height: Math.ceil(height) };
}

/** An edge's path: dagre's route, or, for operands that share both ends (a + a), arcs
 * bent apart so each one shows. Returns the path and where its label goes. */
function edgePath(route, a, b, index, count) {
  if (count > 1) {
    const x1 = a.x + a.w, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
    const bend = (index - (count - 1) / 2) * 34;
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2 + bend;
    return { d: `M${x1},${y1 - bend / 4} Q${mx},${my} ${x2},${y2 + bend / 6}`, label: { x: mx, y: (y1 + y2) / 2 + bend / 2 } };
  }
  const d = route.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const mid = route[Math.floor(route.length / 2)];
  return { d, label: mid };
}

/** "e = a · b" for an operation node, "a (input)" for a leaf, "tanh(…)" for a function. */
export function formula(node, graph, kids) {
  const name = node.label || "";
  if (!node.op) return name ? `${name} (input)` : `${fmt(node.data)} (constant)`;
  // an unnamed intermediate result reads "(…)": "(…) · (…)", never "· · ·"
  const names = kids[node.id].map((c) => graph.nodes[c].label || (graph.nodes[c].op ? "(…)" : fmt(graph.nodes[c].data)));
  const body = OP_TEXT[node.op] ? names.join(` ${OP_TEXT[node.op]} `)
    : node.op.startsWith("**") ? `${names[0]}${node.op}` : `${node.op}(${names.join(", ")})`;
  return name ? `${name} = ${body}` : body;
}

const SMALLEST_TEXT = 12; // px: the edges' factors, the smallest text of the drawing
const READABLE = 11; // px: no label is drawn smaller, so a graph shrinks to fit its box only this far

/** The scroll box around `figure` (made on the first draw): a keyboard-reachable
 * region, a cue that shows while the graph is wider than the box, and a redraw when the
 * box changes width (a phone turned, a locked section opened). */
function scrollBox(figure) {
  if (figure.parentElement?.classList.contains("course-lab__scroll")) return figure.parentElement;
  const scroller = document.createElement("div");
  scroller.className = "course-lab__scroll";
  // a region the keyboard can reach, so a graph wider than the screen can be scrolled
  scroller.tabIndex = 0;
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", "Computation graph (scrolls sideways when wide)");
  const cue = document.createElement("p");
  cue.className = "course-lab__scroll-cue";
  cue.hidden = true;
  cue.textContent = "⇆ Scroll the graph sideways (or use the arrow keys on it) to see every node.";
  figure.replaceWith(scroller);
  scroller.append(figure);
  scroller.after(cue);
  scroller.addEventListener("scroll", () => edges(scroller), { passive: true });
  let width = 0;
  new ResizeObserver(() => {
    if (scroller.clientWidth === width) return;
    width = scroller.clientWidth;
    if (figure.courseDrawn) drawGraph(figure, ...figure.courseDrawn);
  }).observe(scroller);
  return scroller;
}

/** Which sides have more graph beyond the edge: a shade on that edge (course.css). */
function edges(scroller) {
  const more = scroller.scrollWidth - scroller.clientWidth;
  scroller.classList.toggle("has-more-left", more > 1 && scroller.scrollLeft > 1);
  scroller.classList.toggle("has-more-right", more > 1 && scroller.scrollLeft < more - 1);
}

/** Fit the drawing to its box: natural size when it fits; shrunk to the box while no
 * label gets smaller than READABLE px; else natural size, scrolling, with the cue on
 * and the active node (the one being computed) scrolled into the middle. */
function fit(figure, scroller, lay, active) {
  const room = scroller.clientWidth;
  const scale = room > 0 && lay.width > room ? room / lay.width : 1;
  const shrink = scale < 1 && scale * SMALLEST_TEXT >= READABLE;
  const width = shrink ? room : lay.width;
  figure.setAttribute("width", width);
  figure.setAttribute("height", Math.ceil(lay.height * (shrink ? scale : 1)));
  const scrolls = room > 0 && width > room + 1;
  scroller.nextElementSibling.hidden = !scrolls;
  if (scrolls && active !== undefined && lay.pos[active]) {
    const { x, w } = lay.pos[active];
    if (x < scroller.scrollLeft || x + w > scroller.scrollLeft + room) scroller.scrollLeft = Math.max(0, x - (room - w) / 2);
  }
  edges(scroller);
}

/** Draw into `figure`. `computed`: ids whose data shows; `grads`: array or null; `active`: id. */
export function drawGraph(figure, graph, options = {}) {
  let { computed, grads, active, factors = true } = options;
  const lay = layout(graph);
  computed = computed || new Set(graph.nodes.map((n) => n.id));
  figure.replaceChildren();
  figure.courseDrawn = [graph, options]; // redrawn as it was when its box changes width
  figure.setAttribute("viewBox", `0 0 ${lay.width} ${lay.height}`);
  const scroller = scrollBox(figure);
  const markerId = `course-arrow-${Math.random().toString(36).slice(2, 8)}`;
  const marker = svg("marker", { id: markerId, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "course-lab__arrowhead" }));
  const defs = svg("defs");
  defs.append(marker);
  figure.append(defs);
  const pairs = new Map();
  for (const e of graph.edges) pairs.set(`${e.source}>${e.target}`, (pairs.get(`${e.source}>${e.target}`) || 0) + 1);
  const seen = new Map();
  graph.edges.forEach((e, i) => {
    const key = `${e.source}>${e.target}`;
    const index = seen.get(key) || 0;
    seen.set(key, index + 1);
    const { d, label } = edgePath(lay.routes[i], lay.pos[e.source], lay.pos[e.target], index, pairs.get(key));
    figure.append(svg("path", { d, class: "course-lab__edge", fill: "none", "marker-end": `url(#${markerId})` }));
    if (grads && factors && typeof e.factor === "number") {
      // the local factor comes from the engine's own rule (engine/graph.py)
      figure.append(svg("text", { x: label.x, y: label.y - 6, class: "course-lab__factor", "text-anchor": "middle" }, `×${fmt(e.factor)}`));
    }
  });
  for (const n of graph.nodes) {
    const { x, y } = lay.pos[n.id];
    const g = svg("g", { class: `course-lab__node${active === n.id ? " is-active" : ""}`, "data-node": n.id });
    g.append(svg("rect", { x, y, width: lay.pos[n.id].w, height: H, rx: 8 }));
    g.append(svg("text", { x: x + 8, y: y + 17, class: "course-lab__name" }, formula(n, graph, lay.children)));
    g.append(svg("text", { x: x + 8, y: y + 36 }, `data ${computed.has(n.id) ? fmt(n.data) : "?"}`));
    g.append(svg("text", { x: x + 8, y: y + 54, class: "course-lab__grad" }, `grad ${grads ? fmt(grads[n.id]) : "—"}`));
    figure.append(g);
  }
  fit(figure, scroller, lay, active);
  figure.setAttribute("aria-label", `Computation graph. ${graph.nodes.map((n) =>
    `${n.label || formula(n, graph, lay.children)}: data ${computed.has(n.id) ? fmt(n.data) : "not computed"}${grads ? `, grad ${fmt(grads[n.id])}` : ""}`).join("; ")}.`);
  return lay;
}
