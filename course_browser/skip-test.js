// The skip-level test: an offer folded at the top of a level, its items' notes and its
// live status. Its rule (`counts`) is also the level's (level.js evaluateLevel).
import { button, el, liveStatus } from "./dom.js";
import { itemId, items } from "./level-items.js";
import { onProgress, progress } from "./progress.js";

export /** A skip-test item counts when it was solved on the first try with no answer seen:
 * a wrong first try (`tried`) or a seen answer (`shown`) stays until the level is
 * reset, so the test can be failed, and a slip's pointer can't be followed to a pass. */
const counts = (item) => item.solved && !item.shown && !item.tried;

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

/** The skip test of the level `level` on this page, folded to its offer, its status shown. */
export function mountSkipTest(root, level) {
  refreshQuiz = () => renderQuiz(root, level);
  mountOffer(root, level);
  renderQuiz(root, level);
}

/** The skip test's live status at its end, and a note on each item whose answer was seen,
 * under its result. `announce` says the status again even if unchanged (after a Check). */
export function renderQuiz(root, level, { announce = false } = {}) {
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
