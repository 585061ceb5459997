// A level page: its locked sections, stars, header and completion. The skip test is
// skip-test.js; the home page's course map is course-map.js.
import { rememberVisit } from "./course-map.js";
import { confirmDialog } from "./dialog.js";
import { button, el, mountOnce } from "./dom.js";
import { itemId, items, STAR_COUNT, starsText } from "./level-items.js";
import { progress } from "./progress.js";
import { counts, mountSkipTest, renderQuiz } from "./skip-test.js";
import { svg } from "./svg.js";

export function pageLevel(root) {
  const header = root.querySelector(".course-level[data-level]");
  return header ? header.dataset.level : null;
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
  if (quiz.length && quiz.every((el) => counts(info(el)))) {
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

// Material's own lock icon (material/lock-outline.svg from the theme's bundled set):
// an emoji lock shows as an empty box where no emoji font is installed.
const LOCK_PATH = "M12 17a2 2 0 0 1-2-2c0-1.11.89-2 2-2a2 2 0 0 1 2 2 2 2 0 0 1-2 2m6 3V10H6v10zm0-12a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V10c0-1.11.89-2 2-2h1V6a5 5 0 0 1 5-5 5 5 0 0 1 5 5v2zm-6-5a3 3 0 0 0-3 3v2h6V6a3 3 0 0 0-3-3";

function lockNotice(text) {
  const icon = svg("svg", { viewBox: "0 0 24 24", class: "course-lock-icon", "aria-hidden": "true", focusable: "false" });
  icon.append(svg("path", { d: LOCK_PATH }));
  return el("p", { className: "course-lock-notice" }, icon, ` ${text}`);
}

/** What opens a locked section, in the learner's words: the question or the exercise above. */
function unlockText(root, after) {
  const exercise = root.querySelector(`.course-exercise[data-slot="${CSS.escape(after)}"]`);
  return exercise ? "Pass the exercise above to open the next section." : "Answer the question above to open the next section.";
}

function setNotice(box, text) {
  const notice = box.querySelector(":scope > .course-lock-notice");
  if (!text) notice?.remove();
  else if (!notice) box.prepend(lockNotice(text));
}

/** What opens a level's recap: the short test is named only where the level has one. */
function recapLockText(root) {
  const ways = root.querySelector(".course-quiz")
    ? "pass the short test, or do every question and exercise on this page"
    : "do every question and exercise on this page";
  return `The recap opens once you clear the level: ${ways}.`;
}

/** Material makes a code block that scrolls sideways reachable by keyboard when the
 * page loads, and misses those hidden behind a lock then: done again as one opens. */
function focusableCode(section) {
  for (const code of section.querySelectorAll("pre > code:not([tabindex])")) {
    if (code.scrollWidth > code.clientWidth) code.tabIndex = 0;
  }
}

export function applyLocks(root, level, cleared) {
  // Only the first locked section says what opens it; the ones after it stay quiet
  // (one notice, not a stack of identical ones).
  let noticeShown = false;
  for (const section of root.querySelectorAll(".course-locked")) {
    const open = cleared || progress.item(level, section.dataset.after).solved;
    section.classList.toggle("is-locked", !open);
    section.classList.toggle("is-open", open);
    for (const child of section.children) if (!child.classList.contains("course-lock-notice")) child.hidden = !open;
    if (open) focusableCode(section);
    const visible = !section.parentElement.closest(".course-locked.is-locked");
    const speak = !open && visible && !noticeShown;
    setNotice(section, speak ? unlockText(root, section.dataset.after) : null);
    if (speak) noticeShown = true;
  }
  for (const recap of root.querySelectorAll(".course-recap")) {
    recap.classList.toggle("is-locked", !cleared);
    recap.classList.toggle("is-open", cleared);
    for (const child of recap.children) if (!child.classList.contains("course-lock-notice")) child.hidden = !cleared;
    setNotice(recap, cleared ? null : recapLockText(root));
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
  renderCompletion(root, header, status);
}

/** The next page, as Material's footer links it; from the last level (the page that
 * holds the course's finale), the course map: the page after it is for instructors. */
function nextPage(root) {
  if (root.querySelector(".course-finale")) {
    const home = document.querySelector("a.md-header__button.md-logo")?.href || new URL("..", location.href).href;
    return { href: home, title: "the course map", label: "Back to the course map" };
  }
  const link = document.querySelector("a.md-footer__link--next");
  if (!link) return null;
  const title = link.querySelector(".md-ellipsis")?.textContent.trim() || link.getAttribute("aria-label") || "Next";
  return { href: link.href, title: title.replace(/^Next:\s*/, "") };
}

/** A cleared level says so at its end, with its stars and a way on to the next level;
 * the header offers the same way on. */
function renderCompletion(root, header, status) {
  const next = nextPage(root);
  let box = root.querySelector(".course-complete");
  if (!status.cleared) {
    box?.remove();
    header.querySelector(".course-level__next")?.remove();
    return;
  }
  const stars = `${starsText(status.stars)} (${status.stars} of ${STAR_COUNT} stars)`;
  if (!box) {
    box = el("section", { className: "course-complete admonition success", "aria-label": "Level cleared" });
    (root.querySelector(".course-recap") || root.querySelector(".course-level").parentElement.lastElementChild).after(box);
  }
  box.replaceChildren(
    el("p", { className: "admonition-title", textContent: "Level cleared" }),
    el("p", { textContent: `You cleared this level${status.via === "quiz" ? " through the short test" : ""}: ${stars}.` }),
    next ? el("p", {}, el("a", { href: next.href, className: "md-button md-button--primary", textContent: next.label || `Next: ${next.title}` })) : "",
  );
  if (next && !header.querySelector(".course-level__next")) {
    header.append(el("a", { href: next.href, className: "md-button course-level__next", textContent: next.label || `Next: ${next.title}` }));
  }
}

function resetLevel(root, level) {
  progress.resetLevel(level, [...root.querySelectorAll(".course-exercise")].map((el) => el.dataset.slot));
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
    scope.addEventListener("course:checked", (event) => {
      const inQuiz = !!event.target.closest?.(".course-quiz");
      const item = event.target.closest?.(".course-question, .course-exercise");
      // a wrong first try in the skip test is kept: that item can no longer count (a Check
      // with a blank still unfilled is no try: the code is saved before every run)
      const blank = item?.dataset.slot && String(progress.code(item.dataset.slot) ?? "").includes("____");
      if (inQuiz && item && !blank && event.detail?.passed === false && !progress.item(level, itemId(item)).solved) {
        progress.update(level, itemId(item), { tried: true });
      }
      refresh();
      renderQuiz(root, level, { announce: inQuiz });
    });
  }
  rememberVisit(level, document.querySelector("h1")?.textContent);
  refresh();
  mountSkipTest(root, level);
  return level;
}
