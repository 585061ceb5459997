// The page's decision and verdict, from the command line, for tests/grading/test_js_python_agree.py,
// which keeps one process for all its questions: one JSON object a line each way.
// in:  {"data": {id: grading data}, "pairs": [[id, report], ...],
//       "fmt": [[x, digits], ...], "fmt_pair": [[want, got], ...]}
// out: {"decisions": [...], "verdicts": [...], "fmt": [...], "fmt_pair": [...]}
import { createInterface } from "node:readline";
import { decide, fmtPair, verdict } from "../../course_browser/compare.js";
import { fmt } from "../../course_browser/numbers.js";

function answer(input) {
  const pairs = input.pairs || [];
  return {
    decisions: pairs.map(([id, report]) => decide(input.data[id], report)),
    verdicts: pairs.map(([id, report]) => verdict(input.data[id], report)),
    fmt: (input.fmt || []).map(([x, digits]) => fmt(x, { digits })),
    fmt_pair: (input.fmt_pair || []).map(([want, got]) => fmtPair(want, got)),
  };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (line.trim()) process.stdout.write(`${JSON.stringify(answer(JSON.parse(line)))}\n`);
}
