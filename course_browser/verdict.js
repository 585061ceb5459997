// Render a verdict (compare.js) or a Run report as text: never as HTML, since
// learner output, error messages and even case values may be anything.
//
//   headline — summary
//   Known mistake: <message>          when the outputs are exactly a known mistake's
//   ✓ / ✗ each check, with its counterexample
//   the error's traceback, then what the code printed

import { richText } from "./answer.js";
import { el } from "./dom.js";

const node = (tag, className, text) => el(tag, { className: className || undefined, textContent: text });

const str = (x) => (typeof x === "string" ? x : "");

function headline(region, strong, summary) {
  const head = node("p", "course-result__headline");
  head.append(node("strong", "", strong), document.createTextNode(summary ? ` — ${summary}` : ""));
  region.append(head);
}

function diagnosis(region, found) {
  const box = node("div", "course-result__diagnosis");
  const text = node("p", "");
  text.append(node("strong", "", "Known mistake: "), ...richText(str(found.message))); // `code` and *emphasis*, as text nodes
  box.append(text);
  region.append(box);
}

function tests(region, list) {
  const ul = node("ul", "course-result__tests");
  ul.setAttribute("aria-label", "Checks");
  for (const test of list) {
    const item = node("li", test.passed ? "is-pass" : "is-fail");
    item.append(node("span", "course-result__mark", test.passed ? "✓ " : "✗ "));
    item.append(node("span", "course-result__name", str(test.name)));
    if (test.message) item.append(node("span", "course-result__message", str(test.message)));
    ul.append(item);
  }
  region.append(ul);
}

function output(region, verdict) {
  const error = verdict.error;
  if (error && typeof error === "object" && error.traceback) {
    region.append(node("pre", "course-result__error", str(error.traceback)));
  }
  const stdout = str(verdict.stdout);
  if (stdout) {
    const out = node("div", "course-result__output");
    out.append(node("p", "course-result__label", "Output"));
    out.append(node("pre", "", stdout + (verdict.stdout_truncated === true
      ? "\n[output truncated: only the first 20,000 characters are shown]" : "")));
    region.append(out);
  }
}

// A Run grades nothing: its headline says how the code ended, never "Not yet".
const RUN_HEADLINES = { ok: "Ran", blank: "Not yet", timeout: "Stopped", stopped: "Stopped" };

export function renderVerdict(region, verdict, { mode = "check" } = {}) {
  region.replaceChildren();
  if (mode === "run") {
    const ran = verdict.status === "ok";
    region.dataset.state = ran ? "ran" : "failed";
    headline(region, RUN_HEADLINES[verdict.status] || "Error", str(verdict.summary));
    output(region, verdict);
    return;
  }
  const passed = verdict.passed === true;
  region.dataset.state = passed ? "passed" : "failed";
  headline(region, str(verdict.headline) || (passed ? "Passed" : "Not yet"), str(verdict.summary));
  if (verdict.diagnosis) diagnosis(region, verdict.diagnosis);
  if (Array.isArray(verdict.tests) && verdict.tests.length) tests(region, verdict.tests);
  output(region, verdict);
}
