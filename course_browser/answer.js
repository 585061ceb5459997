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

/** Indices of the solution's lines that are not in the starter, in order (a line LCS). */
export function writtenLines(starter, solution) {
  const a = starter.split("\n"), b = solution.split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const written = new Set();
  let i = 0, j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) { i++; j++; }
    else if (i < a.length && lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else written.add(j++);
  }
  return written;
}

/** The answer as a read-only code block, the learner-written lines marked. */
export function answerView(starter, solution) {
  const written = writtenLines(starter, solution);
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
