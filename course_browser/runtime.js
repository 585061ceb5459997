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
  instance.assetsBase = config.base;
  instance.exercisesBase = config.exercisesBase;
  globalThis.__coursePython = instance; // early.js looks here, not to start a second worker
  showState(instance);
  return instance;
}

/** Python's state (idle, loading, ready, failed) as `data-python` on the page's root:
 * what every exercise's status line says in words ("Loading Python…"), in a form that
 * a script driving the page (a test, a benchmark) can wait on. */
function showState(rt) {
  const root = document.documentElement;
  root.dataset.python = rt.state;
  rt.addEventListener("state", ({ detail }) => { root.dataset.python = detail.state; });
}

/** Start Python as soon as the browser is idle, not at the first click. */
export function startWhenIdle() {
  const rt = python();
  if (!rt || rt.worker) return;
  const go = () => rt.start();
  if ("requestIdleCallback" in globalThis) requestIdleCallback(go, { timeout: 500 });
  else setTimeout(go, 50);
}

/** For a widget whose inputs keep changing: a function that calls the worker and
 * resolves with the result of the newest request only (null for one overtaken by a
 * later one), writing `waiting` into `status` while the lab's Python is still loading. */
export function latestCall(status, waiting) {
  let ticket = 0;
  return async (fn, args) => {
    const mine = ++ticket;
    const rt = python();
    if (!rt.labBooted) status.textContent = waiting;
    const result = await rt.labCall(fn, args, { timeoutMs: 5000 });
    return mine === ticket ? result : null;
  };
}
