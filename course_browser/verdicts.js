// Every verdict object a Check shows is made here, whoever decides it: compare.js
// from the worker's report, exercise.js when the checks could not be loaded,
// python.js for a stop, a timeout or a crash. Its headline comes from
// runner/facts.json, as the command line's does (grader/compare.py).
import FACTS from "../runner/facts.json" with { type: "json" };

export const HEADLINE = FACTS.headline;
/** A wrong answer's words, for a question or a task as for a Check: "Not yet" and the
 * rest, after `joint` (": x is y", ". reason", ", but near"). */
export const notYet = (rest, joint = ": ") => `${HEADLINE.failed}${joint}${rest}`;
export const VERDICT_STATUSES = ["passed", "failed", "blank", "syntax", "error", "timeout", "stopped"];

/** {status, passed, headline, summary, tests, diagnosis, stdout, stdout_truncated, error} */
export function makeVerdict(status, summary, { tests = [], diagnosis = null, stdout = "", stdoutTruncated = false, error = null } = {}) {
  if (!VERDICT_STATUSES.includes(status)) throw new Error(`not a verdict status: ${status}`);
  const passed = status === "passed";
  return { status, passed, headline: HEADLINE[passed ? "passed" : "failed"], summary, tests, diagnosis,
    stdout, stdout_truncated: stdoutTruncated, error };
}
