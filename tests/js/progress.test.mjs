// The progress store (progress.js) and the code the capstone takes from it, under Node's
// test runner, on a localStorage of its own, seeded before the modules load.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const FACTS = JSON.parse(readFileSync(new URL("../../runner/facts.json", import.meta.url), "utf8"));
const { key: KEY, schema_version: VERSION, migrates_from: [OLD] } = FACTS.storage;
const STARTER = `class Value:\n    def __mul__(self, other):\n        self.grad += ${FACTS.blank}\n`;
const MUL = { exercise: "mul-backward", page: "autograd", method: "__mul__", what: "multiplication" };

const stored = new Map();
globalThis.localStorage = {
  getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)), removeItem: (k) => stored.delete(k),
};
// saved by the schema before: mul-backward solved, then Reset, so its draft is the starter again
stored.set(KEY, JSON.stringify({ version: OLD, levels: { autograd: { items: { "mul-backward": { solved: true } } } },
  code: { "mul-backward": STARTER } }));
const { progress, mergeProgress, readProgressFile } = await import("../../course_browser/progress.js");
const { learnerCodes } = await import("../../course_browser/labs/capstone.js");
const saved = () => JSON.parse(stored.get(KEY));

test("progress saved by the schema before loads as it was, with no notice", () => {
  assert.equal(OLD, VERSION - 1);
  assert.deepEqual(progress.notices, []);
  assert.equal(progress.data.version, VERSION);
  assert.equal(progress.item("autograd", "mul-backward").solved, true);
  assert.equal(progress.code("mul-backward"), STARTER);
});

test("a solved exercise whose only code is a starter with blanks is named to check again, not trained", () => {
  assert.deepEqual(learnerCodes([MUL]), { codes: {}, recheck: [MUL] });
});

test("a pass keeps the code that passed through a Reset, and the newest pass wins", () => {
  progress.recordPass("autograd", "mul-backward", "# first pass\n");
  progress.saveCode("mul-backward", STARTER); // Reset
  assert.deepEqual(learnerCodes([MUL]), { codes: { __mul__: "# first pass\n" }, recheck: [] });
  const item = saved().levels.autograd.items["mul-backward"];
  assert.equal(saved().version, VERSION);
  assert.equal(item.passed, "# first pass\n");
  assert.ok(item.passedAt > 0);
  progress.recordPass("autograd", "mul-backward", "# second pass\n");
  assert.equal(learnerCodes([MUL]).codes.__mul__, "# second pass\n");
});

test("between an exercise and its skip-test twin, the newer pass wins; a draft only where none passed", () => {
  const items = progress.level("autograd").items;
  items["mul-backward"] = { solved: true, passed: "# exercise\n", passedAt: 2000 };
  items["quiz-mul-backward"] = { solved: true, passed: "# twin\n", passedAt: 1000 };
  assert.equal(learnerCodes([MUL]).codes.__mul__, "# exercise\n");
  items["quiz-mul-backward"].passedAt = 3000;
  assert.equal(learnerCodes([MUL]).codes.__mul__, "# twin\n");
  items["quiz-mul-backward"] = { solved: true }; // solved before passes were kept
  progress.data.code["quiz-mul-backward"] = "# twin's draft\n";
  assert.equal(learnerCodes([MUL]).codes.__mul__, "# exercise\n");
  items["mul-backward"] = { solved: false };
  assert.equal(learnerCodes([MUL]).codes.__mul__, "# twin's draft\n");
  items["quiz-mul-backward"] = { solved: false }; // neither solved: the reference's, with nothing to say
  assert.deepEqual(learnerCodes([MUL]), { codes: {}, recheck: [] });
});

const withItem = (item) => ({ version: VERSION, levels: { autograd: { items: { ex: item } } }, code: {} });

test("two tabs: the code that passed later wins, whichever tab holds it", () => {
  const older = withItem({ solved: true, passed: "old", passedAt: 1 });
  const newer = withItem({ solved: true, passed: "new", passedAt: 2 });
  const legacy = withItem({ solved: true });
  const passed = (data) => data.levels.autograd.items.ex.passed;
  assert.equal(passed(mergeProgress(structuredClone(older), newer)), "new");
  assert.equal(passed(mergeProgress(structuredClone(newer), older)), "new");
  assert.equal(passed(mergeProgress(structuredClone(legacy), older)), "old");
  assert.equal(passed(mergeProgress(structuredClone(older), legacy)), "old");
});

test("a progress file carries the code that passed; one of the schema before reads too", () => {
  const item = { solved: true, passed: "mine", passedAt: 5 };
  assert.deepEqual(readProgressFile(JSON.stringify(withItem(item))).data.levels.autograd.items.ex, item);
  const old = readProgressFile(JSON.stringify({ ...withItem({ solved: true }), version: OLD }));
  assert.equal(old.data.version, VERSION);
  assert.deepEqual(old.data.levels.autograd.items.ex, { solved: true });
  for (const wrong of [{ passed: 1 }, { passed: "x", passedAt: -1 }, { passed: "x", passedAt: "now" }]) {
    assert.throws(() => readProgressFile(JSON.stringify(withItem({ solved: true, ...wrong }))), /not a progress file/);
  }
  assert.throws(() => readProgressFile(JSON.stringify({ ...withItem({}), version: VERSION + 1 })), /another version/);
});
