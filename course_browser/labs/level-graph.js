// The step-through graph lab: L = (a·b + c)·k (or the shared-node graph
// e = a·b, L = e·(e + c)), one node at a time. The numbers (forward data and every
// backward step) come from the reference engine: embedded at build time,
// recomputed by the worker when an input changes. A graph that comes with a
// `wrong` walk (breadth-first) gets a button that steps backward in that order
// instead, so the learner sees which gradient comes out wrong, and why.
import { button, el, inserter, liveStatus, mountOnce } from "../dom.js";
import { drawGraph, formula, layout } from "../graphview.js";
import { fmt } from "../numbers.js";
import { svg } from "../svg.js";
import { predictFirst } from "../predict.js";
import { latestCall } from "../runtime.js";

let labCount = 0; // ids for the status line that a disabled button points at

const OP_TEXT = { "*": "·", "+": "+", "-": "−", "/": "/" };

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

// What the wrong walk got wrong: every gradient that differs from the right walk's.
function wrongVerdict(graph, rightSteps, grads) {
  const right = rightSteps[rightSteps.length - 1].grads;
  const out = graph.nodes[graph.nodes.length - 1].label;
  const off = graph.nodes.filter((n) => Math.abs(grads[n.id] - right[n.id]) > 1e-9 * Math.max(1, Math.abs(right[n.id])));
  if (!off.length) return "Done: this order happens to give every gradient right.";
  return `Done, but wrong: ${off.map((n) => `∂${out}/∂${n.label} came out ${fmt(grads[n.id])}, not ${fmt(right[n.id])}`).join("; ")}. A node passed its gradient on before every node that uses it had added its part.`;
}

export function mount(root) {
  if (!mountOnce(root)) return;
  const ctx = {
    root,
    data: JSON.parse(root.dataset.graph),
    position: 0, // how many plan steps are done
    wrongOrder: false, // stepping backward breadth-first instead (graphs with a `wrong` walk)
  };
  root.querySelector(".course-lab__static")?.remove();
  ctx.add = inserter(root, root.firstChild); // each part's elements at the top, in the parts' order
  for (const part of [inputFields, stepper, picture]) part(ctx);
  ctx.gate = predictFirst(root, () => draw(ctx)); // after the parts: its note goes below them
  recomputeOnInput(ctx);
  draw(ctx);
}

/** A number field per input of the graph (none for a graph without inputs). */
function inputFields(ctx) {
  const inputs = JSON.parse(ctx.root.dataset.inputs);
  const fieldset = el("fieldset", {}, el("legend", { textContent: "Inputs" }));
  const fields = {};
  for (const [name, value] of Object.entries(inputs)) {
    const input = el("input", { type: "number", step: "any", value, "aria-label": `Input ${name}` });
    fieldset.append(el("label", {}, `${name} = `, input));
    fields[name] = input;
  }
  ctx.add(el("div", { className: "course-lab__inputs" }, ...(Object.keys(inputs).length ? [fieldset] : [])));
  ctx.fields = fields;
}

/** Where the walk is (forward or backward), and its buttons: the next step, Run all,
 * and, where the graph has one, the wrong order. */
function stepper(ctx) {
  const phase = el("p", { className: "course-lab__phase" });
  const bar = el("div", { className: "course-toolbar" });
  const main = button("", "md-button--primary course-lab__main");
  const all = button("Run all");
  bar.append(main, all);
  const wrong = ctx.data.wrong ? button("Visit in the wrong order") : null;
  if (wrong) {
    wrong.setAttribute("aria-pressed", "false");
    bar.append(wrong);
  }
  ctx.add(phase, bar);
  Object.assign(ctx, { phase, main, wrong });
  main.addEventListener("click", () => {
    const plan = draw(ctx);
    ctx.position = ctx.position >= plan.length ? 0 : ctx.position + 1;
    draw(ctx);
  });
  wrong?.addEventListener("click", () => {
    ctx.wrongOrder = !ctx.wrongOrder;
    ctx.position = ctx.data.graph.nodes.filter((n) => n.op).length; // forward stays done; backward starts again
    draw(ctx);
  });
  all.addEventListener("click", () => {
    ctx.position = draw(ctx).length;
    draw(ctx);
  });
}

/** The graph, the status line that says what the last step did, and the legend. */
function picture(ctx) {
  const figure = svg("svg", { class: "course-lab__graph", role: "img" });
  const status = liveStatus("p", "course-lab__status");
  status.id = `course-lab-status-${++labCount}`;
  const legendText = el("p", { className: "course-lab__legend",
    textContent: "Values flow forward (left to right). Gradients flow back, each times the local factor that the backward pass shows on its edge." });
  ctx.add(figure, status, legendText);
  Object.assign(ctx, { figure, status });
}

/** Draw the graph as far as the walk has got, with the buttons and lines to match.
 * Returns the plan: every step there is to take now. */
function draw(ctx) {
  const { data, gate } = ctx;
  const { graph } = data;
  const steps = ctx.wrongOrder ? data.wrong : data.steps;
  const lay = layout(graph);
  const full = planSteps(graph, steps, lay.children);
  const plan = gate.hidden() ? full.filter((p) => p.kind === "forward") : full; // predict first
  ctx.position = Math.min(ctx.position, plan.length);
  const done = plan.slice(0, ctx.position);
  const computed = new Set(graph.nodes.filter((n) => !n.op).map((n) => n.id));
  for (const p of done) if (p.kind === "forward") computed.add(p.node);
  const lastBackward = [...done].reverse().find((p) => p.kind !== "forward");
  const grads = lastBackward ? steps[lastBackward.step].grads : null;
  const active = ctx.position > 0 ? plan[ctx.position - 1] : null;

  drawGraph(ctx.figure, graph, { computed, grads, active: active ? active.node : undefined });
  const finished = ctx.position >= plan.length;
  const waiting = finished && gate.hidden(); // forward done, backward kept back until the question is answered
  showButtons(ctx, plan, finished, waiting);
  ctx.phase.textContent = grads ? `Forward ▸ Backward: now backward${ctx.wrongOrder ? ", in the wrong order" : ""}` : "Forward ▸ Backward: now forward";
  ctx.status.textContent = statusText(ctx, { lay, plan, active, grads, finished, waiting });
  return plan;
}

function showButtons({ main, wrong, status, gate, position, wrongOrder }, plan, finished, waiting) {
  main.textContent = waiting ? "Backward ▸" : finished ? "Start over" : plan[position].label;
  main.disabled = waiting;
  if (waiting) main.setAttribute("aria-describedby", status.id);
  else main.removeAttribute("aria-describedby");
  if (wrong) {
    wrong.disabled = gate.hidden();
    wrong.textContent = wrongOrder ? "Visit in the right order" : "Visit in the wrong order";
    wrong.setAttribute("aria-pressed", String(wrongOrder));
  }
}

/** What the last step did, in numbers: the node computed, or the gradients sent back. */
function statusText({ data, wrongOrder }, { lay, plan, active, grads, finished, waiting }) {
  const { graph } = data;
  const out = graph.nodes[graph.nodes.length - 1];
  if (waiting) return "Forward done. Backward waits for your answer: work out the gradient the question below asks for, then answer it to step backward.";
  if (!active) return `Nothing computed yet. Press “${plan[0].label}” to compute the first node.`;
  if (active.kind === "forward") {
    const n = graph.nodes[active.node];
    const kids = lay.children[n.id].map((c) => fmt(graph.nodes[c].data));
    return `${formula(n, graph, lay.children)} = ${kids.join(` ${OP_TEXT[n.op] || n.op} `)} = ${fmt(n.data)}.`;
  }
  if (active.kind === "start") return `Backward starts: ∂${out.label}/∂${out.label} = 1.`;
  const n = graph.nodes[active.node];
  const sent = lay.children[n.id].map((c) => `∂${out.label}/∂${graph.nodes[c].label} = ${fmt(grads[c])}`).join(", ");
  return sent + (!finished ? "." : wrongOrder ? `. ${wrongVerdict(graph, data.steps, grads)}` : ". Done: every gradient is in.");
}

/** A changed input recomputes the graph in the worker, a quarter second after the last keystroke. */
function recomputeOnInput(ctx) {
  const { fields, status } = ctx;
  const call = latestCall(status, "Recomputing once Python has loaded…");
  const recompute = async () => {
    const values = Object.values(fields).map((f) => Number(f.value));
    if (values.some((v) => !Number.isFinite(v) || fields && Object.values(fields).some((f) => f.value.trim() === ""))) {
      status.textContent = "Each input needs a number.";
      return;
    }
    try {
      const fresh = await call("lab_graph", values);
      if (!fresh?.graph) return;
      ctx.data = fresh;
      draw(ctx);
    } catch (error) {
      status.textContent = `Could not recompute: ${error.message}`;
    }
  };
  let debounce = null;
  for (const f of Object.values(fields)) f.addEventListener("input", () => { clearTimeout(debounce); debounce = setTimeout(recompute, 250); });
}
