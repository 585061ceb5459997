// Predict, then see: a lab keeps back the gradients that the questions after it ask
// for (the block's `hides` option) until those questions are answered. The learner
// may reveal them anyway; that counts like a shown answer for those questions.
import { confirmDialog } from "./dialog.js";
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
  // like Show answer, it asks first; then focus goes to the lab (the button is gone)
  reveal.addEventListener("click", async () => {
    if (!await confirmDialog("Show the gradients now?",
      "They answer the questions below, so those count as shown answers: no stars for them.",
      "Show the gradients")) return;
    for (const q of questions) progress.update(level, q, { shown: true });
    update();
    const status = root.querySelector(".course-lab__status");
    if (status) { status.tabIndex = -1; status.focus(); }
  });
  // on the article, which instant navigation replaces: no listener outlives its page. Only
  // the Check that opens the gate redraws: the others come with a verdict to paint.
  (root.closest("article") || document).addEventListener("course:checked", () => { if (!note.hidden && open()) update(); });
  note.hidden = open();
  return { hidden: () => !open() };
}
