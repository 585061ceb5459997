// The course's browser runtime, on every page (Material's extra_javascript).
// Starts Python when the page is idle, then brings the page's blocks to life
// on first load and after every instant navigation (Material's document$).
import { mountExpression } from "./expression.js";
import { mountLab } from "./lab.js";
import { mountTangent } from "./tangent.js";
import { mountTraining } from "./training.js";
import { mountLevel, pageLevel, renderCourseMap } from "./level.js";
import { onProgress, progress } from "./progress.js";
import { mountQuestion } from "./questions.js";
import { python, startWhenIdle } from "./runtime.js";
import { installShortcuts } from "./shortcuts.js";
import { registerOffline } from "./offline.js";
import { mountProgressTools } from "./transfer.js";

const LABS = { "level-graph": mountLab, tangent: mountTangent, expression: mountExpression, training: mountTraining };

let editorModule = null;
function loadEditor() {
  editorModule = editorModule || Promise.all([import("./editor.js"), import("./exercise.js")]);
  return editorModule;
}

function showNotices() {
  const box = document.querySelector(".course-notices") || (() => {
    const article = document.querySelector("article") || document.body;
    const div = document.createElement("div");
    div.className = "course-notices admonition warning";
    div.setAttribute("role", "status");
    article.prepend(div);
    return div;
  })();
  box.replaceChildren(...progress.notices.map((text) => Object.assign(document.createElement("p"), { textContent: text })));
}

/** Names Material leaves out: its search dialog. */
function nameThemeLandmarks() {
  const search = document.querySelector(".md-search[role='dialog']");
  if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
}

async function mount() {
  const root = document.querySelector("article") || document.body;
  nameThemeLandmarks();
  installShortcuts();
  if (progress.notices.length) showNotices();
  const level = pageLevel(root) || location.pathname;
  root.querySelectorAll(".course-question").forEach((el) => mountQuestion(el, { level }));
  root.querySelectorAll(".course-lab").forEach((el) => (LABS[el.dataset.lab] || mountLab)(el));
  renderCourseMap(root);
  mountProgressTools(root);
  const exercises = root.querySelectorAll(".course-exercise");
  if (exercises.length) {
    const [{ createEditor }, { mountExercise }] = await loadEditor();
    await Promise.all([...exercises].map((el) => mountExercise(el, { level, createEditor })));
  }
  // Python next: on two cores its download and compile would otherwise slow the editors down.
  // (A page with code or a lab needs it now; any other page starts it once idle, so the
  // next page finds it warm: the worker survives instant navigation.)
  if (exercises.length || root.querySelector(".course-lab")) python()?.start();
  if (root.querySelector(".arithmatex")) import("./math.js").then(({ renderMath }) => renderMath(root));
  mountLevel(root);
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
