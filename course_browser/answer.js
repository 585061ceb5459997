// What a learner sees of an exercise's answer, hints and known-mistake messages:
// never raw author text as HTML. `backticks` become <code> and *stars* <em>, built
// from text nodes only; "Show answer" shows the answer file as code with the lines
// the learner had to write marked, not an unstyled dump.
import { el } from "./dom.js";

/** *emphasis* as Markdown reads it: no space just inside the stars, so `a * b` stays. */
const EMPHASIS = /\*(?=\S)([^*]*?\S)\*/g;

function emphasised(text) {
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(EMPHASIS)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push(el("em", { textContent: match[1] }));
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Author text with `code` spans and *emphasis* (outside code), as nodes and strings. */
export function richText(text) {
  return String(text).split("`").flatMap((part, i) => (i % 2 ? [el("code", { textContent: part })] : emphasised(part)));
}

/** A hint's text, rendered as richText. */
export const hintContent = richText;

/** The answer as a read-only code block, the learner-written lines marked. */
export function answerView(solution, writtenIndices) {
  const written = new Set(writtenIndices); // the lines the solution's fillings span (grader/catalog.py)
  const lines = solution.replace(/\n$/, "").split("\n");
  const code = el("code", {}, lines.map((line, n) => el("span", {
    className: written.has(n) ? "course-answer__line is-written" : "course-answer__line",
    textContent: `${line}\n`,
  })));
  return [
    el("p", { textContent: `One correct answer. The ${written.size === 1 ? "marked line is" : `${written.size} marked lines are`} what you had to write:` }),
    el("pre", { className: "course-answer", tabIndex: 0, "aria-label": "The answer, read-only" }, code),
  ];
}
