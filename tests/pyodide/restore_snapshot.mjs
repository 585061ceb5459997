// Restore the build's memory snapshot in Node, as the worker does in the browser
// (worker.js: inflate, unpack, `_loadSnapshot` with its base filled in at `fsInit` and
// an empty standard library zip, the zip fetched when read, the course files again,
// reseed, arm), and report what the restored interpreter holds, as JSON.
// Usage: node tests/pyodide/restore_snapshot.mjs <snapshot.gz> <course files .json> <empty zip>
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

// Node has no XMLHttpRequest: this one reads the file at the URL's path, counting the reads
const fetched = [];
globalThis.XMLHttpRequest = class {
  open(_method, url) {
    this.url = url;
  }
  send() {
    fetched.push(this.url);
    this.response = readFileSync(new URL(this.url)).buffer;
    this.status = 200;
  }
};
const { loadPyodide } = await import("pyodide");
const { AFTER_RESTORE, importCourse } = await import("../../course_browser/interpreter.mjs");
const { restoreOptions } = await import("../../course_browser/snapshot-format.mjs");
const { fetchStdlibWhenRead } = await import("../../course_browser/stdlib.mjs");

const [snapshotPath, filesPath, emptyZipPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ ...restoreOptions(new Uint8Array(gunzipSync(readFileSync(snapshotPath)))).options,
  stdLibURL: emptyZipPath });
fetchStdlibWhenRead(pyodide, new URL("python_stdlib.zip", import.meta.resolve("pyodide")).href);
const before = JSON.parse(pyodide.runPython(`import json, sys
json.dumps({"course_imported": "runner.api" in sys.modules, "path": sys.path[:3],
            "engine_loaded": [m for m in sys.modules if m.split(".")[0] in ("engine", "labs", "grader")],
            "statistics_loaded": "statistics" in sys.modules})`));
const api = importCourse(pyodide, JSON.parse(readFileSync(filesPath, "utf8")));
pyodide.runPython(AFTER_RESTORE);
const [hide, unhide] = pyodide.pyimport("runner.guard").arm().toJs();
hide();
let run;
let reference;
let stdlib;
try {
  run = JSON.parse(api.call("run", JSON.stringify(["x = 2.0 * 3\nprint(x)\n1/0"])));
  reference = JSON.parse(api.call("run", JSON.stringify(["import engine"])));
  const fetchedBefore = fetched.length;
  const imported = JSON.parse(api.call("run", JSON.stringify(["import statistics\nprint(statistics.median([3, 1, 2]))"])));
  stdlib = { fetchedBefore, fetchedAfter: fetched.length, imported };
} finally {
  unhide();
}
const after = JSON.parse(pyodide.runPython(`import json, os, sys, time
json.dumps({"path": sys.path[:3], "executable": sys.executable, "underscore": os.environ.get("_"),
            "tzname": list(time.tzname), "allocated": len(bytearray(64 << 20))})`));
console.log(JSON.stringify({ before, after, run, reference, stdlib }));
