// Run plain-assert Python test modules inside Pyodide under Node, the way the
// browser's worker runs Python: runner.guard armed, and every call wrapped in
// its hide()/unhide() and the sandbox's sealed restore (see worker.js).
// Usage: node tests/pyodide/run_tests.mjs tests.portable.test_engine_portable [...]
// Prints one JSON object: {python, results: [{name, ok, error, seconds}]}.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["engine", "labs", "grader", "runner", "exercises", "tests/portable", "tests/grading"];

function* courseFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "__pycache__") continue;
    if (statSync(path).isDirectory()) yield* courseFiles(path);
    else if (/\.(py|toml|md|json)$/.test(name)) yield path;
  }
}

const pyodide = await loadPyodide();
const home = "/home/pyodide";
for (const pkg of PACKAGES) {
  for (const file of courseFiles(join(root, pkg))) {
    const target = join(home, relative(root, file));
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(file));
  }
}
pyodide.FS.writeFile(join(home, "tests/__init__.py"), "");

const listTests = pyodide.runPython(`
import importlib, sys
sys.path.insert(0, "/home/pyodide")
import runner.api  # what the worker imports before it arms the guard

def list_tests(modules):
    found = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        found += [(f"{module_name}::{n}", getattr(module, n)) for n in sorted(dir(module)) if n.startswith("test_")]
    return found
list_tests
`);
const tests = listTests(pyodide.toPy(process.argv.slice(2))).toJs();
const [hide, unhide] = pyodide.pyimport("runner.guard").arm().toJs();
const restore = pyodide.pyimport("runner.sandbox").new_restore();
const results = [];
for (const [name, fn] of tests) {
  const start = performance.now();
  hide();
  try {
    restore();
    fn();
    results.push({ name, ok: true, error: "" });
  } catch (error) {
    results.push({ name, ok: false, error: String(error.message || error).slice(-3000) });
  } finally {
    unhide();
  }
  results[results.length - 1].seconds = Math.round(performance.now() - start) / 1000;
}
const python = pyodide.runPython("import sys; sys.version");
console.log(JSON.stringify({ python, results }));
