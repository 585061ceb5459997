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
import { instanceBase, pack, restoreOptions, sha256Hex } from "./snapshot-format.mjs";

// Fills every free chunk malloc can hand out with a zeroed bytearray, then frees them all.
const ZERO_FILL = `def _zero_fill():
    held = []
    for size in (1 << 20, 1 << 16, 1 << 12, 1 << 10, 600):
        try:
            while True:
                held.append(bytearray(size))
        except MemoryError:
            pass
_zero_fill()
del _zero_fill`;

/** Zero the memory malloc holds free. Freed memory keeps its old bytes, garbage that the
 * snapshot would carry and that compresses poorly: zeroed, the packed body went from
 * 14.7 to 11.9 MB and its gzip from 6.2 to 5.2 MB. While Python fills, malloc is held to
 * its footprint, so that the fill takes free memory only and the memory never grows. */
function zeroFreeMemory(pyodide) {
  const module = pyodide._module;
  module._malloc_set_footprint_limit(module._malloc_footprint());
  try {
    pyodide.runPython(ZERO_FILL);
  } finally {
    module._malloc_set_footprint_limit(0xffffffff); // SIZE_MAX on wasm32: no limit, as before
  }
}

/** What a new instance's memory holds as it is made (its data segments, zeros after
 * them), up to its last non-zero byte. */
function trimmed(bytes) {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  return bytes.subarray(0, end);
}

/** Restore `body` in a second interpreter, as the worker does, and compare the memory
 * handed to Pyodide with the one the snapshot was made from, byte for byte: a base that
 * a restoring boot would not find as the build did fails the build here, not a visitor. */
async function proveRestore(loadPyodide, indexURL, body, memory) {
  const { options, done } = restoreOptions(body);
  await loadPyodide({ indexURL, ...options });
  const restored = await done;
  if (restored.length !== memory.length || Buffer.compare(restored, memory) !== 0) {
    throw new Error("the packed snapshot does not restore to the memory it was made from");
  }
}

async function main([pyodideDir, filesPath, output]) {
  const started = performance.now();
  const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
  const indexURL = `${resolve(pyodideDir)}/`;
  const instance = instanceBase();
  // `_sysExecutable` as in a browser (Node would put this script's path in sys.executable
  // and in os.environ["_"])
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, _sysExecutable: "./this.program" });
  const base = trimmed(instance().bytes);
  if (filesPath !== "-") importCourse(pyodide, JSON.parse(readFileSync(filesPath, "utf8"))); // "-": Pyodide alone, for the benchmarks
  zeroFreeMemory(pyodide);
  const memory = pyodide.makeMemorySnapshot();
  // the memory proper starts after Pyodide's own header, whose length is its second word
  const at = new DataView(memory.buffer, memory.byteOffset).getUint32(4, true);
  const body = pack(memory, { at, bytes: base }, await sha256Hex(base));
  await proveRestore(loadPyodide, indexURL, body, memory);
  writeFileSync(output, gzipSync(body, { level: 6 }));
  console.log(JSON.stringify({ memory: memory.length, body: body.length, base: base.length,
    seconds: Math.round(performance.now() - started) / 1000 }));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
