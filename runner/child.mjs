// The CLI's grading child: one Pyodide interpreter under Node, for one submission,
// the browser's sandbox outside the browser. grader/isolated.py starts it as
//   node --experimental-permission --allow-fs-read=<pyodide dir> --allow-fs-read=<these scripts>
//        runner/child.mjs <pyodide dir>
// with no write, child-process or worker permission, in a process group of its own
// that it kills whole when the grade ends. Python's files live in memory (Pyodide's
// MEMFS): nothing the learner's code writes reaches the disk, and the checkout
// (solutions, the grader) is not in that file system at all.
//
// stdin: one line of JSON {files, given, code, probe, inputs, timeout}, where `files`
// is the runner package and `given` what the exercise gives ({path: text} each), then,
// optionally, the build's memory snapshot (course_build/snapshot.py, gzip) to restore
// instead of a normal boot.
// stdout: {"ready": seconds} once Python is up (the parent starts the learner's clock
// there), then the report of runner.execute.collect as one line of JSON. The parent
// compares the outputs; nothing here knows an expected one.
import { constants, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { AFTER_RESTORE, importCourse, writeFiles } from "../course_browser/interpreter.mjs";
import { restoreOptions } from "../course_browser/snapshot-format.mjs";

// Captured before any learner code runs: the only way out of this process.
const write = process.stdout.write.bind(process.stdout);
const exit = process.exit.bind(process);

// Under the permission model process.binding() throws, and Pyodide's NODEFS reads its
// open flags from process.binding("constants") while it boots: those flags, nothing else.
const deniedBinding = process.binding;
process.binding = (name) => (name === "constants" ? { fs: constants } : deniedBinding(name));

function readRequest() {
  const input = readFileSync(0);
  const end = input.indexOf(10); // JSON.stringify never writes a raw newline
  const request = JSON.parse(input.subarray(0, end < 0 ? input.length : end).toString("utf8"));
  const snapshot = end < 0 || end + 1 === input.length ? null : input.subarray(end + 1);
  return { request, snapshot };
}

async function startPython(loadPyodide, indexURL, snapshot) {
  if (snapshot) {
    try {
      const py = await loadPyodide({ indexURL, ...restoreOptions(gunzipSync(snapshot)).options });
      py.runPython(AFTER_RESTORE);
      return py;
    } catch {
      // another Pyodide build, or a damaged file: a normal boot gives the same interpreter
    }
  }
  return loadPyodide({ indexURL });
}

// What Node would let code that reached this JavaScript do beyond the permission
// model (which covers files, child processes and workers): signal other processes,
// load native code, talk to the network. Replaced once Python is up.
function dropPowers() {
  const refuse = (name) => () => { throw new Error(`${name} is not available while grading`); };
  for (const name of ["kill", "dlopen", "binding", "_linkedBinding", "chdir", "setuid", "setgid"]) {
    process[name] = refuse(`process.${name}`);
  }
  for (const name of ["fetch", "WebSocket", "EventSource"]) delete globalThis[name];
}

// What the learner sees when their code broke runner.execute itself (it has
// describe() for everything it knows of; this is for what it doesn't).
const UNDESCRIBED = {
  status: "error", stdout: "", stdout_truncated: false,
  summary: "Your code broke the checks in a way they could not describe, so they could not run.",
  error: { type: "Error", message: "the checks could not describe what your code did", line: null, traceback: "" },
};

async function main([pyodideDir]) {
  const started = performance.now();
  const { request, snapshot } = readRequest();
  const indexURL = `${resolve(pyodideDir)}/`;
  const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const pyodide = await startPython(loadPyodide, indexURL, snapshot);
  const api = importCourse(pyodide, request.files);
  writeFiles(pyodide, request.given || {});
  pyodide.setStdout({ write: (buf) => buf.length }); // os.write(1, ...) from learner code goes nowhere
  pyodide.setStderr({ write: (buf) => buf.length });
  const [hide] = pyodide.pyimport("runner.guard").arm().toJs();
  dropPowers();
  write(`${JSON.stringify({ ready: (performance.now() - started) / 1000 })}\n`);
  hide(); // the bridge to this JavaScript leaves the interpreter for good: nothing runs after the call
  const args = [request.probe, request.inputs, request.code, request.timeout];
  let report;
  try {
    report = api.call("check", JSON.stringify(args));
  } catch {
    report = JSON.stringify(UNDESCRIBED); // never the runner's own traceback
  }
  write(`${report}\n`, () => exit(0));
}

await main(process.argv.slice(2));
