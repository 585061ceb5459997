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
//   data-task="flat"    "write an L whose ∂L/∂a is 0 at the point": the worker
//                       differentiates the learner's expression with the engine's
//                       parser (never eval) and returns facts; the verdict is made
//                       here, and recorded through progress.js like an answer.
import FACTS from "../runner/facts.json" with { type: "json" };
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { drawGraph, formula, layout } from "./graphview.js";
import { fmt, svg } from "./svg.js";
import { predictFirst } from "./predict.js";
import { progress } from "./progress.js";
import { mountQuestion } from "./question.js";
import { latestCall } from "./runtime.js";
import { rememberInput } from "./lab.js";

const pageLevel = () => document.querySelector(".course-level[data-level]")?.dataset.level ?? location.pathname;
const scopeOf = (root) => root.closest("article") || document;

/** The questions the lab keeps back (its `hides`) that ask for a gradient of its
 * starting expression: filled in from the engine's numbers, then mounted as questions. */
function mountPredictions(root, start) {
  for (const id of JSON.parse(root.dataset.hides || "[]")) {
    const q = scopeOf(root).querySelector(`.course-question[data-question="${CSS.escape(id)}"][data-predicts]`);
    const facts = start.predict?.[q?.dataset.predicts];
    if (q?.dataset.mounted !== "lab" || !facts) continue;
    q.prepend(el("p", { className: "course-kind", textContent: "Number" }),
      el("div", { className: "course-question__prompt" }, ...q.childNodes));
    Object.assign(q.dataset, { kind: "number", answer: facts.answer.toFixed(4).replace("-", "−"), tolerance: String(FACTS.question_tolerance),
      explain: facts.explain, look: facts.look, slips: JSON.stringify(facts.slips) });
    delete q.dataset.mounted;
    mountQuestion(q, { level: pageLevel() });
  }
}

const ZERO = 1e-9; // ∂L/∂a this close to 0 is 0 (a·0.1·30 − 3·a leaves 4e-16 of rounding)

/** "Write an L whose ∂L/∂(wrt) is 0 at the point": the learner's expression, the
 * engine's facts about it from the worker, a verdict that says why. */
function mountFlatTask(task) {
  task.dataset.mounted = "true";
  const level = pageLevel();
  const { question: id, wrt, example, hint } = task.dataset;
  const point = JSON.parse(task.dataset.values);
  const at = Object.entries(point).map(([k, v]) => `${k} = ${fmt(v)}`).join(", ");
  const uid = `course-task-${id}`;
  const input = el("input", { id: uid, type: "text", spellcheck: false, autocomplete: "off", autocapitalize: "off",
    className: "course-question__input course-expression__input" });
  const check = button("Check expression", "md-button--primary");
  check.type = "submit"; // Enter in the field checks
  const show = button("Show an example");
  const form = el("form", { className: "course-question__form", noValidate: true },
    el("label", { htmlFor: uid, textContent: "Your expression L" }), input, check, show);
  const feedback = liveStatus("p", "course-feedback");
  task.prepend(el("p", { className: "course-kind", textContent: "Expression" }));
  task.append(form, feedback);

  const say = (state, text) => { feedback.dataset.state = state; feedback.textContent = text; };
  const solved = (text) => { say("right", text); task.classList.add("is-solved"); };
  const state = progress.item(level, id);
  if (state.solved) {
    input.value = state.answer ?? "";
    solved(state.shown ? `An example: ${state.answer}, with ∂L/∂${wrt} = 0 at ${at}.` : `∂L/∂${wrt} = 0 ✓ for ${state.answer}, at ${at}.`);
  }

  const call = latestCall(feedback, "Checking once Python has loaded…");
  async function judge(source) {
    let facts;
    try {
      facts = await call("gradient_at", [source, point, wrt]);
    } catch (error) {
      say("empty", `Could not check it: ${error.message}`);
      return null;
    }
    if (!facts) return null; // overtaken by a newer check
    if (facts.error) return { state: "empty", text: `Not yet: ${facts.error}` };
    const others = facts.variables.filter((name) => !(name in point));
    if (!facts.variables.includes(wrt)) {
      return { state: "wrong", text: `Not yet: ${source} does not use ${wrt}. Then L does not depend on ${wrt} at all, `
        + `and ∂L/∂${wrt} is 0 for every ${wrt}, not because of this point: true, but it says nothing. `
        + `(The engine would not even have a node for ${wrt}.) Use ${wrt}, and make L flat in ${wrt} exactly here.` };
    }
    if (others.length) {
      const names = others.join(" and ");
      return { state: "wrong", text: `Not yet: the point gives values to ${Object.keys(point).join(" and ")} only, `
        + `so ${names} ${others.length > 1 ? "have" : "has"} none. Use ${Object.keys(point).join(" and ")}, and numbers.` };
    }
    if (!facts.varies) {
      const fixed = Object.entries(point).filter(([k]) => k !== wrt).map(([k, v]) => `${k} = ${fmt(v)}`).join(", ");
      return { state: "wrong", text: `Not yet: ${wrt} is in it, but ${fixed ? `with ${fixed}, ` : ""}L is the same for every ${wrt} `
        + `(its uses cancel everywhere, or are multiplied by 0), so ∂L/∂${wrt} is 0 for every ${wrt}, not just here. `
        + `Find an L that does change with ${wrt}, but is flat exactly at ${wrt} = ${fmt(point[wrt])}.` };
    }
    const parts = facts.parts.map((p) => `${fmt(p.part)} through ${p.via}`);
    if (Math.abs(facts.grad) > ZERO) {
      const sent = parts.length > 1 ? ` (${wrt}'s uses send back ${parts.join(", ")})` : "";
      return { state: "wrong", text: `Not yet: here ∂L/∂${wrt} = ${fmt(facts.grad)}, not 0${sent}. ${hint || ""}`.trim() };
    }
    // the engine's 0 is checked against the nudge oracle (labs/expression.py gradient_facts): at a kink
    // relu's rule at exactly 0 gives 0, while L has a corner there, not a flat spot
    if (facts.kink) {
      return { state: "wrong", text: `Not yet: the engine says ∂L/∂${wrt} = 0 here, but L has a kink at ${at}, not a flat spot. `
        + `Nudging ${wrt} down, L moves at ${fmt(facts.left)} per unit; nudging it up, at ${fmt(facts.right)} per unit `
        + `(the central difference says ${fmt(facts.nudged)}). The engine's 0 is only relu's rule at exactly 0. `
        + `Find an L whose slope is 0 from both sides.` };
    }
    if (facts.agrees === false) {
      return { state: "wrong", text: `Not yet: the engine says ∂L/∂${wrt} = 0 here, but the nudge oracle measures `
        + `${fmt(facts.nudged)}: L does move with ${wrt}. The engine's 0 comes from relu's rule at exactly 0; the nudge is the truth.` };
    }
    return { state: "right", text: `∂L/∂${wrt} = 0 ✓ at ${at}`
      + `${parts.length > 1 ? `: ${wrt}'s uses send back ${parts.join(" and ")}, and they cancel` : ""}`
      + `; nudging ${wrt} both ways agrees: L is flat there.` };
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const source = input.value.trim();
    if (!source) {
      say("empty", `Type an expression first, for example ${wrt}*b + ${wrt}.`);
      return;
    }
    const verdict = await judge(source);
    if (!verdict) return;
    if (verdict.state === "right") {
      progress.update(level, id, { solved: true, answer: source });
      solved(verdict.text);
    } else say(verdict.state, verdict.text);
    task.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: verdict.state === "right" } }));
  });
  show.addEventListener("click", async () => {
    if (!await confirmDialog("Show an example?", "It will not count for stars.", "Show an example")) return;
    input.value = example;
    progress.update(level, id, { solved: true, shown: true, answer: example });
    solved(`An example: ${example}, with ∂L/∂${wrt} = 0 at ${at}.`);
    task.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: true } }));
    const verdict = await judge(example); // the engine says why
    if (verdict?.state === "right") solved(`An example: ${example}. ${verdict.text}`);
  });
}

export function mountExpression(root) {
  if (!mountOnce(root)) return;
  let data = JSON.parse(root.dataset.expression);
  mountPredictions(root, data);
  for (const task of scopeOf(root).querySelectorAll('.course-question[data-task="flat"][data-mounted="lab"]')) mountFlatTask(task);
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
      // wide enough for the value the page starts from (the chain rule's c = 10), never narrower than ±4;
      // fine enough for a small nudge (the chain rule level predicts L at a = 2.01: one press of →)
      const reach = Math.max(4, Math.ceil(Math.abs(data.inputs[name] ?? 0) * 1.5));
      const input = el("input", { type: "range", min: String(-reach), max: String(reach), step: "0.01",
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
  if (data.editable) rememberInput(root, "expression", expr, () => recompute(expr.value.trim())); // kept across reloads
}
