// "Write an L whose ∂L/∂a is 0 at the point": a graded task that leans on the
// expression lab (expression.js), a `/// question` block with `kind: flat`, built as
// `<div class="course-question" data-task="flat" data-mounted="lab">`. The worker
// differentiates the learner's expression with the engine's parser (never eval) and
// returns facts; the verdict is made here, and recorded through progress.js like an answer.
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus } from "./dom.js";
import { fmt } from "./numbers.js";
import { progress } from "./progress.js";
import { latestCall } from "./runtime.js";
import { notYet } from "./verdicts.js";

const ZERO = 1e-9; // ∂L/∂a this close to 0 is 0 (a·0.1·30 − 3·a leaves 4e-16 of rounding)

/** "Write an L whose ∂L/∂(wrt) is 0 at the point": the learner's expression, the
 * engine's facts about it from the worker, a verdict that says why. */
export function mountFlatTask(task, level) {
  task.dataset.mounted = "true";
  const { question: id, wrt, example, hint } = task.dataset;
  const point = JSON.parse(task.dataset.values);
  const at = Object.entries(point).map(([k, v]) => `${k} = ${fmt(v)}`).join(", ");
  const ctx = { task, level, id, wrt, example, hint, point, at };
  for (const part of [answerForm, checking, showExample]) part(ctx);
}

/** The field and its buttons, the feedback line, and an earlier visit's solution. */
function answerForm(ctx) {
  const { task, level, id, wrt, at } = ctx;
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
  Object.assign(ctx, { input, show, form, feedback });

  const say = (state, text) => { feedback.dataset.state = state; feedback.textContent = text; };
  const solved = (text) => { say("right", text); task.classList.add("is-solved"); };
  const state = progress.item(level, id);
  if (state.solved) {
    input.value = state.answer ?? "";
    solved(state.shown ? `An example: ${state.answer}, with ∂L/∂${wrt} = 0 at ${at}.` : `∂L/∂${wrt} = 0 ✓ for ${state.answer}, at ${at}.`);
  }
  Object.assign(ctx, { say, solved });
}

/** Check expression: the worker's facts about the learner's L, judged here. */
function checking(ctx) {
  const { task, level, id, wrt, input, form, say, solved } = ctx;
  const call = latestCall(ctx.feedback, "Checking once Python has loaded…");
  ctx.judge = (source) => judge(ctx, call, source);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const source = input.value.trim();
    if (!source) {
      say("empty", `Type an expression first, for example ${wrt}*b + ${wrt}.`);
      return;
    }
    const verdict = await ctx.judge(source);
    if (!verdict) return;
    if (verdict.state === "right") {
      progress.update(level, id, { solved: true, answer: source });
      solved(verdict.text);
    } else say(verdict.state, verdict.text);
    task.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: verdict.state === "right" } }));
  });
}

/** Show an example: one right L, counted as shown, and then why the engine agrees. */
function showExample(ctx) {
  const { task, level, id, wrt, example, at, input, solved } = ctx;
  ctx.show.addEventListener("click", async () => {
    if (!await confirmDialog("Show an example?", "It will not count for stars.", "Show an example")) return;
    input.value = example;
    progress.update(level, id, { solved: true, shown: true, answer: example });
    solved(`An example: ${example}, with ∂L/∂${wrt} = 0 at ${at}.`);
    task.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: true } }));
    const verdict = await ctx.judge(example); // the engine says why
    if (verdict?.state === "right") solved(`An example: ${example}. ${verdict.text}`);
  });
}

/** The verdict on `source`, or null when there is none to show (overtaken by a newer
 * check, or the worker failed: said in the feedback line). */
async function judge(ctx, call, source) {
  const { point, wrt, say } = ctx;
  let facts;
  try {
    facts = await call("gradient_at", [source, point, wrt]);
  } catch (error) {
    say("empty", `Could not check it: ${error.message}`);
    return null;
  }
  if (!facts) return null; // overtaken by a newer check
  if (facts.error) return { state: "empty", text: notYet(facts.error) };
  return misuse(ctx, source, facts) ?? flatness(ctx, facts);
}

/** An L whose ∂L/∂(wrt) is 0, or can't be had, for a reason that says nothing: it leaves
 * out `wrt`, uses a name the point has no value for, or never really depends on `wrt`. */
function misuse({ point, wrt }, source, facts) {
  const others = facts.variables.filter((name) => !(name in point));
  if (!facts.variables.includes(wrt)) {
    return { state: "wrong", text: notYet(`${source} does not use ${wrt}. Then L does not depend on ${wrt} at all, `)
      + `and ∂L/∂${wrt} is 0 for every ${wrt}, not because of this point: true, but it says nothing. `
      + `(The engine would not even have a node for ${wrt}.) Use ${wrt}, and make L flat in ${wrt} exactly here.` };
  }
  if (others.length) {
    const names = others.join(" and ");
    return { state: "wrong", text: notYet(`the point gives values to ${Object.keys(point).join(" and ")} only, `)
      + `so ${names} ${others.length > 1 ? "have" : "has"} none. Use ${Object.keys(point).join(" and ")}, and numbers.` };
  }
  if (!facts.varies) {
    const fixed = Object.entries(point).filter(([k]) => k !== wrt).map(([k, v]) => `${k} = ${fmt(v)}`).join(", ");
    return { state: "wrong", text: notYet(`${wrt} is in it, but ${fixed ? `with ${fixed}, ` : ""}L is the same for every ${wrt} `)
      + `(its uses cancel everywhere, or are multiplied by 0), so ∂L/∂${wrt} is 0 for every ${wrt}, not just here. `
      + `Find an L that does change with ${wrt}, but is flat exactly at ${wrt} = ${fmt(point[wrt])}.` };
  }
  return null;
}

/** Whether L is flat in `wrt` at the point: the engine's gradient, checked against the nudge oracle. */
function flatness({ wrt, hint, at }, facts) {
  const parts = facts.parts.map((p) => `${fmt(p.part)} through ${p.via}`);
  if (Math.abs(facts.grad) > ZERO) {
    const sent = parts.length > 1 ? ` (${wrt}'s uses send back ${parts.join(", ")})` : "";
    return { state: "wrong", text: notYet(`here ∂L/∂${wrt} = ${fmt(facts.grad)}, not 0${sent}. ${hint || ""}`).trim() };
  }
  // the engine's 0 is checked against the nudge oracle (labs/expression.py gradient_facts): at a kink
  // relu's rule at exactly 0 gives 0, while L has a corner there, not a flat spot
  if (facts.kink) {
    return { state: "wrong", text: notYet(`the engine says ∂L/∂${wrt} = 0 here, but L has a kink at ${at}, not a flat spot. `)
      + `Nudging ${wrt} down, L moves at ${fmt(facts.left)} per unit; nudging it up, at ${fmt(facts.right)} per unit `
      + `(the central difference says ${fmt(facts.nudged)}). The engine's 0 is only relu's rule at exactly 0. `
      + `Find an L whose slope is 0 from both sides.` };
  }
  if (facts.agrees === false) {
    return { state: "wrong", text: notYet(`the engine says ∂L/∂${wrt} = 0 here, but the nudge oracle measures `)
      + `${fmt(facts.nudged)}: L does move with ${wrt}. The engine's 0 comes from relu's rule at exactly 0; the nudge is the truth.` };
  }
  return { state: "right", text: `∂L/∂${wrt} = 0 ✓ at ${at}`
    + `${parts.length > 1 ? `: ${wrt}'s uses send back ${parts.join(" and ")}, and they cancel` : ""}`
    + `; nudging ${wrt} both ways agrees: L is flat there.` };
}
