// "The whole graph, alive": any expression drawn as its computation graph, with
// data and grad on every node, sliders for the inputs, and each input's gradient
// checked against the nudge oracle. Built by the engine in the worker.
//
// Two kinds of graded work lean on this lab. Both are `/// question` blocks
// (`predicts: a`, or `kind: flat`), built as
// `<div class="course-question" data-question="…" data-mounted="lab">`:
// a question (so the level counts it from the first paint) that question.js
// leaves alone (data-mounted), because its numbers come from here.
//   data-predicts="a"   "predict, then check": a number question on ∂L/∂a of the
//                       lab's starting expression; the lab's `hides` names it. Its
//                       answer, explanation and known slips are the engine's
//                       (labs/expression.py predictions, embedded at build time);
//                       question.js then runs it like any number question.
//   data-task="flat"    "write an L whose ∂L/∂a is 0 at the point" (flat-task.js).
import FACTS from "../../runner/facts.json" with { type: "json" };
import { button, el, inserter, liveStatus, mountOnce } from "../dom.js";
import { mountFlatTask } from "../flat-task.js";
import { drawGraph, formula, layout } from "../graphview.js";
import { fmt } from "../numbers.js";
import { svg } from "../svg.js";
import { predictFirst } from "../predict.js";
import { mountQuestion } from "../question.js";
import { latestCall } from "../runtime.js";
import { rememberInput } from "../lab-input.js";

const pageLevel = () => document.querySelector(".course-level[data-level]")?.dataset.level ?? location.pathname;
const scopeOf = (root) => root.closest("article") || document;
// a predicted gradient to four decimals: question.js asks a near miss for as many
const ANSWER = { decimals: 4 };
// the check table: both columns to five decimals, so the two slopes line up digit by digit
const COLUMN = { decimals: 5 };

/** The questions the lab keeps back (its `hides`) that ask for a gradient of its
 * starting expression: filled in from the engine's numbers, then mounted as questions. */
function mountPredictions(root, start) {
  for (const id of JSON.parse(root.dataset.hides || "[]")) {
    const q = scopeOf(root).querySelector(`.course-question[data-question="${CSS.escape(id)}"][data-predicts]`);
    const facts = start.predict?.[q?.dataset.predicts];
    if (q?.dataset.mounted !== "lab" || !facts) continue;
    q.prepend(el("p", { className: "course-kind", textContent: "Number" }),
      el("div", { className: "course-question__prompt" }, ...q.childNodes));
    Object.assign(q.dataset, { kind: "number", answer: fmt(facts.answer, ANSWER), tolerance: String(FACTS.question_tolerance),
      explain: facts.explain, look: facts.look, slips: JSON.stringify(facts.slips) });
    delete q.dataset.mounted;
    mountQuestion(q, { level: pageLevel() });
  }
}

export function mount(root) {
  if (!mountOnce(root)) return;
  const data = JSON.parse(root.dataset.expression);
  mountPredictions(root, data);
  for (const task of scopeOf(root).querySelectorAll('.course-question[data-task="flat"][data-mounted="lab"]')) mountFlatTask(task, pageLevel());
  root.querySelector(".course-lab__static")?.remove();
  const ctx = {
    root, data,
    values: { ...data.inputs }, // the sliders' values
    step: null, // null: every gradient; else how far the stepped backward pass has got
    add: inserter(root, root.firstChild), // each part's elements at the top, in the parts' order
  };
  for (const part of [expressionForm, stepper, picture]) part(ctx);
  ctx.gate = predictFirst(root, () => render(ctx)); // after the parts: its note goes below them
  ctx.recompute = recomputer(ctx);
  renderSliders(ctx);
  render(ctx);
  const { expr } = ctx;
  if (data.editable) rememberInput(root, "expression", expr, () => ctx.recompute(expr.value.trim())); // kept across reloads
}

/** The expression (editable in a lab that says so, with Draw graph) and a slider per input. */
function expressionForm(ctx) {
  const { data } = ctx;
  const form = el("form", { className: "course-lab__inputs" });
  const expr = el("input", { type: "text", value: data.expr, spellcheck: false, readOnly: !data.editable,
    className: "course-question__input course-expression__input" });
  const exprLabel = el("label", {}, "Expression ", expr);
  const draw = button("Draw graph", "md-button--primary");
  draw.type = "submit";
  draw.hidden = !data.editable;
  const sliders = el("div", { className: "course-lab__sliders" });
  form.append(exprLabel, draw, sliders);
  ctx.add(form);
  Object.assign(ctx, { expr, sliders });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (ctx.data.editable) ctx.recompute(expr.value.trim());
  });
}

/** "Step backward": the backward pass one node at a time, in reverse topological order;
 * "Show every gradient" goes back to all of them at once. */
function stepper(ctx) {
  const stepBack = button("Step backward");
  const showAll = button("Show every gradient");
  ctx.add(el("div", { className: "course-toolbar" }, stepBack, showAll));
  Object.assign(ctx, { stepBack, showAll });
  stepBack.addEventListener("click", () => {
    const steps = ctx.data.steps || [];
    ctx.step = ctx.step === null || ctx.step >= steps.length - 1 ? 0 : ctx.step + 1;
    render(ctx);
  });
  showAll.addEventListener("click", () => { ctx.step = null; render(ctx); });
}

/** The graph, the status line, and the table of each input's gradient against the nudge. */
function picture(ctx) {
  const figure = svg("svg", { class: "course-lab__graph", role: "img" });
  const status = liveStatus("p", "course-lab__status");
  const table = el("table", { className: "course-lab__checks" });
  ctx.add(figure, status, table);
  Object.assign(ctx, { figure, status, table });
}

function renderSliders(ctx) {
  const { data, values, sliders } = ctx;
  sliders.replaceChildren();
  for (const name of data.variables) {
    // wide enough for the value the page starts from (the chain rule's c = 10), never narrower than ±4;
    // fine enough for a small nudge (the chain rule level predicts L at a = 2.01: one press of →)
    const reach = Math.max(4, Math.ceil(Math.abs(data.inputs[name] ?? 0) * 1.5));
    const input = el("input", { type: "range", min: String(-reach), max: String(reach), step: "0.01",
      value: String(values[name] ?? 1), "aria-label": `Input ${name}` });
    const shown = el("output", { textContent: fmt(Number(input.value)) });
    input.addEventListener("input", () => {
      values[name] = Number(input.value);
      shown.textContent = fmt(values[name]);
      ctx.recompute();
    });
    sliders.append(el("label", {}, `${name} `, input, " ", shown));
  }
}

function render(ctx) {
  const { data, gate, stepBack, showAll, figure, status, table } = ctx;
  const hidden = gate.hidden(); // predict first: no gradient on screen before the question is answered
  stepBack.disabled = showAll.disabled = hidden;
  if (hidden) ctx.step = null;
  const { step } = ctx;
  const steps = data.steps || [];
  const at = step === null ? null : steps[step];
  const grads = hidden ? null : at ? at.grads : data.graph.nodes.map((n) => n.grad);
  drawGraph(figure, data.graph, { grads, active: at?.visit ?? undefined, factors: step !== null });
  table.hidden = hidden;
  status.textContent = at ? stepText(data, at, step === steps.length - 1) : `${data.expr} = ${fmt(data.output)}`;
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const t of ["input", "grad by the engine", "slope by nudging", "match"]) head.append(el("th", { textContent: t }));
  const body = table.createTBody();
  for (const [name, check] of Object.entries(data.checks)) {
    const row = body.insertRow();
    const ok = Math.abs(check.autograd - check.numeric) <= 1e-4 * (1 + Math.abs(check.numeric));
    for (const text of [name, fmt(check.autograd, COLUMN), fmt(check.numeric, COLUMN), ok ? "✓" : "✗"]) row.insertCell().textContent = text;
  }
}

/** What one step of the backward pass did: which node sent its gradient where. */
function stepText(data, at, last) {
  const { nodes } = data.graph;
  const out = nodes[nodes.length - 1];
  if (at.visit === null) return `Backward starts at the output: ∂${out.label}/∂${out.label} = 1. Every other gradient is 0 so far.`;
  const kids = layout(data.graph).children[at.visit];
  const node = nodes[at.visit];
  const name = node.label || formula(node, data.graph, layout(data.graph).children);
  const sent = [...new Set(kids)].map((c) => `${nodes[c].label || formula(nodes[c], data.graph, layout(data.graph).children)} now ${fmt(at.grads[c])}`);
  return `${name} sends its gradient ${fmt(at.grads[at.visit])} back: ${sent.join(", ")}.${last ? " Done: every node has its gradient." : ""}`;
}

/** The graph again from the worker for a new expression or new values (the newest
 * answer wins); new variables get their sliders. */
function recomputer(ctx) {
  const call = latestCall(ctx.status, "Building the graph once Python has loaded…");
  return async (source = ctx.data.expr) => {
    const fresh = await call("expression", [source, ctx.values]);
    if (!fresh) return;
    if (fresh.error) {
      ctx.status.textContent = fresh.error;
      return;
    }
    const changedVariables = fresh.variables.join() !== ctx.data.variables.join();
    ctx.data = { ...ctx.data, ...fresh, expr: source };
    ctx.step = null; // a new graph shows every gradient again
    for (const name of ctx.data.variables) if (!(name in ctx.values)) ctx.values[name] = fresh.inputs[name];
    if (changedVariables) renderSliders(ctx);
    render(ctx);
  };
}
