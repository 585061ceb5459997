// The page's one number formatter (course_browser/numbers.js): every mode, and the rules
// that hold in all of them (whole numbers whole, a real minus, never "−0").
import assert from "node:assert/strict";
import { test } from "node:test";
import { fmt } from "../../course_browser/numbers.js";

test("four significant digits by default, with no float noise and no trailing zeros", () => {
  assert.equal(fmt(0.1 + 0.2), "0.3");
  assert.equal(fmt(1.0000000000000002), "1");
  assert.equal(fmt(2 / 3), "0.6667");
  assert.equal(fmt(-2.5), "−2.5");
  assert.equal(fmt(0.00001234), "0.00001234");
  assert.equal(fmt(1.5e-7), "1.5e-7");
  assert.equal(fmt(-1.5e-7), "−1.5e-7");
});

test("as many significant digits as asked", () => {
  assert.equal(fmt(2 / 3, { digits: 6 }), "0.666667");
  assert.equal(fmt(123456.5, { digits: 6 }), "123457");
  assert.equal(fmt(0.1 + 0.2, { digits: 17 }), "0.30000000000000004");
  assert.equal(fmt(1.7976931348623157e308, { digits: 1 }), "2e+308");
});

test("a whole number is written whole, whatever the digits", () => {
  assert.equal(fmt(12345), "12345");
  assert.equal(fmt(-1234567, { digits: 2 }), "−1234567");
  assert.equal(fmt(0.5, { digits: 1 }), "0.5");
});

test("exactly the decimals asked, zeros kept", () => {
  assert.equal(fmt(14, { decimals: 6 }), "14.000000");
  assert.equal(fmt(-10, { decimals: 6 }), "−10.000000");
  assert.equal(fmt(2 / 3, { decimals: 4 }), "0.6667");
});

test("never a minus on a zero", () => {
  assert.equal(fmt(-0), "0");
  assert.equal(fmt(-0.00001, { decimals: 4 }), "0.0000");
  assert.equal(fmt(-1e-20, { decimals: 2 }), "0.00");
  assert.equal(fmt(-1e-20), "−1e-20");
});

test("far from 1 as a power of ten, when asked", () => {
  assert.equal(fmt(2e-6, { digits: 2, powers: true }), "2 × 10⁻⁶");
  assert.equal(fmt(1e-7, { digits: 2, powers: true }), "10⁻⁷");
  assert.equal(fmt(1.23e-5, { digits: 2, powers: true }), "1.2 × 10⁻⁵");
  assert.equal(fmt(-3.5e-9, { digits: 2, powers: true }), "−3.5 × 10⁻⁹");
  assert.equal(fmt(0.0001, { digits: 2, powers: true }), "0.0001");
  assert.equal(fmt(0.0896, { digits: 2, powers: true }), "0.09");
  assert.equal(fmt(2.5e7, { digits: 2, powers: true }), "25000000");
  assert.equal(fmt(25500000.5, { digits: 2, powers: true }), "2.6 × 10⁷");
});

test("what is not a number says so", () => {
  for (const x of [null, undefined, Number.NaN, "5"]) assert.equal(fmt(x), "not a number");
  assert.equal(fmt(Number.POSITIVE_INFINITY), "Infinity");
  assert.equal(fmt(Number.NEGATIVE_INFINITY), "−Infinity");
});
