// An exercise's Run, Check and Stop, the result region that says what they found, and
// Python's loading state while they wait for it. Parts of an exercise (exercise.js),
// which makes the calls to Python (ctx.runCode, ctx.checkCode).
import { button, el, liveStatus } from "./dom.js";
import { progress } from "./progress.js";
import { renderVerdict } from "./verdict.js";
import { HEADLINE } from "./verdicts.js";

/** Run, Check and Stop in the toolbar, and the result region below it. */
export function runner(ctx) {
  const { root, level, slot, rt } = ctx;
  const run = button("Run");
  const check = button("Check", "md-button--primary");
  const stop = button("Stop", "course-stop");
  stop.hidden = true;
  ctx.bar.append(run, check, stop);
  const result = liveStatus("div", "course-result");
  if (progress.item(level, slot).solved) {
    // after a reload: the ✓ and the last result stay (the details come back with the next Check)
    root.classList.add("is-solved");
    result.dataset.state = "passed";
    result.replaceChildren(el("p", { className: "course-result__headline" },
      el("strong", { textContent: `✓ ${HEADLINE.passed}` }), " — on an earlier visit. Your code is kept; Check again to see every check."));
  }
  ctx.below(result);
  Object.assign(ctx, { run, check, stop, result, busy: false });
  run.addEventListener("click", () => execute(ctx, "run"));
  check.addEventListener("click", () => execute(ctx, "check"));
  stop.addEventListener("click", () => rt.stop(null, "stop"));
}

/** One Run or Check of the editor's code, saved first; a press while one is under
 * way is ignored. */
async function execute(ctx, mode) {
  const { rt, slot, run, check, stop, result } = ctx;
  if (ctx.busy) return;
  ctx.busy = true;
  const code = ctx.editor.getCode();
  progress.saveCode(slot, code);
  run.disabled = check.disabled = true;
  // The region keeps its height while the code runs: a Check takes a frame or three, and
  // what is below would otherwise jump up to "Running…" and back down to the verdict.
  result.style.minHeight = `${result.offsetHeight}px`;
  result.dataset.state = "running";
  result.textContent = rt.state === "ready" ? "Running…" : "Waiting for Python to load, then running…";
  const onStart = () => { stop.hidden = false; result.textContent = "Running…"; };
  performance.mark(`course:${mode}-start`);
  try {
    const verdict = mode === "check"
      ? await ctx.checkCode(code, onStart)
      : await ctx.runCode(code, onStart);
    renderVerdict(result, verdict, { mode });
    performance.measure(`course:${mode}`, `course:${mode}-start`);
    if (mode === "check") recordCheck(ctx, verdict, code);
  } catch (error) {
    renderVerdict(result, ctx.problem(`Something went wrong while running your code: ${error.message}. Your code is kept.`));
  } finally {
    ctx.busy = false;
    result.style.minHeight = "";
    stop.hidden = true;
    run.disabled = check.disabled = false;
  }
}

/** A Check's outcome for the level: every pass is saved with the code that passed (the
 * capstone builds on the newest), the ✓ shows for any pass (this one or an earlier one),
 * and the page hears of it (course:checked). */
function recordCheck({ root, level, slot }, verdict, code) {
  const item = progress.item(level, slot);
  if (verdict.passed === true) progress.recordPass(level, slot, code);
  root.classList.toggle("is-solved", verdict.passed === true || item.solved === true);
  root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: verdict.passed === true } }));
}

/** At the toolbar's end, what Run and Check wait for while Python loads (or why it
 * failed); their accessible names say it too. */
export function pythonStatus({ rt, bar, run, check }) {
  const loading = el("span", { className: "course-python-status" });
  bar.append(loading);
  const showState = () => {
    const waiting = rt.state !== "ready";
    loading.textContent = rt.state === "failed" ? rt.progress : waiting ? `${rt.progress || "Loading Python…"} You can type already.` : "";
    for (const b of [run, check]) {
      b.setAttribute("aria-label", waiting && rt.state !== "failed" ? `${b.textContent} (Python is loading)` : b.textContent);
    }
  };
  rt.addEventListener("state", showState);
  showState();
}
