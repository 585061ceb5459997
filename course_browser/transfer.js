// Export and import of progress as a file, and "Reset all progress" (course map page).
// An import asks first: it says what this browser holds and what the file holds, and
// offers to replace or to merge; a file it can't use gets a sentence, not a parser's
// error; the page that loads after it says what was imported.
import { confirmDialog, openDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { progress, readProgressFile, summary } from "./progress.js";

/** Ask how to import `data`: resolves "replace", "merge" or null (cancelled). */
function askImport(name, data, dropped) {
  const body = [
    el("p", { textContent: `In this browser now: ${summary(progress.data)}.` }),
    el("p", { textContent: `In ${name}: ${summary(data)}.` }),
    el("p", { textContent: "Replace forgets this browser's progress and code and puts the file's in their place. "
      + "Merge keeps both: every answer, unlock and star from either, and for each exercise the code saved last." }),
  ];
  if (dropped.length) body.push(el("p", { textContent: `Left out of the file: ${dropped.join("; ")}.` }));
  return openDialog({ title: "Import progress?", body, actions: [
    { label: "Cancel", value: null, autofocus: true },
    { label: "Merge", value: "merge" },
    { label: "Replace", value: "replace", primary: true },
  ] });
}

export function mountProgressTools(root) {
  for (const box of root.querySelectorAll(".course-map")) {
    if (!mountOnce(box)) continue;
    const bar = el("div", { className: "course-toolbar course-progress-tools" });
    const message = liveStatus("p", "course-feedback");
    const exportButton = button("Export progress");
    const importButton = button("Import progress");
    const resetButton = button("Reset all progress");
    const file = el("input", { type: "file", accept: "application/json,.json", hidden: true, "aria-label": "Progress file to import" });
    exportButton.addEventListener("click", () => {
      const blob = new Blob([progress.export()], { type: "application/json" });
      const a = el("a", { href: URL.createObjectURL(blob), download: "autograd-course-progress.json" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      message.textContent = "Progress saved to autograd-course-progress.json.";
    });
    importButton.addEventListener("click", () => file.click());
    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      file.value = ""; // the same file can be chosen again
      let read;
      try {
        read = readProgressFile(await chosen.text());
      } catch (error) {
        message.textContent = `Could not import: ${error.message}`;
        return;
      }
      const mode = await askImport(chosen.name, read.data, read.dropped);
      if (mode !== "replace" && mode !== "merge") {
        message.textContent = "Nothing imported: your progress is as it was.";
        return;
      }
      const how = mode === "merge" ? "merged with the progress already here" : "in place of the progress that was here";
      progress.import(read.data, mode, `Imported ${chosen.name} (${summary(read.data)}), ${how}.`);
      message.textContent = "Progress imported.";
      location.reload();
    });
    resetButton.addEventListener("click", async () => {
      if (!await confirmDialog("Reset all progress?", "Answers, code and stars on every level of this course will be forgotten.",
        "Reset all progress")) return;
      progress.reset();
      location.reload();
    });
    bar.append(exportButton, importButton, resetButton, file);
    box.after(bar, message);
  }
}
