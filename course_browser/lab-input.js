// A lab's inputs, as the learner last set them: kept across reloads in their progress.
import { progress } from "./progress.js";

/** Keep a lab's control as the learner last set it, across reloads (progress.labs, in the
 * saved schema): restore it now and call `applied()` so the lab recomputes as if they had
 * just set it, then save it on every change. `name` names the control within its lab;
 * the key adds the page and which lab of that kind it is, so two labs never share one. */
export function rememberInput(root, name, control, applied = () => {}) {
  const same = [...document.querySelectorAll(`.course-lab[data-lab="${CSS.escape(root.dataset.lab || "")}"]`)];
  const key = `${location.pathname}|${root.dataset.lab}#${Math.max(0, same.indexOf(root))}|${name}`;
  const saved = progress.labInput(key);
  if (typeof saved === "string" && saved !== control.value) {
    control.value = saved;
    if (control.value === saved) applied(); // a value the control no longer takes is left as built
  }
  control.addEventListener("change", () => progress.saveLabInput(key, control.value));
}
