// A level's progress: locked sections, the skip-level quiz, stars, the recap,
// the level header, and the course map on the home page.
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { svg } from "./svg.js";
import { onProgress, progress, safeUrl } from "./progress.js";

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

/** A skip-test item counts when it was solved on the first try with no answer seen:
 * a wrong first try (`tried`) or a seen answer (`shown`) stays until the level is
 * reset, so the test can be failed, and a slip's pointer can't be followed to a pass. */
const counts = (item) => item.solved && !item.shown && !item.tried;

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

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];
const count = (n) => NUMBER_WORDS[n] ?? String(n);

/** How the short test names its items: an exercise by its title, a question by its
 * place among the test's questions ("the second question"). */
function quizNames(items) {
  let questions = 0;
  return items.map((item) => {
    if (item.dataset.title) return `“${item.dataset.title}”`;
    questions += 1;
    return `the ${ORDINALS[questions - 1] ?? `number ${questions}`} question`;
  });
}

function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** What the skip-level test says: how far the learner is, and why a solved item does
 * not count. The rule is evaluateLevel's: the test clears the level only when every
 * one of its items is solved with no answer seen (Show answer, or an exercise's last
 * hint, which gives it away). A seen answer stays seen until the level is reset, so
 * the test can no longer clear the level; the level's own questions and exercises are
 * others, and an answer seen in the test costs no stars there. */
export function quizStatus(items, info, level) {
  const total = items.length;
  const names = quizNames(items);
  const seen = names.filter((_, i) => info(items[i]).shown);
  const missed = names.filter((_, i) => info(items[i]).tried && !info(items[i]).shown);
  const counted = items.filter((item) => counts(info(item))).length;
  if (seen.length || missed.length) {
    const lost = [...seen, ...missed];
    const them = lost.length === 1 ? "it" : "them";
    const why = [seen.length ? `saw the answer to ${listed(seen)}` : "", missed.length ? `answered ${listed(missed)} wrong first` : ""]
      .filter(Boolean).join(" and ");
    const head = `You ${why}, so the short test can't count ${them}`;
    if (level.cleared) return `${head}. The level is cleared already.`;
    return `${head}, and can no longer clear the level. Solve ${them} in the level instead: work through the sections below (an answer seen in the test costs no stars there).`;
  }
  if (counted === total) return `All ${count(total)} solved: the short test cleared the level with three stars.`;
  if (counted === 0) return "";
  return `${counted} of ${total} solved. Solve all ${count(total)} to clear the level.`;
}

const QUIZ_NOTE = "You saw this answer, so the short test doesn't count it.";
const MISSED_NOTE = "Your first try was not right, so the short test doesn't count this one: it counts first tries only.";
let quizTimer = 0;
let refreshQuiz = null; // the open page's, for progress changes (a Show answer says so at once)
onProgress(({ level, id }) => { if (level && id) refreshQuiz?.(); });

/** The skip test's live status at its end, and a note on each item whose answer was seen,
 * under its result. `announce` says the status again even if unchanged (after a Check). */
function renderQuiz(root, level, { announce = false } = {}) {
  const box = root.querySelector(".course-quiz");
  if (!box || !root.isConnected) return;
  const { quiz } = items(root);
  const info = (item) => progress.item(level, itemId(item));
  for (const item of quiz) {
    let note = item.querySelector(":scope > .course-quiz__note");
    const text = info(item).shown ? QUIZ_NOTE : info(item).tried ? MISSED_NOTE : "";
    if (!text) { note?.remove(); continue; }
    note ??= el("p", { className: "course-quiz__note" });
    note.textContent = text;
    const result = item.querySelector(":scope > .course-result, :scope > .course-feedback");
    if (result && result.nextElementSibling !== note) result.after(note);
    else if (!result && !note.isConnected) item.append(note); // moves under the result once the editor is up
  }
  let status = box.querySelector(":scope > .course-quiz__status");
  if (!status) {
    status = liveStatus("p", "course-quiz__status");
    box.append(status);
  }
  const text = quizStatus(quiz, info, progress.level(level));
  status.dataset.state = quiz.some((item) => info(item).shown || info(item).tried) ? "uncounted" : "";
  clearTimeout(quizTimer);
  if (announce && text && status.textContent === text) {
    status.textContent = ""; // a live region speaks a change: empty it, then say it again
    quizTimer = setTimeout(() => { status.textContent = text; }, 150);
  } else status.textContent = text;
  status.hidden = box.dataset.offer === "folded"; // folded, the offer's line says the same
  renderOffer(box, level, quiz.length);
}

/** The skip test is an offer, not a wall: folded at the top of the level to its heading,
 * one line and a button; the line is the test's result once the level is started or
 * cleared. Its items stay in place (hidden, so their editors are not even built until
 * the learner opens it); a link to an item opens it. */
function mountOffer(root, level) {
  const box = root.querySelector(".course-quiz");
  if (!box || box.dataset.offer) return;
  box.dataset.offer = "folded";
  const heading = box.querySelector(":scope > h2");
  const count = items(root).quiz.length;
  const line = el("p", { className: "course-quiz__offer-line" });
  const toggle = button("", "course-quiz__toggle");
  toggle.setAttribute("aria-expanded", "false");
  const offer = el("div", { className: "course-quiz__offer" }, line, toggle);
  (heading || box.firstElementChild)?.after(offer);
  if (!heading) box.prepend(offer);
  const setOpen = (open) => {
    box.dataset.offer = open ? "open" : "folded";
    toggle.setAttribute("aria-expanded", String(open));
    for (const child of box.children) if (child !== heading && child !== offer) child.hidden = !open;
    renderOffer(box, level, count);
  };
  toggle.addEventListener("click", () => setOpen(box.dataset.offer !== "open"));
  // a link to one of its items opens it (Material's own heading anchors, which it writes
  // into the address as the page scrolls, do not)
  const openForHash = () => {
    let target = null;
    try { target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null; } catch { /* not a link of ours */ }
    if (target && box.contains(target.closest(".course-question, .course-exercise"))) setOpen(true);
  };
  globalThis.addEventListener("hashchange", openForHash);
  setOpen(box.contains(document.activeElement)); // typing in it before this script ran: left open
  openForHash();
}

/** The offer's one line: the invitation, or the test's result so far. */
function renderOffer(box, level, count) {
  const line = box.querySelector(".course-quiz__offer-line");
  const toggle = box.querySelector(".course-quiz__toggle");
  if (!line || !toggle) return;
  const state = progress.level(level);
  const quiz = [...box.querySelectorAll(".course-question, .course-exercise")];
  const info = (item) => progress.item(level, itemId(item));
  const counted = quiz.filter((item) => counts(info(item))).length;
  const lost = quiz.filter((item) => info(item).shown || info(item).tried).length;
  const taken = quiz.some((item) => info(item).solved || info(item).tried || info(item).shown);
  line.textContent = state.cleared && state.via === "quiz" ? `Short test: all ${count} right on the first try. It cleared the level.`
    : state.cleared ? "Level cleared: the short test is no longer needed."
      : lost ? `Short test: ${counted} of ${count} counted; ${lost} can no longer count, so work through the level below.`
        : taken ? `Short test: ${counted} of ${count} right so far. Each item counts on its first try only.`
          : `Already know this? A ${count}-item test clears the level. Each item counts on its first try only.`;
  const open = box.dataset.offer === "open";
  toggle.textContent = open ? "Hide the short test" : taken ? "Show the short test" : "Take the short test";
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

/** Where to go on: the level last visited if it isn't cleared yet, else the first
 * level after it (in the map's order, wrapping round) that isn't. */
function resumeTarget(map) {
  const last = progress.data.last;
  if (!last) return null;
  const links = [...map.querySelectorAll("a[data-level]")];
  const cleared = (link) => !!progress.data.levels[link.dataset.level]?.cleared;
  const at = links.findIndex((link) => link.dataset.level === last.level);
  if (at >= 0 && !cleared(links[at])) {
    const url = safeUrl(last.url); // relative or http(s) only: never javascript: or data:
    return url ? { url, title: cleanTitle(last.title), level: last.level, verb: "Resume" } : null;
  }
  const start = at >= 0 ? at + 1 : 0;
  for (let k = 0; k < links.length; k++) {
    const link = links[(start + k) % links.length];
    if (!cleared(link)) return { url: link.href, title: link.textContent.trim(), level: link.dataset.level, verb: "Next" };
  }
  return null; // every level cleared
}

/** A heading's text without the "¶" permalink Material adds to it. */
function cleanTitle(text) {
  return String(text || "").replace(/\s*¶\s*$/, "").trim();
}

/** Every level of the map cleared: the course is done, and the map says so first. */
function renderFinished(map) {
  const links = [...map.querySelectorAll("a[data-level]")];
  const done = links.length > 0 && links.every((link) => progress.data.levels[link.dataset.level]?.cleared);
  map.querySelector(".course-finished")?.remove();
  if (!done) return;
  const last = links.at(-1);
  map.prepend(el("section", { className: "course-finished admonition success", "aria-label": "Course complete" },
    el("p", { className: "admonition-title", textContent: "Course complete" }),
    el("p", { textContent: `You cleared all ${links.length} levels: the autograd engine you wrote trains a neural network. ` },
      el("a", { href: `${last.href.split("#")[0]}#what-you-built`, textContent: "What you built, and where to go next" }))));
}

export function renderCourseMap(root) {
  for (const map of root.querySelectorAll(".course-map")) {
    const target = resumeTarget(map);
    map.querySelector(".course-resume")?.remove();
    renderFinished(map);
    if (target) {
      map.prepend(el("p", { className: "course-resume" },
        el("a", { href: target.url, className: "md-button md-button--primary", textContent: `${target.verb}: ${target.title}` })));
    }
    for (const link of map.querySelectorAll("a[data-level]")) {
      const here = progress.data.last?.level === link.dataset.level;
      link.parentElement.classList.toggle("is-current", here);
      if (here) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
      const mark = link.parentElement.querySelector(".course-map__here");
      if (here && !mark) link.before(el("span", { className: "course-map__here", textContent: "You were here: " }));
      if (!here) mark?.remove();
      const state = progress.data.levels[link.dataset.level];
      let badge = link.parentElement.querySelector(".course-map__state");
      if (!badge) {
        badge = el("span", { className: "course-map__state" });
        link.after(badge);
        if (link.dataset.skipTest) {
          badge.after(el("span", { className: "course-map__skip-test", textContent: "Skip test inside" }));
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
  refreshQuiz = () => renderQuiz(root, level);
  rememberVisit(level, cleanTitle(document.querySelector("h1")?.textContent) || level);
  refresh();
  mountOffer(root, level);
  renderQuiz(root, level);
  return level;
}
