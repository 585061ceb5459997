// Pure functions of the browser runtime, under Node's test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { starsForWork, starsText } from "../../site_plugins/runtime/src/level.js";
import { parseNumber } from "../../site_plugins/runtime/src/questions.js";

test("numbers are read the way people type them", () => {
  for (const [typed, value] of [["-6", -6], ["\u22126", -6], [" -6.0 ", -6], ["+6", 6], ["6,5", 6.5],
    [".5", 0.5], ["1e-3", 0.001], ["\u2013 2", -2], ["7.", 7]]) {
    assert.equal(parseNumber(typed), value, typed);
  }
});

test("what is not a number is refused", () => {
  for (const typed of ["", "  ", "six", "6-", "1/2", "--6", "6 7", "NaN", "Infinity", "0x10"]) {
    assert.equal(parseNumber(typed), null, typed);
  }
});

test("stars: shown answers cost stars", () => {
  assert.equal(starsForWork(0), 3);
  assert.equal(starsForWork(1), 2);
  assert.equal(starsForWork(2), 2);
  assert.equal(starsForWork(5), 1);
  assert.equal(starsText(2), "★★☆");
});

test("the inline draft restore reads progress.js's key and schema", async () => {
  const { readFileSync } = await import("node:fs");
  const { STORAGE_KEY, SCHEMA_VERSION } = await import("../../site_plugins/runtime/src/progress.js");
  const inline = readFileSync(new URL("../../site_plugins/runtime/src/drafts.inline.js", import.meta.url), "utf8");
  assert.ok(inline.includes(`localStorage.getItem("${STORAGE_KEY}")`));
  assert.ok(inline.includes(`saved.version !== ${SCHEMA_VERSION}`));
});
