// The course's browser runtime, on every page (Material's extra_javascript).
// Brings the page's blocks to life on first load and after every instant
// navigation (Material's document$), in short steps so that typing and scrolling
// never wait long; pages with no code or lab start Python once idle.
import { renderCourseMap } from "./course-map.js";
import { mountLevel, pageLevel } from "./level.js";
import { onProgress, progress } from "./progress.js";
import { mountQuestion } from "./question.js";
import { python, startWhenIdle } from "./runtime.js";
import { installShortcuts } from "./shortcuts.js";
import { registerOffline } from "./offline.js";
import { mountProgressTools } from "./transfer.js";
import { el } from "./dom.js";

/** A lab's widget is `labs/<name>.js` (labs/__init__.py, the registry, says so), loaded
 * only on a page that has the lab: esbuild makes each a chunk of its own, and the
 * graph labs' layout library (dagre) one they share. */
function mountLab(root) {
  import(`./labs/${root.dataset.lab}.js`).then((widget) => widget.mount(root), (error) => console.error(error));
}

let editorModule = null;
function loadEditor() {
  editorModule = editorModule || Promise.all([import("./editor.js"), import("./exercise.js")]);
  return editorModule;
}

function showNotices() {
  const box = document.querySelector(".course-notices") || (() => {
    const article = document.querySelector("article") || document.body;
    const div = el("div", { className: "course-notices admonition warning", role: "status" });
    article.prepend(div);
    return div;
  })();
  box.replaceChildren(...progress.notices.map((text) => el("p", { textContent: text })));
}

/** Names Material leaves out: its search dialog. */
function nameThemeLandmarks() {
  const search = document.querySelector(".md-search[role='dialog']");
  if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
}

/** Let the browser handle input and paint between steps (a keystroke never waits
 * behind the whole mount). */
function yieldToBrowser() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((r) => setTimeout(r, 0));
}

/** Call `fn(el)` for each element once it comes near the viewport, or once `alsoWhen`
 * (if given) resolves, whichever is first: work below the fold waits, off the critical path. */
function whenNearView(elements, fn, alsoWhen = null) {
  const pending = new Set(elements);
  const run = (el) => {
    if (!pending.delete(el)) return;
    observer.unobserve(el);
    if (el.isConnected) fn(el); // not a page left by instant navigation
  };
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) run(entry.target);
  }, { rootMargin: "400px 0px" });
  for (const el of pending) observer.observe(el);
  alsoWhen?.then(async () => {
    for (const el of [...pending]) { run(el); await yieldToBrowser(); }
  });
  return run;
}

/** Resolves once Python is up (or failed), then the browser is idle: the rest can load. */
function pythonSettled() {
  const rt = python();
  const idle = () => new Promise((r) => ("requestIdleCallback" in globalThis ? requestIdleCallback(r, { timeout: 2000 }) : setTimeout(r, 200)));
  if (!rt || rt.state === "ready" || rt.state === "failed" || rt.state === "idle") return idle();
  return new Promise((resolve) => rt.addEventListener("state", function onState(e) {
    if (e.detail.state === "loading") return;
    rt.removeEventListener("state", onState);
    resolve(idle());
  }));
}

/** Swap each plain-text editor for CodeMirror: those in view first, any the learner
 * focuses at once, the rest when Python is up (exercise.js keeps text, cursor and focus). */
function upgradeEditors(exercises, level) {
  const upgrade = async (el) => {
    const [{ createEditor }, { mountExercise }] = await loadEditor();
    await mountExercise(el, { level, createEditor });
  };
  const run = whenNearView(exercises, upgrade, pythonSettled());
  for (const el of exercises) {
    if (el.contains(document.activeElement)) run(el); // the learner got there before this script
    else el.addEventListener("focusin", () => run(el), { once: true });
  }
}

/** The lab interpreter boots once a lab, or a task that uses it, comes near view: the
 * learner's first change to it is then measured at once, and a page read only above
 * its labs costs no extra worker. */
function prepareLabsNearView(root) {
  const users = root.querySelectorAll(".course-lab, .course-question[data-task='flat']");
  if (users.length) whenNearView(users, () => python()?.prepareLab());
}

async function mount() {
  const root = document.querySelector("article") || document.body;
  nameThemeLandmarks();
  installShortcuts();
  if (progress.notices.length) showNotices();
  const level = pageLevel(root) || location.pathname;
  const exercises = root.querySelectorAll(".course-exercise");
  // A page with code or a lab started Python from its <head> (early.js); this adopts it.
  // An exercise near view keeps a second spare: Checks come in bursts (python.js
  // keepSpares), and a page read only above its exercises costs no extra worker. An
  // exercise page keeps the spares it has: one booted on the level before (instant
  // navigation) stays for this one's exercises, rather than being ended and booted again.
  if (exercises.length) {
    python()?.start();
    whenNearView(exercises, () => python()?.keepSpares(2));
  } else if (root.querySelector(".course-lab")) python()?.keepSpares(1);
  for (const el of root.querySelectorAll(".course-question")) mountQuestion(el, { level });
  mountLevel(root); // locks first: a hidden section costs no layout and no editor
  await yieldToBrowser();
  if (exercises.length) upgradeEditors(exercises, level);
  for (const el of root.querySelectorAll(".course-lab")) mountLab(el);
  prepareLabsNearView(root);
  renderCourseMap(root);
  mountProgressTools(root);
  registerOffline();
}

onProgress(({ notice }) => { if (notice) showNotices(); });

if (python() && !document.querySelector(".course-exercise, .course-lab")) startWhenIdle();
if (globalThis.document$ && typeof globalThis.document$.subscribe === "function") {
  globalThis.document$.subscribe(() => { mount(); });
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mount);
} else {
  mount();
}
