// A graded code exercise: editor, Run / Check / Stop / Reset / Hint / Show answer,
// results in a live region, code saved as the learner types. The exercise is built
// from parts over one shared context (exerciseContext): the editor and Reset
// (exercise-editor.js), the runner (exercise-runner.js), and here the hints and
// the answer, which the page fetches on request only.
//
// A Check has two halves. The worker runs the learner's code on the cases'
// inputs and reports the outputs (grader/worker_api.py check); the page compares
// them with the expected outputs it fetched itself (<id>.grading.json) and
// decides the verdict (compare.js), where learner code cannot reach. Nothing the
// worker sends is trusted but the report that compare() validates.
import { verdict as compare } from "./compare.js";
import { answerView, hintContent } from "./answer.js";
import { confirmDialog } from "./dialog.js";
import { button, el, inserter, mountOnce } from "./dom.js";
import { codeEditor, reset } from "./exercise-editor.js";
import { pythonStatus, runner } from "./exercise-runner.js";
import { progress } from "./progress.js";
import { python } from "./runtime.js";
import { renderVerdict } from "./verdict.js";
import { makeVerdict } from "./verdicts.js";

const QUIZ_COST = "the short test can't count this exercise then, so the test can no longer clear the level.";
const publicData = new Map();
const gradingData = new Map();

/** One fetch per exercise and file for the visit; a failed one is tried again next time
 * (and a dropped connection once at once: a learner's press should not be lost to it). */
function fetchOnce(cache, id, file) {
  if (!cache.has(id)) {
    const url = new URL(file, python().exercisesBase);
    const promise = fetch(url).catch(() => fetch(url)).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json();
    });
    promise.catch(() => { if (cache.get(id) === promise) cache.delete(id); });
    cache.set(id, promise);
  }
  return cache.get(id);
}

/** Starter, hints, solution: shown on request only. */
const exerciseData = (id) => fetchOnce(publicData, id, `${id}.json`);
/** Cases, expected outputs, known mistakes' outputs: kept on the page, never sent to the worker. */
const gradingFor = (id) => fetchOnce(gradingData, id, `${id}.grading.json`);

/** A verdict of the page's own, for when a Check could not be made. */
function problem(summary) {
  return makeVerdict("error", summary);
}

/** The first half of a Check in the worker, the second here. A stop or a timeout
 * (python.js's stoppedVerdict) goes through compare() too, and comes out the same. */
async function checkCode(rt, id, code, timeoutMs, onStart) {
  let data;
  let given;
  try {
    [data, { given }] = await Promise.all([gradingFor(id), exerciseData(id)]);
  } catch (error) {
    return problem(`The checks for this exercise could not be loaded (${error.message}). Your code is kept; try again.`);
  }
  const inputs = data.cases.map((c) => c.input);
  const report = await rt.call("check", [data.probe, inputs, code, timeoutMs / 1000], { timeoutMs, onStart, given });
  return compare(data, report);
}

/** The Run button: the code alone, with what the exercise gives it. */
async function runCode(rt, id, code, timeoutMs, onStart) {
  let given;
  try {
    ({ given } = await exerciseData(id));
  } catch (error) {
    return problem(`This exercise's files could not be loaded (${error.message}). Your code is kept; try again.`);
  }
  return rt.call("run", [code, timeoutMs / 1000], { timeoutMs, onStart, given });
}

export async function mountExercise(root, { level, createEditor }) {
  if (!mountOnce(root)) return;
  const ctx = exerciseContext(root, level, createEditor);
  // The toolbar's buttons and the regions below it come in the parts' order. The editor
  // comes after them (it takes the starter's place, above the toolbar), the prefetch after
  // the editor: the focus it takes over from the plain text is not the learner coming near.
  for (const part of [runner, reset, hints, answer, pythonStatus, codeEditor, prefetch]) part(ctx);
  return ctx.editor;
}

/** What every part of an exercise reads, and what the parts add for each other (the
 * editor, the buttons, the result region): one object, so each part stays a short function. */
function exerciseContext(root, level, createEditor) {
  const { exercise, slot, title } = root.dataset;
  const timeoutMs = Number(root.dataset.timeout || 5) * 1000;
  const starterEl = root.querySelector(".course-exercise__starter");
  const draft = starterEl.querySelector("textarea.course-draft");
  const rt = python();
  const bar = el("div", { className: "course-toolbar" });
  // below the editor, so that appearing never moves the line being clicked
  const below = inserter(starterEl.parentNode, starterEl.nextSibling);
  below(bar);
  const ctx = {
    root, level, createEditor, exercise, slot, title, rt, starterEl, draft, bar, below,
    starter: draft.defaultValue,
    hintCount: Number(root.dataset.hints || 0),
    // in the skip-level test: the editor folds the given code, and a seen answer costs
    // the test itself (level.js says so after)
    inQuiz: !!root.closest(".course-quiz"),
    editor: null, // the parts' own, once they are built: editor, run, check, stop, result
    problem,
    checkCode: (code, onStart) => checkCode(rt, exercise, code, timeoutMs, onStart),
    runCode: (code, onStart) => runCode(rt, exercise, code, timeoutMs * 2, onStart),
    /** The exercise's hints and solution, or null once the result area has said that
     * `what` could not be loaded (offline): the button stays, and a press tries again. */
    publicDataOrSay: async (what, buttonName) => {
      try {
        return await exerciseData(exercise);
      } catch (error) {
        renderVerdict(ctx.result, problem(`The ${what} could not be loaded (${error.message}). Press ${buttonName} again to retry.`),
          { mode: "run" });
        return null;
      }
    },
  };
  return ctx;
}

/** The grading data is small: fetch it once the page is idle, or as soon as the
 * learner comes near, so a Check does not wait for it. */
function prefetch({ root, exercise }) {
  const prefetch = () => { gradingFor(exercise).catch(() => {}); exerciseData(exercise).catch(() => {}); };
  root.addEventListener("focusin", prefetch, { once: true });
  root.addEventListener("pointerenter", prefetch, { once: true });
  if ("requestIdleCallback" in globalThis) requestIdleCallback(prefetch, { timeout: 3000 });
  else setTimeout(prefetch, 500);
}

/** Hint, and the hints it shows below the result, one per press; the ones seen on an
 * earlier visit are back after a reload. */
function hints(ctx) {
  const { exercise, level, slot, hintCount, inQuiz, publicDataOrSay } = ctx;
  const hint = button("Hint");
  const hints = el("ol", { className: "course-hints", "aria-label": "Hints" });
  ctx.bar.append(hint);
  ctx.below(hints);

  let hintsShown = 0;
  const hintState = progress.item(level, slot);
  /** Show the next hint; the button then says what its next press does, not which
   * hint is on screen. */
  function revealHint(data) {
    const shown = el("li", { tabIndex: -1 }, hintContent(data.hints[hintsShown]));
    hints.append(shown);
    hintsShown += 1;
    hint.textContent = hintsShown < data.hints.length ? `Next hint (${hintsShown + 1} of ${data.hints.length})` : "No more hints";
    hint.disabled = hintsShown >= data.hints.length;
    return shown;
  }
  hint.addEventListener("click", async () => {
    if (!hintCount) return;
    const data = await publicDataOrSay("hints", "Hint");
    if (!data || hintsShown >= data.hints.length) return;
    // the last hint spells the answer out: it counts like Show answer, so ask first
    const last = hintsShown === data.hints.length - 1 && data.hints.length > 1;
    if (last && !await confirmDialog("See the last hint?", `It gives the answer away, so it counts like Show answer: ${inQuiz ? QUIZ_COST : "no stars for this exercise."}`,
      "Show the last hint")) return;
    const shown = revealHint(data);
    if (hint.disabled) shown.focus(); // the button the focus was on is gone: read on from the new hint
    progress.update(level, slot, { hints: Math.max(hintsShown, hintState.hints || 0), ...(last ? { shown: true } : {}) });
  });
  // hints seen on an earlier visit are on screen again after a reload
  if (hintCount && hintState.hints > 0) {
    exerciseData(exercise).then((data) => {
      while (hintsShown < Math.min(hintState.hints, data.hints.length)) revealHint(data);
    }, () => {});
  }
  if (!hintCount) hint.hidden = true;
}

/** Show answer, and the solution below the hints: asked first, since a seen answer
 * earns no stars. */
function answer(ctx) {
  const { level, slot, inQuiz, publicDataOrSay } = ctx;
  const show = button("Show answer");
  const solution = el("div", { className: "course-solution", hidden: true });
  ctx.bar.append(show);
  ctx.below(solution);

  show.addEventListener("click", async () => {
    if (!solution.hidden) return;
    if (!await confirmDialog("Show the answer?", `It is yours to read, but ${inQuiz ? QUIZ_COST : "this exercise will not count for stars."}`,
      "Show the answer")) return;
    const data = await publicDataOrSay("answer", "Show answer");
    if (!data) return;
    solution.replaceChildren(...answerView(data.solution, data.written));
    solution.hidden = false;
    show.disabled = true;
    solution.querySelector(".course-answer")?.focus(); // the button is disabled now: go on to what it showed
    progress.update(level, slot, { shown: true });
  });
}
