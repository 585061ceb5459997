// The verdict: compare what learner code computed with the expected outputs.
//
// Two halves, as in grader/compare.py:
//   decide(data, report) -> {status, passed, unreadable, first, groups, mistake}
//   verdict(data, report) -> {status, passed, headline, summary, tests,
//                             diagnosis, stdout, stdout_truncated, error}
// decide is the rule: which numbers are close, which case groups pass, which known
// mistake the outputs are, the first failing case and what differs in it. It is
// compare.py's decide line for line, and tests/grading/test_js_python_agree.py holds
// the two to equal decisions on every solution, starter, known mistake, mutant,
// alternative answer and forged report. verdict words a decision in JavaScript's
// own way (numbers by numbers.js): only how a number is written may differ from
// the command line's words.
//
// This runs on the page, where learner code cannot reach; `report` comes from the
// worker, which learner code can, so every field is checked and capped before it is
// shown. A number too big for a double arrives as Infinity: not a number, as 10**400
// is not one to compare.py.

import FACTS from "../runner/facts.json" with { type: "json" };
import PLAIN from "../grader/plain_errors.json" with { type: "json" };
import { fmt } from "./numbers.js";
import { makeVerdict } from "./verdicts.js";

const MAX_OUTPUTS_PER_CASE = FACTS.max_outputs_per_case;
const MESSAGE_LIMIT = FACTS.message_limit;
const OUTPUT_LIMIT = FACTS.output_limit;

const REPORT_STATUSES = ["ran", "blank", "syntax", "error", "timeout", "stopped"];
const UNREADABLE = "The checks sent back something unreadable. Run the Check again.";
const PLAIN_RULES = PLAIN.rules.map(([pattern, sentence]) => [new RegExp(pattern), sentence]);
const NEAR = 0.01; // a gap below this share of the numbers is spelled out: 1.3872 and 1.387202 read as equal

const has = (obj, key) => Object.hasOwn(obj, key);
/** dict.get(key, fallback): own keys only, so "__proto__" or "toString" in a report are plain keys. */
const get = (obj, key, fallback = null) => (has(obj, key) ? obj[key] : fallback);
const isDict = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isStr = (x) => typeof x === "string";
/** An int, as the worker's json.dumps writes one (a whole number below 2**53). */
const isInt = (x) => Number.isSafeInteger(x);

// -- the decision (compare.py has its twin) ------------------------------------

function isNumber(x) {
  return typeof x === "number" && Number.isFinite(x);
}

function close(got, want, tol) {
  if (!(isNumber(got) && isNumber(want))) return false;
  return Math.abs(got - want) <= Math.max(tol.rel * Math.max(Math.abs(got), Math.abs(want)), tol.abs);
}

/** Close enough that the two may read alike: the verdict spells out the gap. */
function near(got, want) {
  return isNumber(got) && isNumber(want) && Math.abs(got - want) <= NEAR * Math.max(Math.abs(got), Math.abs(want));
}

function same(got, want, tol) {
  if (isNumber(want)) return close(got, want, tol);
  return isStr(got) && got === want;
}

function errorKind(result) {
  return result.error.split(":")[0];
}

function zip(...lists) {
  const n = Math.min(...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => lists.map((l) => l[i]));
}

function casePasses(got, expected, tol) {
  return Array.isArray(got) && got.length === expected.length && zip(got, expected).every(([g, w]) => close(g, w, tol));
}

/** Did the learner compute exactly what this known mistake computes? */
export function matches(outputs, mistake, tol) {
  if (!has(mistake, "outputs")) return false;
  for (const [got, sig] of zip(outputs, mistake.outputs)) {
    if (isDict(sig)) {
      if (!(isDict(got) && errorKind(got) === errorKind(sig))) return false;
    } else if (!(Array.isArray(got) && got.length === sig.length && zip(got, sig).every(([g, s]) => same(g, s, tol)))) {
      return false;
    }
  }
  return true;
}

function validOutput(item) {
  if (isDict(item)) {
    return isStr(get(item, "error")) && (get(item, "line") === null || isInt(get(item, "line")));
  }
  return Array.isArray(item) && item.length <= MAX_OUTPUTS_PER_CASE && item.every((x) => isNumber(x) || isStr(x));
}

/** What differs first in a failing case: it raised, it gave too many or too few
 * numbers, or output `output` is not close (and `near`: reads alike). */
function difference(got, expected, tol) {
  if (isDict(got)) return { differs: "raised", output: null, near: false };
  if (got.length !== expected.length) return { differs: "count", output: null, near: false };
  const j = got.findIndex((g, k) => !close(g, expected[k], tol));
  return { differs: "value", output: j, near: near(got[j], expected[j]) };
}

function decision(status, { unreadable = null, first = null, groups = [], mistake = null } = {}) {
  return { status, passed: status === "passed", unreadable, first, groups, mistake };
}

/** The verdict before it is worded: plain values only, equal to compare.py's decide.
 * `unreadable`: null, "report" (not a report at all) or "outputs" (a run's outputs). */
export function decide(data, report) {
  if (!isDict(report) || !REPORT_STATUSES.includes(get(report, "status"))) return decision("error", { unreadable: "report" });
  if (report.status !== "ran") return decision(report.status);
  const outputs = get(report, "outputs");
  const { cases, tolerance: tol } = data;
  if (!Array.isArray(outputs) || outputs.length !== cases.length || !outputs.every(validOutput)) {
    return decision("error", { unreadable: "outputs" });
  }
  const failing = cases.map((_c, i) => i).filter((i) => !casePasses(outputs[i], cases[i].expected, tol));
  const groups = data.groups.map((_group, g) => {
    const i = failing.find((k) => cases[k].group === g);
    return i === undefined ? { passed: true, case: null, differs: null, output: null, near: false }
      : { passed: false, case: i, ...difference(outputs[i], cases[i].expected, tol) };
  });
  if (!failing.length) return decision("passed", { groups });
  const mistake = data.mistakes.find((m) => matches(outputs, m, tol));
  return decision("failed", { first: failing[0], groups, mistake: mistake ? mistake.name : null });
}

// -- the words -----------------------------------------------------------------

/** text cut to `limit` characters (code points: an emoji is not split), marked when cut. */
function cap(text, limit = MESSAGE_LIMIT, mark = "…") {
  if (text.length <= limit) return text;
  let end = 0;
  let n = 0;
  for (const ch of text) {
    if (n === limit) return text.slice(0, end) + mark;
    end += ch.length;
    n += 1;
  }
  return text;
}

/** Any value from a report as text: a string as it is, anything else as JSON. */
const text = (x) => (isStr(x) ? x : (JSON.stringify(x) ?? String(x)));

/** A value from a report as the verdict shows it: a number to `digits` significant digits. */
const written = (x, digits) => (typeof x === "number" ? fmt(x, { digits }) : text(x));

/** Expected and got, with enough digits that they read differently (17 tell any two doubles apart). */
export function fmtPair(want, got) {
  let a;
  let b;
  for (let digits = 6; digits <= 17; digits += 1) {
    [a, b] = [written(want, digits), written(got, digits)];
    if (a !== b) return [a, b];
  }
  return [a, b];
}

/** A plain sentence for a Python error ("Type: message") a learner commonly causes, or "". */
export function plainWords(error) {
  for (const [pattern, sentence] of PLAIN_RULES) {
    const found = pattern.exec(error);
    if (found) return sentence.replaceAll("{1}", () => found[1] || "");
  }
  return "";
}

/** What differs first (as decide found it), then the case it differs on. */
function counterexample(c, got, group) {
  const on = ` On: ${c.text}`;
  if (group.differs === "raised") {
    const line = get(got, "line") ? ` on line ${got.line}` : "";
    const plain = plainWords(cap(got.error));
    return `Your code raised ${cap(got.error)}${line}.${plain ? ` ${plain}` : ""}${on}`;
  }
  if (group.differs === "count") return `Expected ${c.expected.length} numbers, but got ${got.length}.${on}`;
  const j = group.output;
  const [g, w] = [got[j], c.expected[j]];
  const [want, have] = fmtPair(w, g);
  const gap = group.near ? `, off by ${fmt(Math.abs(g - w), { digits: 2, powers: true })}` : "";
  return `${c.labels[j]} should be ${want}, but it is ${have}${gap}.${on}`;
}

function cleanError(error) {
  if (!isDict(error)) return null;
  const line = get(error, "line");
  return {
    type: cap(text(get(error, "type", "")), 100),
    message: cap(text(get(error, "message", ""))),
    line: isInt(line) ? line : null,
    traceback: cap(text(get(error, "traceback", ""))),
  };
}

/** The verdict a learner reads, for `decided` (decide's) on this report. */
export function word(data, report, decided) {
  const { status } = decided;
  const readable = decided.unreadable === "report" ? {} : report;
  const stdout = isStr(get(readable, "stdout")) ? readable.stdout : "";
  const shown = cap(stdout, OUTPUT_LIMIT, "");
  const error = cleanError(get(readable, "error"));
  const tests = [];
  let summary;
  let diagnosis = null;
  if (decided.unreadable) {
    summary = UNREADABLE;
  } else if (status !== "passed" && status !== "failed") {
    summary = cap(isStr(get(report, "summary")) ? report.summary : "");
    const plain = error ? plainWords(`${error.type}: ${error.message}`) : "";
    if (plain) summary = `${summary} ${plain}`;
  } else {
    const { cases } = data;
    for (const [k, group] of data.groups.entries()) {
      const g = decided.groups[k];
      const i = g.case;
      tests.push({ name: group.name, passed: g.passed,
        message: i === null ? "" : counterexample(cases[i], report.outputs[i], g),
        where: i === null ? "" : `case ${i + 1}, seed ${data.seed}` });
    }
    const passing = tests.filter((t) => t.passed).length;
    summary = status === "passed" ? `All ${tests.length} checks pass, on ${cases.length} cases.`
      : `${passing} of ${tests.length} checks pass.`;
    const mistake = data.mistakes.find((m) => m.name === decided.mistake);
    if (mistake) diagnosis = { mistake: mistake.name, message: mistake.message };
  }
  return makeVerdict(status, summary, { tests, diagnosis, stdout: shown,
    stdoutTruncated: get(readable, "stdout_truncated") === true || shown !== stdout, error });
}

export function verdict(data, report) {
  return word(data, report, decide(data, report));
}

export { verdict as compare };
