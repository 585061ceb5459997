// Inlined into the <head> of pages with code or a lab (built as a tiny classic
// script), so Python starts right after the first paint, while the page is still
// loading: Pyodide's download and compile, in the worker, overlap the theme's and
// the course's scripts instead of following them. The runtime (python.js) adopts
// this worker when it starts.
import { launchWorker, readConfig } from "./launch.js";

// It waits for the first frame, so the first paint does not share the CPU with
// Pyodide's compile (on two cores it would); the runtime starts the worker itself
// if it gets there first, as in a background tab, where frames wait.
function launch() {
  if (globalThis.__courseEarlyPython || globalThis.__coursePython?.worker) return;
  const config = readConfig();
  if (config) globalThis.__courseEarlyPython = launchWorker(config);
}

requestAnimationFrame(() => setTimeout(launch, 0));
