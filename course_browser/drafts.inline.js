// Inlined by the plugin at the end of every page with an exercise (a classic
// script, so it runs while the page parses and again after Material's instant
// navigation). It puts the learner's saved code into the plain-text editors
// before the first paint, so early typing lands on their own code, never on a
// starter that would then overwrite it. The plugin fills in the storage key and
// schema version from grader/facts.json, as progress.js reads them.
(() => {
  try {
    const saved = JSON.parse(localStorage.getItem("__STORAGE_KEY__"));
    if (!saved || saved.version !== __SCHEMA_VERSION__ || !saved.code) return;
    for (const draft of document.querySelectorAll("textarea.course-draft")) {
      const code = saved.code[draft.getAttribute("data-slot")];
      if (typeof code === "string" && draft.value === draft.defaultValue) draft.value = code;
    }
  } catch { /* no storage: progress.js explains it once the page is up */ }
})();
