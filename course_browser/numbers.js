// How the page writes a number for a learner: one function, so a value reads the same
// in a verdict, a graph's node, a plot's axis and a lab's status line.
//
//   fmt(2 / 3)                     "0.6667"      4 significant digits, trailing zeros dropped
//   fmt(2 / 3, { digits: 6 })      "0.666667"    as many significant digits as asked
//   fmt(2, { decimals: 6 })        "2.000000"    exactly that many decimals, zeros kept: a column
//                                                of numbers, or an answer whose decimals count
//   fmt(2e-6, { powers: true })    "2 × 10⁻⁶"    far from 1 (below 10⁻⁴, from 10⁶) as a power of ten
//
// Always: a whole number is written whole ("12345", not "12350"), a minus is a real minus
// sign ("−2"), a value that rounds to zero has none ("0", never "−0"), and null, undefined
// or NaN (a lab sends a number gone bad as null) read "not a number". An exponent keeps its ASCII
// "e-7", as Python writes it; grader/cases.py's fmt is this function's twin for the
// command line, and tests/grading/test_js_python_agree.py holds both to the digits asked.

const SUPERSCRIPT = Object.fromEntries([..."-0123456789"].map((c, i) => [c, "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"[i]]));

/** `x` as text for a learner: see the examples above for `digits`, `decimals` and `powers`. */
export function fmt(x, { digits = 4, decimals, powers = false } = {}) {
  if (typeof x !== "number" || Number.isNaN(x)) return "not a number";
  const text = magnitude(Math.abs(x), digits, decimals, powers);
  return x < 0 && !/^[0.]*$/.test(text) ? `−${text}` : text;
}

/** A number's size as text: never signed, so the sign has one rule, in `fmt`. */
function magnitude(x, digits, decimals, powers) {
  if (decimals !== undefined) return x.toFixed(decimals);
  if (Number.isSafeInteger(x)) return String(x);
  const rounded = Number(x.toPrecision(digits)); // read back, to drop the trailing zeros
  if (!Number.isFinite(rounded)) return x.toPrecision(digits); // the largest doubles round past the largest
  return (powers && powerOfTen(rounded)) || String(rounded);
}

/** 2e-6 -> "2 × 10⁻⁶", 1e7 -> "10⁷"; "" for a number near 1, which reads better plainly. */
function powerOfTen(x) {
  const [mantissa, exponent] = x.toExponential().split("e");
  if (Number(exponent) >= -4 && Number(exponent) < 6) return "";
  const power = `10${[...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join("")}`;
  return mantissa === "1" ? power : `${mantissa} × ${power}`;
}
