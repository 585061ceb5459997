// The page's decision and verdict, from the command line, for tests/grading/test_js_python_agree.py.
// stdin:  {"data": {id: grading data}, "pairs": [[id, report], ...],
//          "fmt": [[x, digits], ...], "fmt_pair": [[want, got], ...]}
// stdout: {"decisions": [...], "verdicts": [...], "fmt": [...], "fmt_pair": [...]}
import { decide, fmtPair, verdict } from "../../course_browser/compare.js";
import { fmt } from "../../course_browser/numbers.js";

let text = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const pairs = input.pairs || [];
const out = {
  decisions: pairs.map(([id, report]) => decide(input.data[id], report)),
  verdicts: pairs.map(([id, report]) => verdict(input.data[id], report)),
  fmt: (input.fmt || []).map(([x, digits]) => fmt(x, { digits })),
  fmt_pair: (input.fmt_pair || []).map(([want, got]) => fmtPair(want, got)),
};
process.stdout.write(JSON.stringify(out));
