// The single Python runtime of the visit, configured from the page's
// <meta name="course-runtime"> (written by the MkDocs plugin).
import { readConfig } from "./launch.js";
import { PythonRuntime } from "./python.js";

let instance = null;

export function python() {
  if (instance) return instance;
  const config = readConfig();
  if (!config) return null;
  instance = new PythonRuntime(config);
  instance.watchdogSeconds = config.watchdogSeconds;
  instance.assetsBase = config.base;
  instance.exercisesBase = config.exercisesBase;
  globalThis.__coursePython = instance; // for tests and benchmarks
  return instance;
}

/** Start Python as soon as the browser is idle, not at the first click. */
export function startWhenIdle() {
  const rt = python();
  if (!rt || rt.worker) return;
  const go = () => rt.start();
  if ("requestIdleCallback" in globalThis) requestIdleCallback(go, { timeout: 500 });
  else setTimeout(go, 50);
}
