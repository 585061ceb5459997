// A graded code exercise: editor, Run / Check / Stop / Reset / Hint / Show answer,
// results in a live region, code saved as the learner types.
//
// A Check has two halves. The worker runs the learner's code on the cases'
// inputs and reports the outputs (grader/worker_api.py check); the page compares
// them with the expected outputs it fetched itself (<id>.grading.json) and
// decides the verdict (compare.js), where learner code cannot reach. Nothing the
// worker sends is trusted but the report that compare() validates.
import { verdict as compare } from "./compare.js";
import { answerView, hintContent } from "./answer.js";
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { progress } from "./progress.js";
import { python } from "./runtime.js";
import { renderVerdict } from "./verdict.js";
import { makeVerdict } from "./verdicts.js";

const QUIZ_COST = "the short test can't count this exercise then, so the test can no longer clear the level.";
// One short line, shown under an editor on the page's first focus of one (the rest is in the
// `?` dialog, shortcuts.js); never on a touch screen, where these keys mean nothing.
const KEYS_HELP = "Esc then Tab leaves the editor · Ctrl/⌘+Enter checks · outside an editor, ? lists every key";
let keysHelpShown = false;
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
  const { exercise, slot, title } = root.dataset;
  const timeoutMs = Number(root.dataset.timeout || 5) * 1000;
  const hintCount = Number(root.dataset.hints || 0);
  const starterEl = root.querySelector(".course-exercise__starter");
  const draft = starterEl.querySelector("textarea.course-draft");
  const starter = draft.defaultValue;
  // The plain-text editor may hold the saved code already (drafts.inline.js) and what
  // the learner typed before this ran: that wins. Otherwise the saved code, or the starter.
  const typedEarly = draft.value !== draft.defaultValue;
  const saved = progress.code(slot);
  const doc = typedEarly ? draft.value : saved ?? starter;
  const hadFocus = document.activeElement === draft;
  const [from, to] = [draft.selectionStart, draft.selectionEnd].map((n) => Math.min(n, doc.length));
  const selection = hadFocus && draft.selectionDirection === "backward" ? { anchor: to, head: from } : { anchor: from, head: to };

  const host = el("div", { className: "course-editor" });
  starterEl.replaceWith(host);
  const keys = el("p", { className: "course-keys", id: `course-keys-${slot}`, hidden: true, textContent: KEYS_HELP });

  const bar = el("div", { className: "course-toolbar" });
  const run = button("Run");
  const check = button("Check", "md-button--primary");
  const stop = button("Stop", "course-stop");
  stop.hidden = true;
  const reset = button("Reset");
  const hint = button("Hint");
  const show = button("Show answer");
  const loading = el("span", { className: "course-python-status" });
  bar.append(run, check, stop, reset, hint, show, loading);

  const result = liveStatus("div", "course-result");
  if (progress.item(level, slot).solved) {
    // after a reload: the ✓ and the last result stay (the details come back with the next Check)
    root.classList.add("is-solved");
    result.dataset.state = "passed";
    result.replaceChildren(el("p", { className: "course-result__headline" },
      el("strong", { textContent: "✓ Passed" }), " — on an earlier visit. Your code is kept; Check again to see every check."));
  }
  const hints = el("ol", { className: "course-hints", "aria-label": "Hints" });
  const solution = el("div", { className: "course-solution", hidden: true });
  // below the editor, so that appearing never moves the line being clicked; a screen
  // reader hears it with the editor (aria-describedby) on every focus
  host.after(keys, bar, result, hints, solution);
  host.addEventListener("focusin", () => {
    if (keysHelpShown || !matchMedia("(pointer: fine)").matches) return;
    keysHelpShown = true;
    keys.hidden = false;
  }, { once: true });

  let saveTimer = null;
  // in the skip-level test: the editor folds the given code, and a seen answer costs
  // the test itself (level.js says so after)
  const inQuiz = !!root.closest(".course-quiz");
  const editor = createEditor(host, {
    doc,
    selection: hadFocus ? selection : null,
    label: `Code editor: ${title}`,
    describedBy: keys.id,
    onChange: (text) => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => progress.saveCode(slot, text), 300);
    },
    onCheck: () => check.click(),
    fold: inQuiz ? starter : null, // a skip test shows the blanks, not the whole engine
  });
  if (hadFocus) editor.focus();
  if (typedEarly && doc !== saved) progress.saveCode(slot, doc);
  addEventListener("pagehide", () => progress.saveCode(slot, editor.getCode()));
  performance.mark("course:editor-ready");

  const rt = python();
  // The grading data is small: fetch it once the page is idle, or as soon as the
  // learner comes near, so a Check does not wait for it.
  const prefetch = () => { gradingFor(exercise).catch(() => {}); exerciseData(exercise).catch(() => {}); };
  root.addEventListener("focusin", prefetch, { once: true });
  root.addEventListener("pointerenter", prefetch, { once: true });
  if ("requestIdleCallback" in globalThis) requestIdleCallback(prefetch, { timeout: 3000 });
  else setTimeout(prefetch, 500);
  const showState = () => {
    const waiting = rt.state !== "ready";
    loading.textContent = rt.state === "failed" ? rt.progress : waiting ? `${rt.progress || "Loading Python…"} You can type already.` : "";
    for (const b of [run, check]) {
      b.setAttribute("aria-label", waiting && rt.state !== "failed" ? `${b.textContent} (Python is loading)` : b.textContent);
    }
  };
  rt.addEventListener("state", showState);
  showState();

  let busy = false;
  async function execute(mode) {
    if (busy) return;
    busy = true;
    const code = editor.getCode();
    progress.saveCode(slot, code);
    run.disabled = check.disabled = true;
    result.dataset.state = "running";
    result.textContent = rt.state === "ready" ? "Running…" : "Waiting for Python to load, then running…";
    const onStart = () => { stop.hidden = false; result.textContent = "Running…"; };
    performance.mark(`course:${mode}-start`);
    try {
      const verdict = mode === "check"
        ? await checkCode(rt, exercise, code, timeoutMs, onStart)
        : await runCode(rt, exercise, code, timeoutMs * 2, onStart);
      renderVerdict(result, verdict, { mode });
      performance.measure(`course:${mode}`, `course:${mode}-start`);
      if (mode === "check") {
        const item = progress.item(level, slot);
        if (verdict.passed === true && !item.solved) progress.update(level, slot, { solved: true });
        root.classList.toggle("is-solved", verdict.passed === true || item.solved === true);
        root.dispatchEvent(new CustomEvent("course:checked", { bubbles: true, detail: { passed: verdict.passed === true } }));
      }
    } catch (error) {
      renderVerdict(result, problem(`Something went wrong while running your code: ${error.message}. Your code is kept.`));
    } finally {
      busy = false;
      stop.hidden = true;
      run.disabled = check.disabled = false;
    }
  }

  run.addEventListener("click", () => execute("run"));
  check.addEventListener("click", () => execute("check"));
  stop.addEventListener("click", () => rt.stop(null, "stop"));
  reset.addEventListener("click", async () => {
    if (!await confirmDialog("Reset this exercise?", "Your changes will be lost: the editor goes back to the starting code.",
      "Reset the code")) return;
    editor.setCode(starter);
    progress.saveCode(slot, starter);
    result.replaceChildren();
    editor.focus();
  });

  /** The exercise's hints and solution, or null once the result area has said that
   * `what` could not be loaded (offline): the button stays, and a press tries again. */
  async function publicDataOrSay(what, buttonName) {
    try {
      return await exerciseData(exercise);
    } catch (error) {
      renderVerdict(result, problem(`The ${what} could not be loaded (${error.message}). Press ${buttonName} again to retry.`),
        { mode: "run" });
      return null;
    }
  }

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

  show.addEventListener("click", async () => {
    if (!solution.hidden) return;
    if (!await confirmDialog("Show the answer?", `It is yours to read, but ${inQuiz ? QUIZ_COST : "this exercise will not count for stars."}`,
      "Show the answer")) return;
    const data = await publicDataOrSay("answer", "Show answer");
    if (!data) return;
    solution.replaceChildren(...answerView(starter, data.solution));
    solution.hidden = false;
    show.disabled = true;
    solution.querySelector(".course-answer")?.focus(); // the button is disabled now: go on to what it showed
    progress.update(level, slot, { shown: true });
  });

  return editor;
}
