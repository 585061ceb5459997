// Inlined at the end of every page with an exercise (a classic script, so it runs
// while the page parses and again after Material's instant navigation). It puts the
// learner's saved code into the plain-text editors before the first paint, so early
// typing lands on their own code, never on a starter that would then overwrite it.
// In the skip test, whose plain-text editors show a few lines only (course.css), it
// scrolls each to the function that holds its first blank, as CodeMirror's folds will
// (editor.js), so the code given above it (another exercise's answer) stays out of view.
// Named imports, so the bundle (inline.mjs) carries these two facts and no other.
import { blank, storage } from "../runner/facts.json";

try {
  const saved = JSON.parse(localStorage.getItem(storage.key));
  const readable = [storage.schema_version, ...storage.migrates_from]; // every version keeps code as {slot: text}
  if (saved && readable.includes(saved.version) && saved.code) {
    for (const draft of document.querySelectorAll("textarea.course-draft")) {
      const code = saved.code[draft.getAttribute("data-slot")];
      if (typeof code === "string" && draft.value === draft.defaultValue) draft.value = code;
    }
  }
} catch { /* no storage: progress.js explains it once the page is up */ }
for (const draft of document.querySelectorAll(".course-quiz textarea.course-draft")) {
  const lines = draft.value.split("\n");
  let top = lines.findIndex((line) => line.includes(blank));
  while (top > 0 && !/^( {4})?def /.test(lines[top])) top -= 1; // the method or function, not an inner def
  if (top > 0) draft.scrollTop = top * parseFloat(getComputedStyle(draft).lineHeight);
}
