// Number and choice questions: typed answers are read the way people write them.
import FACTS from "../runner/facts.json" with { type: "json" };
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { progress } from "./progress.js";
import { notYet } from "./verdicts.js";

/** "-6", "−6" (Unicode minus), " -6.0 ", "+6", "6,5" -> a number; null when it is not one. */
export function parseNumber(text) {
  const cleaned = String(text).trim()
    .replace(/[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g, "-")
    .replace(/^([+-])\s+/, "$1")
    .replace(/^(-?\d+),(\d+)$/, "$1.$2");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

/** How many decimals `text` (a number as the page writes it) gives: "0.4621" -> 4. */
export function decimals(text) {
  const found = /\.(\d+)/.exec(String(text).replace(/e.*$/i, ""));
  return found ? found[1].length : 0;
}

const WORDS = ["no", "one", "two", "three", "four", "five", "six"];

/** A near miss, in words, or null: a number rounded short of the decimals the answer
 * has ("close: give three decimals"), or within 2 % of it. Says what is near, never the
 * answer itself. */
export function nearMiss(value, given, answerText) {
  const answer = parseNumber(answerText);
  const want = decimals(answerText);
  const have = decimals(given);
  if (have < want && Math.abs(value - answer) <= 0.5 * 10 ** -have + 1e-12) {
    return `close: ${String(given).trim()} is the answer rounded. Give ${WORDS[want] || want} decimals.`;
  }
  if (answer !== 0 && Math.abs(value - answer) <= 0.02 * Math.abs(answer)) {
    // a percentage reads oddly for a whole number, a count most of all
    return want === 0 && Number.isInteger(value)
      ? `close: ${String(given).trim()} is near the answer, but not it.`
      : `close: ${String(given).trim()} is within 2 % of the answer, but not it.`;
  }
  return null;
}

let counter = 0;

export function mountQuestion(root, { level }) {
  if (!mountOnce(root)) return;
  const { question: id, kind, answer, explain, look } = root.dataset;
  const ctx = {
    root, level, id, kind, answer, explain, look,
    slips: JSON.parse(root.dataset.slips || "[]"),
    reasons: JSON.parse(root.dataset.reasons || "{}"),
    tolerance: Number(root.dataset.tolerance || FACTS.question_tolerance),
    uid: `course-q-${++counter}`,
    form: el("form", { className: "course-question__form", noValidate: true }),
  };
  for (const part of [kind === "choice" ? choiceField : numberField, answerForm, checking, showAnswer]) part(ctx);
}

/** The choices as radio buttons in place of the list the page wrote. */
function choiceField(ctx) {
  const { root, uid } = ctx;
  const list = root.querySelector(".course-question__choices");
  const fieldset = el("fieldset", {}, el("legend", { className: "course-visually-hidden",
    textContent: root.querySelector(".course-question__prompt").textContent.trim() }));
  for (const li of list.querySelectorAll("li")) {
    fieldset.append(el("label", {}, el("input", { type: "radio", name: uid, value: li.dataset.choice }), ` ${li.dataset.choice}`));
  }
  list.replaceWith(fieldset);
  ctx.readAnswer = () => {
    const picked = fieldset.querySelector("input:checked");
    return picked ? picked.value : "";
  };
  ctx.fill = (value) => {
    for (const input of fieldset.querySelectorAll("input")) input.checked = input.value === value;
  };
}

/** A text field for a number, read the way people write one (parseNumber). */
function numberField(ctx) {
  const { form, uid } = ctx;
  const input = el("input", { id: uid, type: "text", inputMode: "decimal", autocomplete: "off", className: "course-question__input" });
  form.append(el("label", { htmlFor: uid, textContent: "Your answer" }), input);
  ctx.readAnswer = () => input.value;
  ctx.fill = (value) => { input.value = value; };
}

/** The form's buttons and the feedback line under it, and an earlier visit's answer. */
function answerForm(ctx) {
  const { root, form, kind, answer, explain } = ctx;
  const check = button("Check answer", "md-button--primary");
  check.type = "submit"; // Enter in the answer field checks
  const show = button("Show answer");
  const feedback = liveStatus("p", "course-feedback");
  form.append(check, show);
  if (kind === "choice") form.prepend(root.querySelector("fieldset"));
  root.append(form, feedback);
  Object.assign(ctx, { show, feedback });

  ctx.markSolved = (message) => {
    feedback.dataset.state = "right";
    feedback.textContent = message;
    root.classList.add("is-solved");
  };
  const state = progress.item(ctx.level, ctx.id);
  if (state.solved) {
    ctx.fill(state.answer ?? answer);
    ctx.markSolved(state.shown ? `The answer is ${answer}.` : `Right: ${answer}. ${explain || ""}`.trim());
  }
}

/** Check answer: right, a known slip, a near miss, or not it, said in the feedback line. */
function checking(ctx) {
  const { root, level, id, answer, explain, look, feedback } = ctx;
  ctx.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const given = ctx.readAnswer();
    const { unread, right, slip, near, reason } = grade(ctx, given);
    if (unread) {
      feedback.dataset.state = "empty";
      feedback.textContent = unread;
      return;
    }
    if (right) {
      progress.update(level, id, { solved: true, answer: String(given).trim() });
      ctx.markSolved(`Right: ${answer}. ${explain || ""}`.trim());
    } else {
      feedback.dataset.state = "wrong";
      const shown = String(given).trim();
      feedback.textContent = slip ? notYet(`${shown} is ${slip}`)
        : reason ? notYet(reason, ". ")
          : near ? notYet(`but ${near}`, ", ")
            : notYet(`${shown} is not it. ${look || "Try again."}`);
    }
    root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: right } }));
  });
}

/** The answer given, judged: `unread` says why it can't be judged (nothing given, or not
 * a number); else whether it is right, and what a wrong one is (slip, near, reason). */
function grade({ kind, answer, slips, reasons, tolerance }, given) {
  if (!String(given).trim()) {
    return { unread: kind === "choice" ? "Pick one of the answers first." : "Type a number first, for example -6 or 0.5." };
  }
  if (kind === "choice") {
    const right = given === answer;
    return { right, reason: right || !Object.hasOwn(reasons, given) ? null : reasons[given] };
  }
  const value = parseNumber(given);
  if (value === null) return { unread: `“${given}” is not a number I can read. Type digits, like -6 or 2.5.` };
  const right = Math.abs(value - parseNumber(answer)) <= tolerance;
  // a diagnosis only where the number is exactly what a known slip gives
  const slip = right ? null : slips.find(([wrong]) => Math.abs(value - wrong) <= tolerance)?.[1] ?? null;
  const near = right || slip ? null : nearMiss(value, given, answer);
  return { right, slip, near };
}

/** Show answer: asked first, since a shown answer earns no stars (nor counts in a skip test). */
function showAnswer(ctx) {
  const { root, level, id, answer, explain } = ctx;
  ctx.show.addEventListener("click", async () => {
    const cost = root.closest(".course-quiz")
      ? "The short test can't count this question then, so the test can no longer clear the level." : "It will not count for stars.";
    if (!await confirmDialog("Show the answer?", cost, "Show the answer")) return;
    ctx.fill(answer);
    progress.update(level, id, { solved: true, shown: true, answer });
    ctx.markSolved(`The answer is ${answer}. ${explain || ""}`.trim());
    root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: true } }));
  });
}
