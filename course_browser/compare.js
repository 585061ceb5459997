// The verdict: compare what learner code computed with the expected outputs.
//
// Line for line the same as grader/compare.py (with fmt and fmt_pair from
// grader/cases.py): tests/grading/test_js_python_agree.py holds the two to
// identical verdicts on every solution, starter, known mistake, alternative
// answer and forged report. This runs on the page, where learner code cannot
// reach; `report` comes from the worker, which learner code can, so every field
// is checked and capped before it is shown.
//
//   verdict(data, report) -> {status, passed, headline, summary, tests,
//                             diagnosis, stdout, stdout_truncated, error}
//
// What JavaScript cannot see of the JSON the worker sent (Python tells 5 from
// 5.0 and has integers of any size) is read the way the worker's own
// json.dumps writes it: a whole number below 2**53 is an int, anything else a float.

import FACTS from "../runner/facts.json" with { type: "json" };
import PLAIN from "../grader/plain_errors.json" with { type: "json" };

const HEADLINE = FACTS.headline;
const MAX_OUTPUTS_PER_CASE = FACTS.max_outputs_per_case;
const MESSAGE_LIMIT = FACTS.message_limit;
const OUTPUT_LIMIT = FACTS.output_limit;

export const STATUSES = ["ran", "blank", "syntax", "error", "timeout", "stopped"];
const UNREADABLE = "The checks sent back something unreadable. Run the Check again.";
const PLAIN_RULES = PLAIN.rules.map(([pattern, sentence]) => [new RegExp(pattern), sentence]);
const NEAR = 0.01; // a gap below this share of the numbers is spelled out: 1.3872 and 1.387202 read as equal
const SUPERSCRIPT = Object.fromEntries([..."-0123456789"].map((c, i) => [c, "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"[i]]));

// -- Python's view of JSON values ---------------------------------------------

const has = (obj, key) => Object.hasOwn(obj, key);
/** dict.get(key, fallback): own keys only, so "__proto__" or "toString" in a report are plain keys. */
const get = (obj, key, fallback = null) => (has(obj, key) ? obj[key] : fallback);
const isDict = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isStr = (x) => typeof x === "string";
/** type(x) is int, for a value read from JSON (see the note at the top). */
const isInt = (x) => Number.isSafeInteger(x);

/** len(text): Python counts code points, JavaScript UTF-16 units. */
function pyLen(text) {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}

/** text[:limit], in code points. */
function pySlice(text, limit) {
  if (text.length <= limit) return text;
  let i = 0;
  for (let n = 0; n < limit && i < text.length; n += 1) {
    const c = text.charCodeAt(i);
    const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    i += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, i);
}

/** Python's exact decimal value of a finite double > 0: digits and the power of ten of the first. */
function exactDecimal(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent = -1074;
  if (biased !== 0) {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  const digits = exponent >= 0 ? (mantissa << BigInt(exponent)).toString() : (mantissa * 5n ** BigInt(-exponent)).toString();
  const scale = exponent >= 0 ? 0 : -exponent; // x = digits × 10^-scale
  return { digits, exp: digits.length - 1 - scale };
}

/** The first `precision` significant digits of x > 0, rounded half to even like
 * CPython (on the exact binary value), and the power of ten of the first. */
function roundDigits(x, precision) {
  let { digits, exp } = exactDecimal(x);
  if (digits.length <= precision) return { digits: digits.padEnd(precision, "0"), exp };
  let head = digits.slice(0, precision);
  const rest = digits.slice(precision);
  const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || Number(head[head.length - 1]) % 2 === 1));
  if (up) {
    head = (BigInt(head) + 1n).toString();
    if (head.length > precision) {
      head = head.slice(0, precision);
      exp += 1;
    }
  }
  return { digits: head, exp };
}

function exponentText(exp) {
  return `e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

function fixedText(digits, exp) {
  if (exp < 0) return `0.${"0".repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return frac ? `${whole}.${frac}` : whole;
}

const stripZeros = (text) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);

/** f"{x:.{precision}g}" for a number. */
export function formatG(x, precision) {
  if (Number.isNaN(x)) return "nan";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (!Number.isFinite(x)) return `${sign}inf`;
  if (x === 0) return `${sign}0`;
  const p = Math.max(precision, 1);
  const { digits, exp } = roundDigits(Math.abs(x), p);
  if (exp >= -4 && exp < p) return sign + stripZeros(fixedText(digits, exp));
  const mantissa = stripZeros(`${digits[0]}.${digits.slice(1)}`);
  return sign + mantissa + exponentText(exp);
}

/** repr(x) of a float: the shortest digits that read back as x. */
function floatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (!Number.isFinite(x)) return `${sign}inf`;
  if (x === 0) return `${sign}0.0`;
  const [mantissa, e] = Math.abs(x).toExponential().split("e");
  const exp = Number(e);
  const digits = mantissa.replace(".", "");
  if (exp >= -4 && exp < 16) {
    const text = fixedText(digits, exp);
    return sign + (text.includes(".") ? text : `${text}.0`);
  }
  return sign + (digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits) + exponentText(exp);
}

function stringRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === " " || !/[\p{C}\p{Z}]/u.test(ch)) out += ch;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

function pyRepr(x) {
  if (x === null || x === undefined) return "None";
  if (x === true) return "True";
  if (x === false) return "False";
  if (typeof x === "number") return isInt(x) ? String(x) : floatRepr(x);
  if (isStr(x)) return stringRepr(x);
  if (Array.isArray(x)) return `[${x.map(pyRepr).join(", ")}]`;
  return `{${Object.keys(x).map((k) => `${stringRepr(k)}: ${pyRepr(x[k])}`).join(", ")}}`;
}

/** str(x) of a value read from JSON. */
export function pyStr(x) {
  return isStr(x) ? x : pyRepr(x);
}

// -- grader/cases.py ----------------------------------------------------------

/** A number as the verdict shows it (Python's %.6g, with a real minus sign). */
export function fmt(x, digits = 6) {
  if (typeof x !== "number") return pyStr(x);
  const text = formatG(x, digits);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/** Expected and got, with enough digits that they read differently. */
export function fmtPair(want, got) {
  let a;
  let b;
  for (let digits = 6; digits < 18; digits += 1) {
    [a, b] = [fmt(want, digits), fmt(got, digits)];
    if (a !== b) return [a, b];
  }
  return [a, b];
}

// -- grader/compare.py --------------------------------------------------------

function cap(text, limit = MESSAGE_LIMIT) {
  return pyLen(text) <= limit ? text : `${pySlice(text, limit)}…`;
}

function isNumber(x) {
  return typeof x === "number" && Number.isFinite(x);
}

function close(got, want, tol) {
  if (!(isNumber(got) && isNumber(want))) return false;
  return Math.abs(got - want) <= Math.max(tol.rel * Math.max(Math.abs(got), Math.abs(want)), tol.abs);
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
function matches(outputs, mistake, tol) {
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

/** A plain sentence for a Python error ("Type: message") a learner commonly causes, or "". */
export function plainWords(error) {
  for (const [pattern, sentence] of PLAIN_RULES) {
    const found = pattern.exec(error);
    if (found) return sentence.replaceAll("{1}", () => found[1] || "");
  }
  return "";
}

/** 2e-06 -> "2 × 10⁻⁶"; 0.0896 -> "0.0896". */
function gapText(gap) {
  const text = fmt(gap, 2);
  if (!text.includes("e")) return text;
  const [mantissa, exponent] = text.split("e");
  const power = `10${[...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join("")}`;
  return mantissa === "1" ? power : `${mantissa} × ${power}`;
}

function differs(label, g, w) {
  const [want, have] = fmtPair(w, g);
  let claim = `${label} should be ${want}, but it is ${have}`;
  if (isNumber(g) && isNumber(w) && Math.abs(g - w) <= NEAR * Math.max(Math.abs(g), Math.abs(w))) {
    claim += `, off by ${gapText(Math.abs(g - w))}`;
  }
  return claim;
}

/** What differs first, then the case it differs on. */
function counterexample(data, index, got) {
  const c = data.cases[index];
  const on = ` On: ${c.text}`;
  if (isDict(got)) {
    const line = get(got, "line") ? ` on line ${got.line}` : "";
    const plain = plainWords(cap(got.error));
    return `Your code raised ${cap(got.error)}${line}.${plain ? ` ${plain}` : ""}${on}`;
  }
  if (got.length !== c.expected.length) {
    return `Expected ${c.expected.length} numbers, but got ${got.length}.${on}`;
  }
  for (const [label, g, w] of zip(c.labels, got, c.expected)) {
    if (!close(g, w, data.tolerance)) return `${differs(label, g, w)}.${on}`;
  }
  return on.trim();
}

function validOutput(item) {
  if (isDict(item)) {
    return isStr(get(item, "error")) && (get(item, "line") === null || isInt(get(item, "line")));
  }
  return Array.isArray(item) && item.length <= MAX_OUTPUTS_PER_CASE && item.every((x) => isNumber(x) || isStr(x));
}

function cleanError(error) {
  if (!isDict(error)) return null;
  const line = get(error, "line");
  return {
    type: cap(pyStr(get(error, "type", "")), 100),
    message: cap(pyStr(get(error, "message", ""))),
    line: isInt(line) ? line : null,
    traceback: cap(pyStr(get(error, "traceback", ""))),
  };
}

function shell(status, report, summary) {
  const stdout = isStr(get(report, "stdout")) ? report.stdout : "";
  const length = pyLen(stdout);
  return {
    status,
    passed: status === "passed",
    headline: HEADLINE[status === "passed" ? "passed" : "failed"],
    summary,
    tests: [],
    diagnosis: null,
    stdout: pySlice(stdout, OUTPUT_LIMIT),
    stdout_truncated: get(report, "stdout_truncated") === true || length > OUTPUT_LIMIT,
    error: cleanError(get(report, "error")),
  };
}

export function verdict(data, report) {
  if (!isDict(report) || !STATUSES.includes(get(report, "status"))) return shell("error", {}, UNREADABLE);
  if (report.status !== "ran") {
    const summary = cap(isStr(get(report, "summary")) ? report.summary : "");
    const result = shell(report.status, report, summary);
    const plain = result.error ? plainWords(`${result.error.type}: ${result.error.message}`) : "";
    if (plain) result.summary = `${summary} ${plain}`;
    return result;
  }
  const outputs = get(report, "outputs");
  const { cases, tolerance: tol } = data;
  if (!Array.isArray(outputs) || outputs.length !== cases.length || !outputs.every(validOutput)) {
    return shell("error", report, UNREADABLE);
  }
  const failing = cases.map((_c, i) => i).filter((i) => !casePasses(outputs[i], cases[i].expected, tol));
  const tests = data.groups.map((group, g) => {
    const first = failing.find((i) => cases[i].group === g);
    return { name: group.name, passed: first === undefined,
      message: first === undefined ? "" : counterexample(data, first, outputs[first]),
      where: first === undefined ? "" : `case ${first + 1}, seed ${data.seed}` };
  });
  const passing = tests.filter((t) => t.passed).length;
  let result;
  if (!failing.length) {
    result = shell("passed", report, `All ${tests.length} checks pass, on ${cases.length} cases.`);
  } else {
    result = shell("failed", report, `${passing} of ${tests.length} checks pass.`);
    const mistake = data.mistakes.find((m) => matches(outputs, m, tol));
    if (mistake) result.diagnosis = { mistake: mistake.name, message: mistake.message };
  }
  result.tests = tests;
  return result;
}

export { verdict as compare };
