// Render a verdict (compare.js) or a Run report as text: never as HTML, since
// learner output, error messages and even case values may be anything.
//
// What matters leads, the rest is one click away:
//   headline — summary
//   Known mistake: <message>          when the outputs are exactly a known mistake's
//   the first failing check in full: what differs, then the case it differs on
//   ▸ All N checks                    a disclosure: ✓ / ✗ each check, with its counterexample
//   the error's traceback, then what the code printed

import { plainWords } from "./compare.js";
import { richText } from "./answer.js";
import { el } from "./dom.js";
import { HEADLINE } from "./verdicts.js";

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

const ON = " On: "; // compare.js: what differs, then " On: " and the case

/** A counterexample as two parts: what differs, and the case (code) it differs on. */
function counterexampleView(message) {
  const at = message.lastIndexOf(ON);
  if (at < 0) return [node("span", "course-result__message", message)];
  return [node("span", "course-result__message", message.slice(0, at)),
    node("span", "course-result__case", "On: "), node("code", "course-result__inputs", message.slice(at + ON.length))];
}

/** The first failing check, in full: the learner's next step. */
function firstFailing(region, test) {
  const box = node("div", "course-result__first");
  box.append(node("p", "course-result__label", `✗ ${str(test.name)}`));
  const body = node("p", "");
  body.append(...counterexampleView(str(test.message)));
  box.append(body);
  region.append(box);
}

/** Every check behind a disclosure: the long cases of the others would bury the first. */
function tests(region, list) {
  const passing = list.filter((t) => t.passed === true).length;
  const details = node("details", "course-result__all");
  details.append(node("summary", "", `All ${list.length} checks: ${passing} pass${passing === list.length ? "" : `, ${list.length - passing} fail`}`));
  const ul = node("ul", "course-result__tests");
  ul.setAttribute("aria-label", "Checks");
  for (const test of list) {
    const item = node("li", test.passed ? "is-pass" : "is-fail");
    item.append(node("span", "course-result__mark", test.passed ? "✓ " : "✗ "));
    item.append(node("span", "course-result__name", str(test.name)));
    if (test.message) item.append(" ", ...counterexampleView(str(test.message)));
    ul.append(item);
  }
  details.append(ul);
  region.append(details);
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

// A Run grades nothing: its headline says how the code ended, not a Check's "failed" (but for a blank left).
const RUN_HEADLINES = { ok: HEADLINE.ran, blank: HEADLINE.failed, timeout: "Stopped", stopped: "Stopped" };

export function renderVerdict(region, verdict, { mode = "check" } = {}) {
  region.replaceChildren();
  if (mode === "run") {
    const ran = verdict.status === "ok";
    region.dataset.state = ran ? "ran" : "failed";
    // a Run's report comes straight from the worker: the same plain words a Check adds
    const error = verdict.error && typeof verdict.error === "object" ? verdict.error : null;
    const plain = error ? plainWords(`${str(error.type)}: ${str(error.message)}`) : "";
    const word = RUN_HEADLINES[verdict.status] || "Error";
    // a stopped run's summary starts "Stopped." for a Check's "Not yet — …"; after this headline, once is enough
    const summary = str(verdict.summary).startsWith(`${word}. `) ? str(verdict.summary).slice(word.length + 2) : str(verdict.summary);
    headline(region, word, [summary, plain].filter(Boolean).join(" "));
    output(region, verdict);
    return;
  }
  const passed = verdict.passed === true;
  region.dataset.state = passed ? "passed" : "failed";
  headline(region, str(verdict.headline) || HEADLINE[passed ? "passed" : "failed"], str(verdict.summary));
  if (verdict.diagnosis) diagnosis(region, verdict.diagnosis);
  const list = Array.isArray(verdict.tests) ? verdict.tests : [];
  const first = list.find((t) => t.passed !== true && t.message);
  if (first) firstFailing(region, first);
  if (list.length) tests(region, list);
  output(region, verdict);
}
