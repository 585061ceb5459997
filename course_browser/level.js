// A level's progress: locked sections, the skip-level quiz, stars, the recap,
// the level header, and the course map on the home page.
import { confirmDialog } from "./dialog.js";
import { button, el, mountOnce } from "./dom.js";
import { progress, safeUrl } from "./progress.js";

const STAR_COUNT = 3;

export function starsText(stars) {
  return "★".repeat(stars) + "☆".repeat(STAR_COUNT - stars);
}

export function pageLevel(root) {
  const header = root.querySelector(".course-level[data-level]");
  return header ? header.dataset.level : null;
}

function itemId(el) {
  return el.dataset.question || el.dataset.slot;
}

/** Everything on the page that can be solved, split into quiz items and the rest. */
function items(root) {
  const all = [...root.querySelectorAll(".course-question, .course-exercise")];
  const inQuiz = (el) => !!el.closest(".course-quiz");
  return { quiz: all.filter(inQuiz), work: all.filter((el) => !inQuiz(el)) };
}

export function starsForWork(shownCount) {
  if (shownCount === 0) return 3;
  return shownCount <= 2 ? 2 : 1;
}

/** Decide whether the level is cleared, and with how many stars. */
export function evaluateLevel(root, level) {
  const { quiz, work } = items(root);
  const state = progress.level(level);
  const info = (el) => progress.item(level, itemId(el));
  let stars = state.stars || 0;
  let via = state.via || "";
  if (quiz.length && quiz.every((el) => info(el).solved && !info(el).shown)) {
    if (stars < STAR_COUNT) { stars = STAR_COUNT; via = "quiz"; }
  }
  if (work.length && work.every((el) => info(el).solved)) {
    const shown = work.filter((el) => info(el).shown).length;
    const earned = starsForWork(shown);
    if (earned > stars) { stars = earned; via = "work"; }
  }
  const cleared = stars > 0;
  const solved = [...quiz, ...work].filter((el) => info(el).solved).length;
  if (cleared !== state.cleared || stars !== state.stars || via !== state.via || (solved > 0) !== !!state.started) {
    progress.setLevel(level, { cleared, stars, via, started: solved > 0 });
  }
  return { cleared, stars, via, solved, total: quiz.length + work.length, workTotal: work.length,
    workSolved: work.filter((el) => info(el).solved).length };
}

function lockNotice(text) {
  return el("p", { className: "course-lock-notice", textContent: text });
}

export function applyLocks(root, level, cleared) {
  for (const section of root.querySelectorAll(".course-locked")) {
    const open = cleared || progress.item(level, section.dataset.after).solved;
    section.classList.toggle("is-locked", !open);
    for (const child of section.children) if (!child.classList.contains("course-lock-notice")) child.hidden = !open;
    const notice = section.querySelector(":scope > .course-lock-notice");
    if (!open && !notice) section.prepend(lockNotice("🔒 Answer the question above to unlock"));
    if (open && notice) notice.remove();
  }
  for (const recap of root.querySelectorAll(".course-recap")) {
    recap.classList.toggle("is-locked", !cleared);
    for (const child of recap.children) if (!child.classList.contains("course-lock-notice")) child.hidden = !cleared;
    const notice = recap.querySelector(":scope > .course-lock-notice");
    if (!cleared && !notice) recap.prepend(lockNotice("🔒 The recap opens once you clear the level: pass the short test, or answer every question and exercise."));
    if (cleared && notice) notice.remove();
  }
}

export function renderHeader(root, level, status) {
  const header = root.querySelector(".course-level");
  if (!header) return;
  if (mountOnce(header)) {
    const stars = el("p", { className: "course-stars" });
    const text = el("p", { className: "course-level__status", role: "status" });
    const reset = button("Reset my progress");
    reset.addEventListener("click", async () => {
      if (!await confirmDialog("Reset this level?", "Your answers, code and stars on this level will be forgotten.",
        "Reset this level")) return;
      resetLevel(root, level);
      location.reload();
    });
    header.append(stars, text, reset);
  }
  const stars = header.querySelector(".course-stars");
  stars.textContent = starsText(status.stars);
  stars.setAttribute("aria-label", `${status.stars} of ${STAR_COUNT} stars`);
  header.querySelector(".course-level__status").textContent = status.cleared
    ? `Level cleared${status.via === "quiz" ? " through the short test" : ""}. Every section is open.`
    : `${status.workSolved} of ${status.workTotal} questions and exercises done.`;
}

function resetLevel(root, level) {
  progress.resetLevel(level, [...root.querySelectorAll(".course-exercise")].map((el) => el.dataset.slot));
}

export function renderCourseMap(root) {
  for (const map of root.querySelectorAll(".course-map")) {
    const last = progress.data.last;
    const url = last && safeUrl(last.url); // relative or http(s) only: never javascript: or data:
    let resume = map.querySelector(".course-resume");
    if (url && !resume) {
      resume = el("p", { className: "course-resume" },
        el("a", { href: url, className: "md-button md-button--primary", textContent: `Resume: ${last.title}` }));
      map.prepend(resume);
    }
    for (const link of map.querySelectorAll("a[data-level]")) {
      const state = progress.data.levels[link.dataset.level];
      let badge = link.parentElement.querySelector(".course-map__state");
      if (!badge) {
        badge = el("span", { className: "course-map__state" });
        link.after(badge);
        if (link.dataset.sideTrip) {
          badge.after(el("span", { className: "course-map__side-trip", textContent: "Side trip" }));
        }
      }
      const label = !state || !state.started && !state.cleared ? "Not started"
        : state.cleared ? `Cleared ${starsText(state.stars)}` : "In progress";
      badge.textContent = label;
      badge.dataset.state = !state ? "new" : state.cleared ? "cleared" : "started";
      if (state?.cleared) badge.setAttribute("aria-label", `Cleared, ${state.stars} of ${STAR_COUNT} stars`);
    }
  }
}

export function rememberVisit(level, title) {
  progress.data.last = { url: location.pathname, title, level, at: Date.now() };
  progress.save();
}

export function mountLevel(root) {
  const level = pageLevel(root);
  if (!level) return null;
  const refresh = () => {
    const status = evaluateLevel(root, level);
    applyLocks(root, level, status.cleared);
    renderHeader(root, level, status);
    return status;
  };
  const scope = root.querySelector(".course-level").closest("article") || document.body;
  if (!scope.dataset.courseLevelBound) {
    scope.dataset.courseLevelBound = "true";
    scope.addEventListener("course:checked", refresh);
  }
  rememberVisit(level, document.querySelector("h1")?.textContent?.trim() || level);
  refresh();
  return level;
}
