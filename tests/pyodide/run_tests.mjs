// Run plain-assert Python test modules inside Pyodide under Node.
// Usage: node tests/pyodide/run_tests.mjs tests.portable.test_engine_portable [...]
// Prints one JSON object: {python, results: [{name, ok, error, seconds}]}.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGES = ["engine", "exercises", "tests/portable"];

function* pythonFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "__pycache__") continue;
    if (statSync(path).isDirectory()) yield* pythonFiles(path);
    else if (/\.(py|toml|md|json)$/.test(name)) yield path;
  }
}

const pyodide = await loadPyodide();
const home = "/home/pyodide";
for (const pkg of PACKAGES) {
  for (const file of pythonFiles(join(root, pkg))) {
    const target = join(home, relative(root, file));
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, readFileSync(file));
  }
}
pyodide.FS.writeFile(join(home, "tests/__init__.py"), "");

pyodide.globals.set("MODULES", pyodide.toPy(process.argv.slice(2)));
const out = pyodide.runPython(`
import importlib, json, sys, time, traceback
sys.path.insert(0, "/home/pyodide")
results = []
for module_name in MODULES:
    module = importlib.import_module(module_name)
    for name in sorted(n for n in dir(module) if n.startswith("test_")):
        start = time.perf_counter()
        try:
            getattr(module, name)()
            results.append({"name": f"{module_name}::{name}", "ok": True, "error": ""})
        except BaseException:
            results.append({"name": f"{module_name}::{name}", "ok": False,
                            "error": traceback.format_exc(limit=-4)})
        results[-1]["seconds"] = round(time.perf_counter() - start, 3)
json.dumps({"python": sys.version, "results": results})
`);
console.log(out);
