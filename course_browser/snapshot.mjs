// Build-time memory snapshot of the course's Python, made in Node with the same npm
// Pyodide the site ships (Pyodide refuses a snapshot from any other build).
//   node course_browser/snapshot.mjs <pyodide dir> <course files .json | -> <output>
// The output is the interpreter right after `importCourse` (interpreter.mjs): the
// runner package (what runs beside learner code) imported, nothing armed, no learner
// code, and no engine: a grading interpreter holds only what its exercise gives.
// The worker restores it through `loadPyodide({_loadSnapshot})`.
//
// Pyodide's snapshot API is private (`_makeSnapshot`, `makeMemorySnapshot`,
// `_loadSnapshot`); it was verified against the pinned package-lock version (see
// course_build/snapshot.py), and the worker falls back to a normal boot on any failure.
// The file's format: snapshot-format.mjs.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { importCourse } from "./interpreter.mjs";
import { pack } from "./snapshot-format.mjs";

async function main([pyodideDir, filesPath, output]) {
  const started = performance.now();
  const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  // `_sysExecutable` as in a browser (Node would put this script's path in sys.executable
  // and in os.environ["_"])
  const pyodide = await loadPyodide({
    indexURL: `${resolve(pyodideDir)}/`, _makeSnapshot: true, _sysExecutable: "./this.program",
  });
  if (filesPath !== "-") importCourse(pyodide, JSON.parse(readFileSync(filesPath, "utf8"))); // "-": Pyodide alone, for the benchmarks
  const memory = pyodide.makeMemorySnapshot();
  const body = pack(memory);
  writeFileSync(output, gzipSync(body, { level: 6 }));
  console.log(JSON.stringify({ memory: memory.length, body: body.length,
    seconds: Math.round(performance.now() - started) / 1000 }));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
