// The course's one dialog: a native <dialog>, opened modal (focus moves in, Esc
// closes, the page behind is inert), placed inside Material's themed area so it
// takes the palette and typography of the page. Used for the shortcuts list and
// for every confirmation (never the browser's own confirm()).
import { button, el } from "./dom.js";

let counter = 0;

/** Open a modal dialog; resolves with the value of the action pressed (or null on Esc). */
export function openDialog({ title, body = [], actions = [{ label: "Close", value: null }], className = "" }) {
  const id = `course-dialog-${++counter}`;
  const dialog = el("dialog", { className: `course-dialog md-typeset ${className}`.trim(), "aria-labelledby": id },
    el("h2", { id, textContent: title }), ...body);
  const bar = el("div", { className: "course-toolbar course-dialog__actions" });
  for (const action of actions) {
    const b = button(action.label, action.primary ? "md-button--primary" : "");
    b.value = String(action.value);
    b.addEventListener("click", () => dialog.close(b.value));
    bar.append(b);
  }
  dialog.append(bar);
  (document.querySelector(".md-container") || document.body).append(dialog);
  const opener = document.activeElement;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const picked = actions.find((a) => String(a.value) === dialog.returnValue);
      dialog.remove();
      // back to what opened the dialog (the browser's own return can be lost by the
      // time "close" fires); whoever awaits the answer may move it on from there
      const lost = !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected;
      if (lost && opener instanceof HTMLElement && opener !== document.body && opener.isConnected) opener.focus();
      resolve(picked ? picked.value : null);
    }, { once: true });
    dialog.showModal();
    const first = actions.find((a) => a.autofocus) || actions[0];
    bar.querySelector(`button[value="${CSS.escape(String(first?.value))}"]`)?.focus();
  });
}

/** Ask before something that can't be undone; resolves true only on the confirming button. */
export async function confirmDialog(title, message, confirmLabel) {
  const answer = await openDialog({
    title,
    body: [el("p", { textContent: message })],
    actions: [{ label: "Cancel", value: false, autofocus: true }, { label: confirmLabel, value: true, primary: true }],
  });
  return answer === true;
}
