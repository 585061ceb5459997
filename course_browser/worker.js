// The course's one Python: Pyodide in a module Web Worker, for the whole visit.
//
// Protocol (main -> worker):
//   {type: "boot", pyodideUrl, filesUrl, interruptBuffer?, snapshot?: {url, sha256, bodySha256, size}}
//   {type: "call", id, fn, args}       fn is a function of grader.worker_api
// Worker -> main:
//   {type: "progress", text}  {type: "ready", seconds}  {type: "boot-failed", error}
//   {type: "started", id}  {type: "result", id, ok, result | error, fatal}
//   {type: "snapshot-rejected", reason}   the build's snapshot was not used: "missing",
//                                         "hash" or "load"; the worker boots normally
//
// Once Python is up, the worker drops every power learner code could abuse if it
// ever reached this JavaScript (see dropPowers): no network, no storage, no new code.
//
// The message handler is installed synchronously, before anything is awaited:
// a module worker drops messages that arrive before `onmessage` exists.

import { AFTER_RESTORE, importCourse } from "./interpreter.mjs";
import { restoreFromSnapshot } from "./snapshot-fetch.mjs";

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
  if (!api) return; // while booting: boot() reports its own failure, and a failed snapshot restore is retried
  if (!reportedFatal) post({ type: "fatal", error: String(event.reason || event.message || "") });
  reportedFatal = true;
}
self.addEventListener("error", fatal);
self.addEventListener("unhandledrejection", fatal);

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "boot") booting = booting || boot(msg);
  else if (msg.type === "call") handleCall(msg);
};

/** Python with the course imported: from the snapshot when there is one that
 * checks out, otherwise (or when restoring it fails) by a normal boot. */
async function startPython(loadPyodide, indexURL, files, restore) {
  if (restore) {
    try {
      const py = await loadPyodide({ indexURL, ...restore.options });
      const restored = performance.now();
      // Pyodide copied the bytes into its own memory but keeps them in its config:
      // detach them, or 31 MB stay allocated for the whole visit
      restore.options._loadSnapshot.buffer.transfer?.(0);
      const api = importCourse(py, files); // the files again (a snapshot holds memory only); imports are done
      py.runPython(AFTER_RESTORE);
      const timings = await restore.checked;
      return { py, api, mode: "snapshot",
        timings: { ...timings, snapshotWaited: restore.waited, courseFiles: performance.now() - restored } };
    } catch (error) {
      const reason = await restore.checked.then(() => "load", (failure) => failure.snapshotRejected || "load");
      post({ type: "snapshot-rejected", reason, detail: String(error?.message || error) });
    }
  }
  const py = await loadPyodide({ indexURL });
  return { py, api: importCourse(py, files), mode: restore ? "fallback" : "normal", timings: {} };
}

// What reaches storage, the network or new code. Deleted from the worker's global
// scope and from every prototype it inherits from, once Python is up: learner code
// that got hold of this JavaScript then finds nothing to persist or send with.
// (Dynamic import() can't be deleted: the CSP and the service worker cover it.)
const POWERS = ["fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "EventSource", "WebTransport",
  "caches", "CacheStorage", "Cache", "indexedDB", "IDBFactory", "importScripts", "Worker", "SharedWorker",
  "BroadcastChannel", "FontFace", "fonts", "FontFaceSet", "cookieStore", "CookieStore", "StorageManager",
  "LockManager", "StorageBucketManager", "FileSystemHandle", "FileSystemDirectoryHandle",
  "FileSystemFileHandle", "FileSystemSyncAccessHandle", "ServiceWorkerContainer", "Notification"];
const NAVIGATOR_POWERS = ["storage", "locks", "storageBuckets", "serviceWorker", "sendBeacon"];

function deleteEverywhere(object, names) {
  const left = [];
  for (const name of names) {
    for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      if (Object.hasOwn(o, name)) {
        try { delete o[name]; } catch { /* reported below */ }
      }
    }
    if (name in object) left.push(name);
  }
  return left;
}

function dropPowers() {
  const left = deleteEverywhere(self, POWERS);
  if (self.navigator) left.push(...deleteEverywhere(self.navigator, NAVIGATOR_POWERS).map((n) => `navigator.${n}`));
  return left;
}

// A violation of the worker's own Content-Security-Policy (set by the host's headers
// or the service worker): reported, for the tests, never trusted for anything else.
self.addEventListener("securitypolicyviolation", (event) => {
  post({ type: "csp-violation", directive: event.violatedDirective, blocked: String(event.blockedURI || "") });
});

async function boot({ pyodideUrl, filesUrl, interruptBuffer, snapshot }) {
  const started = performance.now();
  try {
    post({ type: "progress", text: "Loading Python…" });
    const indexURL = new URL(".", pyodideUrl).href;
    // all at once: Pyodide's loader and its 1.2 MB runtime script (which loadPyodide would
    // start to import only after its own set-up; it then finds the same module, loaded
    // or on its way), the course files, the snapshot
    import(new URL("pyodide.asm.mjs", indexURL).href).catch(() => {}); // loadPyodide reports a failure
    const restore = snapshot ? restoreFromSnapshot(snapshot) : null;
    const [{ loadPyodide }, files] = await Promise.all([
      import(pyodideUrl),
      fetch(filesUrl).then((r) => {
        if (!r.ok) throw new Error(`course files: HTTP ${r.status}`);
        return r.json();
      }),
    ]);
    const fetched = performance.now();
    const booted = await startPython(loadPyodide, indexURL, files, restore);
    pyodide = booted.py;
    api = booted.api;
    const loaded = performance.now();
    post({ type: "progress", text: "Preparing the course…" });
    if (interruptBuffer) pyodide.setInterruptBuffer(new Uint8Array(interruptBuffer));
    pyodide.setStdout({ write: (buf) => buf.length });
    pyodide.setStderr({ write: (buf) => buf.length });
    // armed and captured here, after either boot: the pair of functions lives only in
    // this worker, and the pristine state is this interpreter's own
    const [hide, unhide] = pyodide.pyimport("grader.guard").arm().toJs();
    guard = { hide, unhide, restore: pyodide.pyimport("grader.sandbox").new_restore() };
    const kept = dropPowers();
    const done = performance.now();
    const seconds = (done - started) / 1000;
    const timings = { importPyodideAndZip: fetched - started, loadPyodideAndCourse: loaded - fetched,
      armAndCapture: done - loaded, ...booted.timings };
    post({ type: "ready", seconds, timings, mode: booted.mode, isolated: !!interruptBuffer, kept,
      snapshotBytes: booted.mode === "snapshot" ? pyodide._module.HEAP8.length : 0 });
  } catch (error) {
    post({ type: "boot-failed", error: String(error?.message || error) });
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
    post({ type: "result", id, ok: false, error: String(error?.message || error), fatal: !pythonError });
  }
}
