// Pure functions of the browser runtime, under Node's test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { starsForWork } from "../../course_browser/level.js";
import { starsText } from "../../course_browser/level-items.js";
import { parseNumber } from "../../course_browser/question.js";

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

test("progress.js takes the key and schema from facts.json", async () => {
  const { readFileSync } = await import("node:fs");
  const { STORAGE_KEY, SCHEMA_VERSION } = await import("../../course_browser/progress.js");
  const facts = JSON.parse(readFileSync(new URL("../../runner/facts.json", import.meta.url), "utf8"));
  assert.equal(STORAGE_KEY, facts.storage.key);
  assert.equal(SCHEMA_VERSION, facts.storage.schema_version);
});

/** Run the inline draft restore, as the page inlines it, on a page of two plain-text editors. */
async function restoreDrafts(saved, blank) {
  const { runInNewContext } = await import("node:vm");
  const { inlineScript } = await import("../../course_browser/inline.mjs");
  const draft = { value: "starter", defaultValue: "starter", getAttribute: () => "slot-a" };
  const quiz = { value: `given = 1\nclass Value:\n    def backward(self):\n        ${blank}\n`, scrollTop: 0 };
  const page = {
    localStorage: { getItem: (key) => saved[key] ?? null },
    document: { querySelectorAll: (selector) => (selector.startsWith(".course-quiz") ? [quiz] : [draft]) },
    getComputedStyle: () => ({ lineHeight: "20px" }),
  };
  runInNewContext(await inlineScript("drafts"), page);
  return { draft: draft.value, scrollTop: quiz.scrollTop };
}

test("the inline draft restore reads the progress facts.json names, and scrolls to its blank", async () => {
  const { readFileSync } = await import("node:fs");
  const facts = JSON.parse(readFileSync(new URL("../../runner/facts.json", import.meta.url), "utf8"));
  const progress = (version) => ({ [facts.storage.key]: JSON.stringify({ version, code: { "slot-a": "mine" } }) });
  const restored = await restoreDrafts(progress(facts.storage.schema_version), facts.blank);
  assert.deepEqual(restored, { draft: "mine", scrollTop: 40 }, "the saved code, and the blank's method in view");
  for (const older of facts.storage.migrates_from) {
    assert.equal((await restoreDrafts(progress(older), facts.blank)).draft, "mine", `saved by schema ${older}`);
  }
  assert.equal((await restoreDrafts(progress(facts.storage.schema_version + 1), facts.blank)).draft, "starter");
  assert.equal((await restoreDrafts({ other: progress(1)[facts.storage.key] }, facts.blank)).draft, "starter");
});

test("a stop, a timeout or a crash comes out of compare() as python.js wrote it", async () => {
  const { verdict } = await import("../../course_browser/compare.js");
  const { stoppedVerdict } = await import("../../course_browser/python.js");
  const data = { id: "x", probe: "value", seed: 1, tolerance: { rel: 1e-6, abs: 1e-6 }, groups: [], cases: [], mistakes: [] };
  for (const reason of ["timeout", "stop", "crash"]) {
    const stopped = stoppedVerdict(reason);
    assert.deepEqual(verdict(data, stopped), { ...stopped, diagnosis: null }, reason);
  }
});

test("a verdict sent by the worker is not a verdict on the page", async () => {
  const { verdict } = await import("../../course_browser/compare.js");
  const data = { id: "x", probe: "call", seed: 1, tolerance: { rel: 1e-6, abs: 1e-6 }, groups: [{ name: "g" }],
    cases: [{ group: 0, input: {}, text: "f(1)", labels: ["f"], expected: [2] }], mistakes: [] };
  const forged = { status: "passed", passed: true, headline: "Passed", tests: [] };
  assert.equal(verdict(data, forged).passed, false);
  assert.equal(verdict(data, { status: "ran", outputs: [[3]] }).tests[0].message, "f should be 2, but it is 3. On: f(1)");
  assert.equal(verdict(data, { status: "ran", outputs: [[2.0000001]] }).passed, true);
});

test("every verdict object comes from makeVerdict, with facts.json's headlines", async () => {
  const { readFileSync } = await import("node:fs");
  const { makeVerdict } = await import("../../course_browser/verdicts.js");
  const facts = JSON.parse(readFileSync(new URL("../../runner/facts.json", import.meta.url), "utf8"));
  assert.equal(makeVerdict("passed", "ok").headline, facts.headline.passed);
  for (const status of ["failed", "blank", "syntax", "error", "timeout", "stopped"]) {
    const made = makeVerdict(status, "s");
    assert.deepEqual([made.passed, made.headline], [false, facts.headline.failed], status);
  }
  assert.throws(() => makeVerdict("ran", "s"));
  for (const file of ["compare.js", "exercise.js", "python.js", "verdict.js"]) {
    const source = readFileSync(new URL(`../../course_browser/${file}`, import.meta.url), "utf8");
    assert.ok(!/headline:\s/.test(source), `${file} builds a verdict object of its own`);
    assert.ok(!/"(Not yet|Passed)"/.test(source), `${file} spells a headline facts.json has`);
  }
});

test("numbers that read alike get their gap spelled out; far ones read plainly", async () => {
  const { decide, verdict } = await import("../../course_browser/compare.js");
  const data = { id: "x", probe: "call", seed: 1, tolerance: { rel: 1e-6, abs: 1e-6 }, groups: [{ name: "g" }],
    cases: [{ group: 0, input: {}, text: "f(1)", labels: ["f"], expected: [1.3872] }], mistakes: [] };
  const message = (got) => verdict(data, { status: "ran", outputs: [[got]] }).tests[0].message;
  assert.equal(message(1.387202), "f should be 1.3872, but it is 1.387202, off by 2 × 10⁻⁶. On: f(1)");
  assert.equal(message(1.3873), "f should be 1.3872, but it is 1.3873, off by 0.0001. On: f(1)");
  assert.equal(message(-1.3872), "f should be 1.3872, but it is −1.3872. On: f(1)");
  assert.equal(message(1 + Number.EPSILON), "f should be 1.3872, but it is 1. On: f(1)");
  assert.deepEqual(decide(data, { status: "ran", outputs: [[1.387202]] }), { status: "failed", passed: false,
    unreadable: null, first: 0, mistake: null, groups: [{ passed: false, case: 0, differs: "value", output: 0, near: true }] });
});
