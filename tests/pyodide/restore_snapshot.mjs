// Restore the build's memory snapshot in Node, as the worker does in the browser
// (worker.js: inflate, unpack, `_loadSnapshot`, the course files again, reseed, arm), and report what the restored interpreter holds, as JSON.
// Usage: node tests/pyodide/restore_snapshot.mjs <snapshot.gz> <course files .json>
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { AFTER_RESTORE, importCourse } from "../../course_browser/interpreter.mjs";
import { unpack } from "../../course_browser/snapshot-format.mjs";

const [snapshotPath, filesPath] = process.argv.slice(2);
const pyodide = await loadPyodide({ _loadSnapshot: unpack(new Uint8Array(gunzipSync(readFileSync(snapshotPath)))) });
const before = JSON.parse(pyodide.runPython(`import json, sys
json.dumps({"course_imported": "runner.api" in sys.modules, "path": sys.path[:3],
            "engine_loaded": [m for m in sys.modules if m.split(".")[0] in ("engine", "labs", "grader")]})`));
const api = importCourse(pyodide, JSON.parse(readFileSync(filesPath, "utf8")));
pyodide.runPython(AFTER_RESTORE);
const [hide, unhide] = pyodide.pyimport("runner.guard").arm().toJs();
hide();
let run;
let reference;
try {
  run = JSON.parse(api.call("run", JSON.stringify(["x = 2.0 * 3\nprint(x)\n1/0"])));
  reference = JSON.parse(api.call("run", JSON.stringify(["import engine"])));
} finally {
  unhide();
}
const after = JSON.parse(pyodide.runPython(`import json, os, sys, time
json.dumps({"path": sys.path[:3], "executable": sys.executable, "underscore": os.environ.get("_"),
            "tzname": list(time.tzname)})`));
console.log(JSON.stringify({ before, after, run, reference }));
