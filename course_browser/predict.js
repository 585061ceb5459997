// Predict, then see: a lab keeps back the gradients that the questions after it ask
// for (the block's `hides` option) until those questions are answered. The learner
// may reveal them anyway; that counts like a shown answer for those questions.
import { button, el } from "./dom.js";
import { progress } from "./progress.js";

export function predictFirst(root, onChange) {
  const questions = JSON.parse(root.dataset.hides || "[]");
  const level = document.querySelector(".course-level[data-level]")?.dataset.level;
  const open = () => !level || questions.every((q) => {
    const item = progress.item(level, q);
    return item.solved || item.shown;
  });
  if (!questions.length) return { hidden: () => false };
  const reveal = button("Show the gradients now (counts as a shown answer)");
  const note = el("p", { className: "course-lab__predict" },
    "Gradients are kept back until you answer the question below: predict first, then see. ", reveal);
  root.append(note);
  const update = () => { note.hidden = open(); onChange(); };
  reveal.addEventListener("click", () => {
    for (const q of questions) progress.update(level, q, { shown: true });
    update();
  });
  // on the article, which instant navigation replaces: no listener outlives its page
  (root.closest("article") || document).addEventListener("course:checked", () => { if (!note.hidden) update(); });
  note.hidden = open();
  return { hidden: () => !open() };
}
