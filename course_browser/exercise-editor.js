// An exercise's code editor (CodeMirror, editor.js) in the starter's place: it takes
// over what the plain-text editor held, saves the code as the learner types, and
// Reset puts the starter back. Parts of an exercise (exercise.js).
import { confirmDialog } from "./dialog.js";
import { button, el } from "./dom.js";
import { progress } from "./progress.js";

// One short line, shown under an editor on the page's first focus of one (the rest is in the
// `?` dialog, shortcuts.js); never on a touch screen, where these keys mean nothing.
const KEYS_HELP = "Esc then Tab leaves the editor · Ctrl/⌘+Enter checks · outside an editor, ? lists every key";
let keysHelpShown = false;

/** The editor, with the plain text's code, cursor and focus; saved as typed and when
 * the page is left. */
export function codeEditor(ctx) {
  const { slot, draft, starter } = ctx;
  // The plain-text editor may hold the saved code already (drafts.js) and what
  // the learner typed before this ran: that wins. Otherwise the saved code, or the starter.
  const typedEarly = draft.value !== draft.defaultValue;
  const saved = progress.code(slot);
  const doc = typedEarly ? draft.value : saved ?? starter;
  const hadFocus = document.activeElement === draft;
  const [from, to] = [draft.selectionStart, draft.selectionEnd].map((n) => Math.min(n, doc.length));
  const selection = hadFocus && draft.selectionDirection === "backward" ? { anchor: to, head: from } : { anchor: from, head: to };

  const host = el("div", { className: "course-editor" });
  ctx.starterEl.replaceWith(host);
  const keys = keysHelp(host, slot);
  let saveTimer = null;
  const editor = ctx.createEditor(host, {
    doc,
    selection: hadFocus ? selection : null,
    label: `Code editor: ${ctx.title}`,
    describedBy: keys.id,
    onChange: (text) => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => progress.saveCode(slot, text), 300);
    },
    onCheck: () => ctx.check.click(),
    fold: ctx.inQuiz ? starter : null, // a skip test shows the blanks, not the whole engine
  });
  ctx.editor = editor;
  if (hadFocus) editor.focus();
  if (typedEarly && doc !== saved) progress.saveCode(slot, doc);
  addEventListener("pagehide", () => progress.saveCode(slot, editor.getCode()));
  performance.mark("course:editor-ready");
}

/** The keys line right under the editor, shown on the first focus of any editor of the
 * page; a screen reader hears it with the editor (aria-describedby) on every focus. */
function keysHelp(host, slot) {
  const keys = el("p", { className: "course-keys", id: `course-keys-${slot}`, hidden: true, textContent: KEYS_HELP });
  host.after(keys);
  host.addEventListener("focusin", () => {
    if (keysHelpShown || !matchMedia("(pointer: fine)").matches) return;
    keysHelpShown = true;
    keys.hidden = false;
  }, { once: true });
  return keys;
}

/** Reset: the editor back to the starting code, once the learner confirms. */
export function reset(ctx) {
  const { slot, starter } = ctx;
  const resetButton = button("Reset");
  ctx.bar.append(resetButton);
  resetButton.addEventListener("click", async () => {
    if (!await confirmDialog("Reset this exercise?", "Your changes will be lost: the editor goes back to the starting code.",
      "Reset the code")) return;
    ctx.editor.setCode(starter);
    progress.saveCode(slot, starter);
    ctx.result.replaceChildren();
    ctx.editor.focus();
  });
}
