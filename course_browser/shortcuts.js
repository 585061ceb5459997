// `?` opens a dialog listing the keyboard shortcuts (not while typing).
import { openDialog } from "./dialog.js";
import { el } from "./dom.js";

const SHORTCUTS = [
  ["?", "Show this list"],
  ["Tab / Shift+Tab", "Move between buttons, fields and editors"],
  ["Ctrl+Enter (⌘+Enter on Mac)", "Check the code in the editor"],
  ["Enter, in an editor", "New line, keeping the indent"],
  ["Tab, in an editor", "Indent, once you have typed in it (arriving by Tab, Tab moves on)"],
  ["Click or tap, on a ____ blank", "Select the whole blank: what you type replaces it"],
  ["Ctrl+Space, in an editor", "Suggest a completion; Tab takes it"],
  ["Esc, then Tab", "Leave the editor"],
  ["Enter, in an answer field", "Check the answer"],
  ["Space or Enter, on a button", "Press it"],
  ["F, S or /", "Search the course"],
  ["P / N", "Previous / next page"],
];

let open = false;

function typing(target) {
  return target instanceof Element && !!target.closest("input, textarea, select, [contenteditable='true'], .cm-editor");
}

function showShortcuts() {
  open = true;
  // the keys as key caps, the place they work in ("in an editor") as plain text
  const rows = SHORTCUTS.map(([keys, what]) => {
    const [key, where] = keys.split(/, (?=in |on |then )/);
    const th = el("th", { scope: "row" }, el("kbd", { textContent: key }));
    if (where) th.append(`, ${where}`);
    return el("tr", {}, th, el("td", { textContent: what }));
  });
  openDialog({ title: "Keyboard shortcuts", body: [el("table", {}, el("tbody", {}, rows))], className: "course-shortcuts" })
    .then(() => { open = false; });
}

export function installShortcuts() {
  if (globalThis.__courseShortcuts) return;
  globalThis.__courseShortcuts = true;
  document.addEventListener("keydown", (event) => {
    if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
    if (!open) showShortcuts();
  }, true);
}
