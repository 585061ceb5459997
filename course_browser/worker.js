// The course's one Python: Pyodide in a module Web Worker, for the whole visit.
//
// Protocol (main -> worker):
//   {type: "boot", pyodideUrl, zipUrl, interruptBuffer?, useSnapshot, snapshotHash?}
//   {type: "call", id, fn, args}       fn is a function of grader.worker_api
//   {type: "make-snapshot", pyodideUrl}   this worker only makes a snapshot, then idles
// Worker -> main:
//   {type: "progress", text}  {type: "ready", seconds}  {type: "boot-failed", error}
//   {type: "started", id}  {type: "result", id, ok, result | error, fatal}
//   {type: "snapshot", key, bytes}   from a make-snapshot worker: a fresh interpreter's
//                               memory (the ArrayBuffer is transferred); no course file and
//                               no learner code ever ran in that worker
//   {type: "snapshot-rejected", reason}   the cached snapshot failed its check
//
// Once Python is up, the worker drops every power learner code could abuse if it
// ever reached this JavaScript (see dropPowers): no network, no storage, no new code.
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
  else if (msg.type === "make-snapshot") booting = booting || makeSnapshot(msg);
  else if (msg.type === "call") handleCall(msg);
};

// Pyodide's memory snapshot (a private API, so it may change between releases):
// the first visit boots normally; once the page is idle, a second, short-lived worker
// boots a fresh interpreter only to snapshot it (no course files, no learner code,
// and nothing of it on the first Check's path) and hands the bytes to the page. The page hashes
// them and keeps bytes (Cache Storage) and hash (localStorage, which a worker can't
// reach) apart; a later visit sends the hash with the boot message and the worker
// restores only bytes that match it. Any failure falls back to the normal boot.
const SNAPSHOT_CACHE = "byoa-python-snapshot";

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The cached snapshot if its SHA-256 is `expected`: {bytes} | {rejected} | null (none). */
async function savedSnapshot(key, expected) {
  try {
    if (!expected) return null; // no hash from the page: nothing can be trusted
    const response = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    if (!response) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const started = performance.now();
    if (await sha256(bytes) !== expected) return { rejected: "hash" };
    return { bytes, hashMs: performance.now() - started };
  } catch {
    return null;
  }
}

async function startPython(loadPyodide, indexURL, snapshotLookup) {
  const found = await snapshotLookup;
  if (found?.bytes) {
    try {
      return { py: await loadPyodide({ indexURL, _loadSnapshot: found.bytes }), mode: "snapshot", hashMs: found.hashMs };
    } catch {
      post({ type: "snapshot-rejected", reason: "load" });
      return { py: await loadPyodide({ indexURL }), mode: "fallback" };
    }
  }
  if (found?.rejected) {
    post({ type: "snapshot-rejected", reason: found.rejected });
    return { py: await loadPyodide({ indexURL }), mode: "fallback" };
  }
  return { py: await loadPyodide({ indexURL }), mode: "normal" };
}

/** The whole life of a make-snapshot worker: boot, snapshot, hand the bytes over. */
async function makeSnapshot({ pyodideUrl }) {
  try {
    const indexURL = new URL(".", pyodideUrl).href;
    const { loadPyodide } = await import(pyodideUrl);
    const bytes = (await loadPyodide({ indexURL, _makeSnapshot: true })).makeMemorySnapshot();
    const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer : bytes.slice().buffer;
    post({ type: "snapshot", key: new URL("snapshot.bin", indexURL).href, bytes: buffer }, [buffer]);
  } catch (error) {
    post({ type: "boot-failed", error: String(error?.message || error) });
  }
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

async function boot({ pyodideUrl, zipUrl, interruptBuffer, useSnapshot, snapshotHash }) {
  const started = performance.now();
  try {
    post({ type: "progress", text: "Loading Python…" });
    const indexURL = new URL(".", pyodideUrl).href;
    const snapshotKey = new URL("snapshot.bin", indexURL).href;
    // all three at once: Pyodide's loader, the course files, a saved snapshot
    const snapshotLookup = useSnapshot ? savedSnapshot(snapshotKey, snapshotHash) : null;
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
    const kept = dropPowers();
    const done = performance.now();
    const seconds = (done - started) / 1000;
    const timings = { importPyodideAndZip: fetched - started, loadPyodide: loaded - fetched,
      unpackAndImport: done - loaded, snapshotHash: booted.hashMs || 0 };
    post({ type: "ready", seconds, timings, mode: booted.mode, isolated: !!interruptBuffer, kept });
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
