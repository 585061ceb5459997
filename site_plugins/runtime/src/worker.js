// The course's one Python: Pyodide in a module Web Worker, for the whole visit.
//
// Protocol (main -> worker):
//   {type: "boot", pyodideUrl, zipUrl, interruptBuffer?}
//   {type: "call", id, fn, args}       fn is a function of exercises.worker_api
// Worker -> main:
//   {type: "progress", text}  {type: "ready", seconds}  {type: "boot-failed", error}
//   {type: "started", id}  {type: "result", id, ok, result | error, fatal}
//
// The message handler is installed synchronously, before anything is awaited:
// a module worker drops messages that arrive before `onmessage` exists.

const post = self.postMessage.bind(self); // captured before any learner code can touch it
let booting = null;
let api = null;
// grader.guard's hide()/unhide() and grader.sandbox's sealed restore: held here only,
// never in a Python namespace, so learner code can't call them (see grader/guard.py).
let guard = null;
let pyodide = null;

// Pyodide can die under learner code (os._exit, a broken runtime). Report it once;
// the page then replaces this worker.
let reportedFatal = false;
function fatal(event) {
  event.preventDefault();
  if (!reportedFatal && api) post({ type: "fatal", error: String(event.reason || event.message || "") });
  reportedFatal = true;
}
self.addEventListener("error", fatal);
self.addEventListener("unhandledrejection", fatal);

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "boot") booting = booting || boot(msg);
  else if (msg.type === "call") handleCall(msg);
};

// Pyodide's memory snapshot (a private API, so it may change between releases):
// the first visit boots normally and saves a snapshot of the fresh interpreter in
// Cache Storage; later visits restore it, several times faster. Any failure falls
// back to the normal boot and drops the snapshot.
const SNAPSHOT_CACHE = "byoa-python-snapshot";

async function savedSnapshot(key) {
  try {
    const response = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function saveSnapshot(key, bytes) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(key, new Response(bytes));
    post({ type: "snapshot-saved", bytes: bytes.length });
  } catch { /* storage full or unavailable: the next visit boots normally */ }
}

async function startPython(loadPyodide, indexURL, snapshotLookup) {
  const snapshot = await snapshotLookup;
  if (snapshot) {
    try {
      return { py: await loadPyodide({ indexURL, _loadSnapshot: snapshot }), mode: "snapshot" };
    } catch {
      await caches.delete(SNAPSHOT_CACHE).catch(() => {});
      return { py: await loadPyodide({ indexURL }), mode: "fallback" };
    }
  }
  if (snapshotLookup === null) return { py: await loadPyodide({ indexURL }), mode: "normal" };
  const py = await loadPyodide({ indexURL, _makeSnapshot: true });
  return { py, mode: "normal", snapshot: py.makeMemorySnapshot() };
}

async function boot({ pyodideUrl, zipUrl, interruptBuffer, useSnapshot }) {
  const started = performance.now();
  try {
    post({ type: "progress", text: "Loading Python…" });
    const indexURL = new URL(".", pyodideUrl).href;
    const snapshotKey = new URL("snapshot.bin", indexURL).href;
    // all three at once: Pyodide's loader, the course files, a saved snapshot
    const snapshotLookup = useSnapshot ? savedSnapshot(snapshotKey) : null;
    const [{ loadPyodide }, zip] = await Promise.all([
      import(pyodideUrl),
      fetch(zipUrl).then((r) => {
        if (!r.ok) throw new Error(`course files: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    const fetched = performance.now();
    const booted = await startPython(loadPyodide, indexURL, snapshotLookup);
    pyodide = booted.py;
    const loaded = performance.now();
    post({ type: "progress", text: "Preparing the course…" });
    pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/course" });
    if (interruptBuffer) pyodide.setInterruptBuffer(new Uint8Array(interruptBuffer));
    pyodide.setStdout({ write: (buf) => buf.length });
    pyodide.setStderr({ write: (buf) => buf.length });
    pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/course')");
    api = pyodide.pyimport("grader.worker_api");
    const [hide, unhide] = pyodide.pyimport("grader.guard").arm().toJs();
    guard = { hide, unhide, restore: pyodide.pyimport("grader.sandbox").new_restore() };
    const done = performance.now();
    const seconds = (done - started) / 1000;
    const timings = { importPyodideAndZip: fetched - started, loadPyodide: loaded - fetched, unpackAndImport: done - loaded };
    post({ type: "ready", seconds, timings, mode: booted.mode, isolated: !!interruptBuffer });
    // Writing 30 MB to Cache Storage is heavy: only once Python is ready, and after
    // the calls already waiting (a Check, the warm-up) have had their turn.
    if (booted.snapshot) setTimeout(() => saveSnapshot(snapshotKey, booted.snapshot), 2000);
  } catch (error) {
    post({ type: "boot-failed", error: String(error && error.message || error) });
    throw error;
  }
}

async function handleCall({ id, fn, args }) {
  try {
    await booting;
  } catch {
    post({ type: "result", id, ok: false, error: "Python could not start.", fatal: true });
    return;
  }
  post({ type: "started", id });
  try {
    let json;
    guard.hide(); // the bridge leaves the interpreter for the length of the call
    try {
      guard.restore(); // whatever an earlier run left behind goes first
      json = api.call(fn, JSON.stringify(args || []));
    } finally {
      guard.unhide();
    }
    post({ type: "result", id, ok: true, result: JSON.parse(json) });
  } catch (error) {
    const pythonError = pyodide && error instanceof pyodide.ffi.PythonError;
    if (!pythonError) reportedFatal = true;
    post({ type: "result", id, ok: false, error: String(error && error.message || error), fatal: !pythonError });
  }
}
