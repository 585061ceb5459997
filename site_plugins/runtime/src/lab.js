// The step-through graph lab: L = (a·b + c)·d, one node at a time.
// The numbers (forward data and every backward step) come from the reference
// engine: embedded at build time, recomputed by the worker when an input changes.
import { python } from "./runtime.js";

const SVG = "http://www.w3.org/2000/svg";
const OP_TEXT = { "*": "·", "+": "+", "-": "−", "/": "/" };
const W = 118, H = 62, COL = 170, ROW = 84, PAD = 14;

const fmt = (x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)))).replace("-", "−");

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Columns by depth; leaves sit one column before their first consumer. */
function layout(graph) {
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

function formula(node, graph, kids) {
  if (!node.op) return `${node.label} (input)`;
  const names = kids[node.id].map((c) => graph.nodes[c].label);
  return `${node.label} = ${names.join(` ${OP_TEXT[node.op] || node.op} `)}`;
}

function planSteps(graph, steps, kids) {
  const plan = [];
  for (const n of graph.nodes) if (n.op) plan.push({ kind: "forward", node: n.id, label: `Compute ${formula(n, graph, kids)}` });
  const out = graph.nodes[graph.nodes.length - 1];
  plan.push({ kind: "start", step: 0, label: `Start backward: ∂${out.label}/∂${out.label} = 1` });
  steps.forEach((s, i) => {
    if (s.visit === null) return;
    const n = graph.nodes[s.visit];
    const to = kids[n.id].map((c) => graph.nodes[c].label).join(" and ");
    plan.push({ kind: "backward", step: i, node: n.id, label: `Send ${n.label}'s gradient back to ${to}` });
  });
  return plan;
}

export function mountLab(root) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "true";
  let data = JSON.parse(root.dataset.graph);
  const inputs = JSON.parse(root.dataset.inputs);
  let position = 0; // how many plan steps are done

  root.querySelector(".course-lab__static")?.remove();
  const controls = document.createElement("div");
  controls.className = "course-lab__inputs";
  const fieldset = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = "Inputs";
  fieldset.append(legend);
  const fields = {};
  for (const [name, value] of Object.entries(inputs)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "number";
    input.step = "any";
    input.value = value;
    input.setAttribute("aria-label", `Input ${name}`);
    label.append(`${name} = `, input);
    fieldset.append(label);
    fields[name] = input;
  }
  controls.append(fieldset);
  const phase = document.createElement("p");
  phase.className = "course-lab__phase";
  const bar = document.createElement("div");
  bar.className = "course-toolbar";
  const main = document.createElement("button");
  main.type = "button";
  main.className = "md-button md-button--primary course-button course-lab__main";
  const all = document.createElement("button");
  all.type = "button";
  all.className = "md-button course-button";
  all.textContent = "Run all";
  bar.append(main, all);
  const figure = svg("svg", { class: "course-lab__graph", role: "img" });
  const status = document.createElement("p");
  status.className = "course-lab__status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const legendText = document.createElement("p");
  legendText.className = "course-lab__legend";
  legendText.textContent = "Values flow forward (left to right). Gradients flow back, times the factor on each edge.";
  root.prepend(controls, phase, bar, figure, status, legendText);

  function draw() {
    const { graph, steps } = data;
    const lay = layout(graph);
    const plan = planSteps(graph, steps, lay.children);
    const done = plan.slice(0, position);
    const computed = new Set(graph.nodes.filter((n) => !n.op).map((n) => n.id));
    for (const p of done) if (p.kind === "forward") computed.add(p.node);
    const lastBackward = [...done].reverse().find((p) => p.kind !== "forward");
    const grads = lastBackward ? steps[lastBackward.step].grads : null;
    const active = position > 0 ? plan[position - 1] : null;

    figure.replaceChildren();
    const width = lay.cols * COL + PAD, height = lay.rows * ROW + PAD;
    figure.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const defs = svg("defs");
    const marker = svg("marker", { id: "course-arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: "course-lab__arrowhead" }));
    defs.append(marker);
    figure.append(defs);
    const pos = (id) => ({ x: PAD + lay.col[id] * COL, y: PAD + lay.row[id] * ROW });
    for (const e of graph.edges) {
      const a = pos(e.source), b = pos(e.target);
      const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
      figure.append(svg("line", { x1, y1, x2, y2, class: "course-lab__edge", "marker-end": "url(#course-arrow)" }));
      const target = graph.nodes[e.target];
      if (grads) {
        const other = lay.children[e.target].find((c) => c !== e.source);
        const factor = target.op === "*" ? graph.nodes[other ?? e.source].data : 1;
        figure.append(svg("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 6, class: "course-lab__factor", "text-anchor": "middle" }, `×${fmt(factor)}`));
      }
    }
    for (const n of graph.nodes) {
      const { x, y } = pos(n.id);
      const g = svg("g", { class: "course-lab__node" + (active && active.node === n.id ? " is-active" : "") });
      g.append(svg("rect", { x, y, width: W, height: H, rx: 8 }));
      g.append(svg("text", { x: x + 8, y: y + 17, class: "course-lab__name" }, formula(n, graph, lay.children)));
      g.append(svg("text", { x: x + 8, y: y + 36 }, `data ${computed.has(n.id) ? fmt(n.data) : "?"}`));
      g.append(svg("text", { x: x + 8, y: y + 54, class: "course-lab__grad" }, `grad ${grads ? fmt(grads[n.id]) : "—"}`));
      figure.append(g);
    }
    const out = graph.nodes[graph.nodes.length - 1];
    figure.setAttribute("aria-label", `Computation graph of ${out.label} = (a·b + c)·d. ${graph.nodes.map((n) =>
      `${n.label}: data ${computed.has(n.id) ? fmt(n.data) : "not computed"}${grads ? `, grad ${fmt(grads[n.id])}` : ""}`).join("; ")}.`);
    const finished = position >= plan.length;
    main.textContent = finished ? "Start over" : plan[position].label;
    all.disabled = finished;
    phase.textContent = grads ? "Forward ▸ Backward: now backward" : "Forward ▸ Backward: now forward";
    if (!active) status.textContent = `Nothing computed yet. Press “${plan[0].label}” to compute the first node.`;
    else if (active.kind === "forward") {
      const n = graph.nodes[active.node];
      const kids = lay.children[n.id].map((c) => fmt(graph.nodes[c].data));
      status.textContent = `${formula(n, graph, lay.children)} = ${kids.join(` ${OP_TEXT[n.op] || n.op} `)} = ${fmt(n.data)}.`;
    } else if (active.kind === "start") status.textContent = `Backward starts: ∂${out.label}/∂${out.label} = 1.`;
    else {
      const n = graph.nodes[active.node];
      status.textContent = lay.children[n.id].map((c) => `∂${out.label}/∂${graph.nodes[c].label} = ${fmt(grads[c])}`).join(", ") + (finished ? ". Done: every gradient is in." : ".");
    }
    return plan;
  }

  main.addEventListener("click", () => {
    const plan = draw();
    position = position >= plan.length ? 0 : position + 1;
    draw();
  });
  all.addEventListener("click", () => {
    position = draw().length;
    draw();
  });

  let pendingInputs = 0;
  const recompute = async () => {
    const values = Object.values(fields).map((f) => Number(f.value));
    if (values.some((v) => !Number.isFinite(v) || fields && Object.values(fields).some((f) => f.value.trim() === ""))) {
      status.textContent = "Each input needs a number.";
      return;
    }
    const ticket = ++pendingInputs;
    const rt = python();
    if (rt.state !== "ready") status.textContent = "Recomputing once Python has loaded…";
    try {
      const fresh = await rt.call("lab_graph", values, { timeoutMs: 5000 });
      if (ticket !== pendingInputs || !fresh || !fresh.graph) return;
      data = fresh;
      draw();
    } catch (error) {
      status.textContent = `Could not recompute: ${error.message}`;
    }
  };
  let debounce = null;
  for (const f of Object.values(fields)) f.addEventListener("input", () => { clearTimeout(debounce); debounce = setTimeout(recompute, 250); });
  draw();
}
