// The course's one Python: Pyodide in a module Web Worker, for the whole visit.
//
// Protocol (main -> worker):
//   {type: "boot", pyodideUrl, zipUrl, interruptBuffer?, snapshot?: {url, sha256, bodySha256}}
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
import { unpack } from "./snapshot-format.mjs";

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

// The build's memory snapshot (course_build/snapshot.py, made by snapshot.mjs): the
// interpreter with the course imported, restored through Pyodide's private
// `_loadSnapshot` instead of a normal boot. The page sends the file's SHA-256, built
// into its HTML; the worker restores only bytes that match, and boots normally when
// the file is missing, altered, or refused by Pyodide (another build, say).

/** Why the snapshot could not be used: "missing" | "hash" | "load" (see boot). */
function rejected(reason) {
  return Object.assign(new Error(`snapshot ${reason}`), { snapshotRejected: reason });
}

/** Fetch, check and unpack the snapshot: its memory, and what each step cost (ms). */
async function fetchSnapshot({ url, sha256, bodySha256 }) {
  const started = performance.now();
  let bytes;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch {
    throw rejected("missing");
  }
  const fetched = performance.now();
  // A host that sends the file with Content-Encoding: gzip hands over the body itself.
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  if ((await sha256Hex(bytes)) !== (gzipped ? sha256 : bodySha256)) throw rejected("hash");
  const hashed = performance.now();
  const body = gzipped ? await gunzip(bytes) : bytes;
  const inflated = performance.now();
  const memory = unpack(body);
  const timings = { snapshotFetch: fetched - started, snapshotHash: hashed - fetched,
    ...(gzipped ? { snapshotInflate: inflated - hashed } : {}), snapshotUnpack: performance.now() - inflated };
  return { memory, timings };
}

/** Inflate in one pass into a buffer of the size gzip records (ISIZE, its last four
 * bytes): no list of chunks to join afterwards. */
async function gunzip(bytes) {
  const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 4, true);
  const stream = new DecompressionStream("gzip");
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {}); // a failure surfaces in read() below
  writer.close().catch(() => {});
  const body = new Uint8Array(size);
  const reader = stream.readable.getReader();
  let at = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    body.set(chunk.value, at); // throws past the recorded size
    at += chunk.value.length;
  }
  if (at !== size) throw new Error("snapshot: inflated size differs from the recorded one");
  return body;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Python with the course imported: from the snapshot when there is one that
 * checks out, otherwise (or when restoring it fails) by a normal boot. */
async function startPython(loadPyodide, indexURL, zip, snapshot) {
  if (snapshot) {
    try {
      // a promise: Pyodide fetches its wasm meanwhile, and waits for the memory only to instantiate it
      const memory = snapshot.then((found) => found.memory);
      memory.catch(() => {}); // a rejection is handled below, once Pyodide has awaited it
      const py = await loadPyodide({ indexURL, _loadSnapshot: memory });
      // Pyodide copied the bytes into its own memory but keeps the promise in its config:
      // detach them, or 31 MB stay allocated for the whole visit
      (await memory).buffer.transfer?.(0);
      const api = importCourse(py, zip); // the files again (a snapshot holds memory only); imports are done
      py.runPython(AFTER_RESTORE);
      return { py, api, mode: "snapshot", timings: await snapshot.then(({ timings }) => timings) };
    } catch (error) {
      post({ type: "snapshot-rejected", reason: error?.snapshotRejected || "load", detail: String(error?.message || error) });
    }
  }
  const py = await loadPyodide({ indexURL });
  return { py, api: importCourse(py, zip), mode: snapshot ? "fallback" : "normal", timings: {} };
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

async function boot({ pyodideUrl, zipUrl, interruptBuffer, snapshot }) {
  const started = performance.now();
  try {
    post({ type: "progress", text: "Loading Python…" });
    const indexURL = new URL(".", pyodideUrl).href;
    // all three at once: Pyodide's loader, the course files, the snapshot
    const snapshotLookup = snapshot ? fetchSnapshot(snapshot) : null;
    snapshotLookup?.catch(() => {}); // handled in startPython, not an unhandled rejection
    const [{ loadPyodide }, zip] = await Promise.all([
      import(pyodideUrl),
      fetch(zipUrl).then((r) => {
        if (!r.ok) throw new Error(`course files: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    const fetched = performance.now();
    const booted = await startPython(loadPyodide, indexURL, zip, snapshotLookup);
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
