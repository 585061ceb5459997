// The single Python runtime of the visit, configured from the page's
// <meta name="course-runtime"> (written by the MkDocs plugin).
import { PythonRuntime } from "./python.js";

let instance = null;

export function python() {
  if (instance) return instance;
  const meta = document.querySelector('meta[name="course-runtime"]');
  const config = meta ? JSON.parse(meta.content) : null;
  if (!config) return null;
  // The bundle's own folder, from the <script> tag of course.*.js (this module may sit in a chunk).
  const script = document.querySelector('script[src*="assets/course/course."]');
  const base = new URL(".", script ? script.src : import.meta.url);
  instance = new PythonRuntime({
    workerUrl: new URL(config.worker, base).href,
    pyodideUrl: new URL(config.pyodide, base).href,
    zipUrl: new URL(config.zip, base).href,
    useSnapshot: !!config.snapshot && typeof caches !== "undefined",
  });
  instance.watchdogSeconds = config.watchdogSeconds;
  instance.assetsBase = base;
  instance.exercisesBase = new URL(`${config.exercises}/`, base);
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
