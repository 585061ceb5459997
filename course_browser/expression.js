// "The whole graph, alive": any expression drawn as its computation graph, with
// data and grad on every node, sliders for the inputs, and each input's gradient
// checked against the nudge oracle. Built by the engine in the worker.
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { drawGraph, formula, layout } from "./graphview.js";
import { fmt, svg } from "./svg.js";
import { predictFirst } from "./predict.js";
import { latestCall } from "./runtime.js";

export function mountExpression(root) {
  if (!mountOnce(root)) return;
  let data = JSON.parse(root.dataset.expression);
  root.querySelector(".course-lab__static")?.remove();
  const values = { ...data.inputs };

  const form = el("form", { className: "course-lab__inputs" });
  const expr = el("input", { type: "text", value: data.expr, spellcheck: false, readOnly: !data.editable,
    className: "course-question__input course-expression__input" });
  const exprLabel = el("label", {}, "Expression ", expr);
  const draw = button("Draw graph", "md-button--primary");
  draw.type = "submit";
  draw.hidden = !data.editable;
  const sliders = el("div", { className: "course-lab__sliders" });
  form.append(exprLabel, draw, sliders);
  const figure = svg("svg", { class: "course-lab__graph", role: "img" });
  const status = liveStatus("p", "course-lab__status");
  const table = el("table", { className: "course-lab__checks" });
  // "Step backward": the backward pass one node at a time, in reverse topological order
  const stepBack = button("Step backward");
  const showAll = button("Show every gradient");
  const stepper = el("div", { className: "course-toolbar" }, stepBack, showAll);
  let step = null; // null: every gradient; else how far the stepped backward pass has got
  root.prepend(form, stepper, figure, status, table);
  const gate = predictFirst(root, () => render());

  function renderSliders() {
    sliders.replaceChildren();
    for (const name of data.variables) {
      // wide enough for the value the page starts from (the chain rule's c = 10), never narrower than ±4
      const reach = Math.max(4, Math.ceil(Math.abs(data.inputs[name] ?? 0) * 1.5));
      const input = el("input", { type: "range", min: String(-reach), max: String(reach), step: "0.1",
        value: String(values[name] ?? 1), "aria-label": `Input ${name}` });
      const shown = el("output", { textContent: fmt(Number(input.value)) });
      input.addEventListener("input", () => {
        values[name] = Number(input.value);
        shown.textContent = fmt(values[name]);
        recompute();
      });
      sliders.append(el("label", {}, `${name} `, input, " ", shown));
    }
  }

  function render() {
    const hidden = gate.hidden(); // predict first: no gradient on screen before the question is answered
    stepBack.disabled = showAll.disabled = hidden;
    if (hidden) step = null;
    const steps = data.steps || [];
    const at = step === null ? null : steps[step];
    const grads = hidden ? null : at ? at.grads : data.graph.nodes.map((n) => n.grad);
    drawGraph(figure, data.graph, { grads, active: at?.visit ?? undefined, factors: step !== null });
    table.hidden = hidden;
    status.textContent = at ? stepText(at, step === steps.length - 1) : `${data.expr} = ${fmt(data.output)}`;
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const t of ["input", "grad by the engine", "slope by nudging", "match"]) head.append(el("th", { textContent: t }));
    const body = table.createTBody();
    for (const [name, check] of Object.entries(data.checks)) {
      const row = body.insertRow();
      const ok = Math.abs(check.autograd - check.numeric) <= 1e-4 * (1 + Math.abs(check.numeric));
      for (const text of [name, check.autograd.toFixed(5), check.numeric.toFixed(5), ok ? "✓" : "✗"]) row.insertCell().textContent = text.replace("-", "−");
    }
  }

  function stepText(at, last) {
    const { nodes } = data.graph;
    const out = nodes[nodes.length - 1];
    if (at.visit === null) return `Backward starts at the output: ∂${out.label}/∂${out.label} = 1. Every other gradient is 0 so far.`;
    const kids = layout(data.graph).children[at.visit];
    const node = nodes[at.visit];
    const name = node.label || formula(node, data.graph, layout(data.graph).children);
    const sent = [...new Set(kids)].map((c) => `${nodes[c].label || formula(nodes[c], data.graph, layout(data.graph).children)} now ${fmt(at.grads[c])}`);
    return `${name} sends its gradient ${fmt(at.grads[at.visit])} back: ${sent.join(", ")}.${last ? " Done: every node has its gradient." : ""}`;
  }
  stepBack.addEventListener("click", () => {
    const steps = data.steps || [];
    step = step === null || step >= steps.length - 1 ? 0 : step + 1;
    render();
  });
  showAll.addEventListener("click", () => { step = null; render(); });

  const call = latestCall(status, "Building the graph once Python has loaded…");
  async function recompute(source = data.expr) {
    const fresh = await call("expression", [source, values]);
    if (!fresh) return;
    if (fresh.error) {
      status.textContent = fresh.error;
      return;
    }
    const changedVariables = fresh.variables.join() !== data.variables.join();
    data = { ...data, ...fresh, expr: source };
    step = null; // a new graph shows every gradient again
    for (const name of data.variables) if (!(name in values)) values[name] = fresh.inputs[name];
    if (changedVariables) renderSliders();
    render();
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (data.editable) recompute(expr.value.trim());
  });
  renderSliders();
  render();
}
