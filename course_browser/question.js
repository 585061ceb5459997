// Number and choice questions: typed answers are read the way people write them.
import FACTS from "../runner/facts.json" with { type: "json" };
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { progress } from "./progress.js";

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
  const slips = JSON.parse(root.dataset.slips || "[]");
  const reasons = JSON.parse(root.dataset.reasons || "{}");
  const tolerance = Number(root.dataset.tolerance || FACTS.question_tolerance);
  const uid = `course-q-${++counter}`;
  const state = progress.item(level, id);

  const form = el("form", { className: "course-question__form", noValidate: true });
  let readAnswer;
  let fill;
  if (kind === "choice") {
    const list = root.querySelector(".course-question__choices");
    const fieldset = el("fieldset", {}, el("legend", { className: "course-visually-hidden",
      textContent: root.querySelector(".course-question__prompt").textContent.trim() }));
    for (const li of list.querySelectorAll("li")) {
      fieldset.append(el("label", {}, el("input", { type: "radio", name: uid, value: li.dataset.choice }), ` ${li.dataset.choice}`));
    }
    list.replaceWith(fieldset);
    readAnswer = () => {
      const picked = fieldset.querySelector("input:checked");
      return picked ? picked.value : "";
    };
    fill = (value) => {
      for (const input of fieldset.querySelectorAll("input")) input.checked = input.value === value;
    };
  } else {
    const input = el("input", { id: uid, type: "text", inputMode: "decimal", autocomplete: "off", className: "course-question__input" });
    form.append(el("label", { htmlFor: uid, textContent: "Your answer" }), input);
    readAnswer = () => input.value;
    fill = (value) => { input.value = value; };
  }
  const check = button("Check answer", "md-button--primary");
  check.type = "submit"; // Enter in the answer field checks
  const show = button("Show answer");
  const feedback = liveStatus("p", "course-feedback");
  form.append(check, show);
  if (kind === "choice") form.prepend(root.querySelector("fieldset"));
  root.append(form, feedback);

  const markSolved = (message) => {
    feedback.dataset.state = "right";
    feedback.textContent = message;
    root.classList.add("is-solved");
  };
  if (state.solved) {
    fill(state.answer ?? answer);
    markSolved(state.shown ? `The answer is ${answer}.` : `Right: ${answer}. ${explain || ""}`.trim());
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const given = readAnswer();
    if (!String(given).trim()) {
      feedback.dataset.state = "empty";
      feedback.textContent = kind === "choice" ? "Pick one of the answers first." : "Type a number first, for example -6 or 0.5.";
      return;
    }
    let right;
    let slip = null;
    let near = null;
    let reason = null;
    if (kind === "choice") {
      right = given === answer;
      reason = right || !Object.hasOwn(reasons, given) ? null : reasons[given];
    } else {
      const value = parseNumber(given);
      if (value === null) {
        feedback.dataset.state = "empty";
        feedback.textContent = `“${given}” is not a number I can read. Type digits, like -6 or 2.5.`;
        return;
      }
      right = Math.abs(value - parseNumber(answer)) <= tolerance;
      // a diagnosis only where the number is exactly what a known slip gives
      slip = right ? null : slips.find(([wrong]) => Math.abs(value - wrong) <= tolerance)?.[1] ?? null;
      near = right || slip ? null : nearMiss(value, given, answer);
    }
    if (right) {
      progress.update(level, id, { solved: true, answer: String(given).trim() });
      markSolved(`Right: ${answer}. ${explain || ""}`.trim());
    } else {
      feedback.dataset.state = "wrong";
      const shown = String(given).trim();
      feedback.textContent = slip ? `Not yet: ${shown} is ${slip}`
        : reason ? `Not yet. ${reason}`
          : near ? `Not yet, but ${near}`
            : `Not yet: ${shown} is not it. ${look || "Try again."}`;
    }
    root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: right } }));
  });
  show.addEventListener("click", async () => {
    const cost = root.closest(".course-quiz")
      ? "The short test can't count this question then, so the test can no longer clear the level." : "It will not count for stars.";
    if (!await confirmDialog("Show the answer?", cost, "Show the answer")) return;
    fill(answer);
    progress.update(level, id, { solved: true, shown: true, answer });
    markSolved(`The answer is ${answer}. ${explain || ""}`.trim());
    root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: true } }));
  });
}
