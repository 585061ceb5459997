// `?` opens a dialog listing the keyboard shortcuts (not while typing).
import { button } from "./dom.js";

const SHORTCUTS = [
  ["?", "Show this list"],
  ["Tab / Shift+Tab", "Move between buttons, fields and editors"],
  ["Ctrl+Enter (⌘+Enter on Mac)", "Check the code in the editor"],
  ["Enter, in an editor", "New line, keeping the indent"],
  ["Tab, in an editor", "Indent"],
  ["Esc, then Tab", "Leave the editor"],
  ["Enter, in an answer field", "Check the answer"],
  ["Space or Enter, on a button", "Press it"],
  ["F, S or /", "Search the course"],
  ["P / N", "Previous / next page"],
];

let dialog = null;

function build() {
  dialog = document.createElement("dialog");
  dialog.className = "course-shortcuts";
  dialog.setAttribute("aria-labelledby", "course-shortcuts-title");
  const h = document.createElement("h2");
  h.id = "course-shortcuts-title";
  h.textContent = "Keyboard shortcuts";
  const table = document.createElement("table");
  for (const [keys, what] of SHORTCUTS) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const kbd = document.createElement("kbd");
    kbd.textContent = keys;
    th.append(kbd);
    const td = document.createElement("td");
    td.textContent = what;
    tr.append(th, td);
    table.append(tr);
  }
  const close = button("Close");
  close.addEventListener("click", () => dialog.close());
  dialog.append(h, table, close);
  document.body.append(dialog);
}

function typing(target) {
  return target instanceof Element && !!target.closest("input, textarea, select, [contenteditable='true'], .cm-editor");
}

export function installShortcuts() {
  if (globalThis.__courseShortcuts) return;
  globalThis.__courseShortcuts = true;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (!dialog || !dialog.isConnected) build();
    if (dialog.open) return;
    event.preventDefault();
    event.stopPropagation();
    dialog.showModal();
  }, true);
}
