// Inlined into the <head> of pages with code or a lab (built as a tiny classic
// script), so Python starts as the page begins to parse: Pyodide's download and
// compile, in the worker, overlap the page's own load instead of following it.
// The runtime (python.js) adopts this worker when it starts.
import { launchWorker, readConfig } from "./launch.js";

if (!globalThis.__courseEarlyPython && !globalThis.__coursePython?.worker) {
  const config = readConfig();
  if (config) globalThis.__courseEarlyPython = launchWorker(config);
}
