// Export and import of progress as a file, and "Reset all progress" (course map page).
import { confirmDialog } from "./dialog.js";
import { button, el, liveStatus, mountOnce } from "./dom.js";
import { progress } from "./progress.js";

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
      try {
        progress.import(await chosen.text());
        message.textContent = "Progress imported.";
        location.reload();
      } catch (error) {
        message.textContent = `Could not import: ${error.message}`;
      }
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
