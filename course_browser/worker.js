// One Python interpreter in a module Web Worker. The page starts one per run of
// learner code (role "runner") and throws it away afterwards, and one for the labs
// (role "lab"); see python.js.
//
// Protocol (main -> worker):
//   {type: "boot", role, pyodideUrl, filesUrls, snapshot?: {url, bodyUrl, sha256, bodySha256, size, emptyZipUrl}, seed?}
//   {type: "call", id, fn, args, given?}  fn is a function of runner.api (or labs.api);
//                                         given: {path: text}, the files the exercise gives
//   {type: "keep", memory?, port?}  a seed keeper, which boots no Python: keeps the seed's
//        memory (transferred to it once), and sends a copy down each port it is handed;
//        a boot's seed then carries that port instead of the memory (launch.js)
// Worker -> main:
//   {type: "progress", text}  {type: "ready", seconds, discardAfter?}  {type: "boot-failed", error}
//        discardAfter (the lab interpreter): its functions that run the learner's saved
//        code (labs.api.DISCARD_AFTER), read before any call; the page ends it after one
//   {type: "seed", module, memory, files}   the first interpreter's compiled WebAssembly
//        module, its pristine snapshot memory and course files, sent before it is ready,
//        so later interpreters skip the download, the inflate and the compile
//   {type: "started", id}  {type: "result", id, ok, result | error, fatal}
//   {type: "snapshot-rejected", reason}   the build's snapshot was not used: "missing",
//                                         "hash", "base" or "load"; the worker boots normally
//   {type: "keeper-silent"}   the seed's keeper sent no memory: this boot reads the
//                             build's snapshot instead, and later ones should too
//
// Once Python is up, the worker drops every power learner code could abuse if it
// ever reached this JavaScript (see dropPowers): no network, no storage, no new code.
//
// The message handler is installed synchronously, before anything is awaited:
// a module worker drops messages that arrive before `onmessage` exists.

import { AFTER_RESTORE, importCourse, writeFiles } from "./interpreter.mjs";
import { restoreFromSnapshot } from "./snapshot-fetch.mjs";
import { fetchStdlibWhenRead } from "./stdlib.mjs";

const post = self.postMessage.bind(self); // captured before any learner code can touch it
let booting = null;
let api = null;
// runner.guard's hide()/unhide(): held here only, never in a Python namespace, so
// learner code can't call them (see runner/guard.py).
let guard = null;
let pyodide = null;
const ENTRY = { runner: "runner.api", lab: "labs.api" };

// Pyodide can die under learner code (os._exit, a broken runtime). Report it once;
// the page then discards this worker.
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
  else if (msg.type === "keep") keep(msg);
};

// A seed keeper's memory. postMessage copies what it sends on the sending thread: here,
// for each new interpreter, rather than on the page's main thread (31 MB, which held it
// for 100-250 ms on a busy 2-core machine, often just as a verdict was due).
let kept = null;
function keep({ memory, port }) {
  if (memory) kept = memory;
  if (port) {
    port.postMessage(kept);
    port.close();
  }
}

/** The seed's memory, from the keeper's port; null from a keeper that has not answered
 * within KEEPER_WAIT_MS (it answers at once unless it is gone: the boot then restores the
 * build's snapshot file, as the first interpreter did, and tells the page). */
const KEEPER_WAIT_MS = 5000;
function memoryFrom(port) {
  return new Promise((resolve) => {
    const silent = setTimeout(() => {
      port.close();
      post({ type: "keeper-silent" });
      resolve(null);
    }, KEEPER_WAIT_MS);
    port.onmessage = ({ data }) => {
      clearTimeout(silent);
      port.close();
      resolve(data);
    };
  });
}

/** Where Pyodide instantiates its wasm: from the module the page handed over (compiled
 * once for the visit; V8 shares its code, lazily compiled and optimised functions
 * included, between the workers that instantiate it), or compiled here and kept for
 * the seed. Pyodide's loader has no option for a compiled module; it calls
 * `WebAssembly.instantiateStreaming` on its fetch of pyodide.asm.wasm. */
function useWasmModule(seedModule) {
  const kept = { module: seedModule };
  const compile = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (kept.module) {
      Promise.resolve(source).then((r) => r.body?.cancel()).catch(() => {});
      return { module: kept.module, instance: await WebAssembly.instantiate(kept.module, imports) };
    }
    const compiled = await compile(source, imports);
    kept.module = compiled.module;
    return compiled;
  };
  return kept;
}

/** Python from the snapshot: the seed's copy of its memory, or the build's file
 * (checked against the hash the page carries); otherwise, or when restoring fails,
 * a normal boot. */
async function startPython(loadPyodide, indexURL, snapshot, seed, emptyZipUrl) {
  const restore = seed?.memory ? { options: { _loadSnapshot: new Uint8Array(seed.memory) },
    checked: Promise.resolve({}), waited: 0 } : snapshot ? restoreFromSnapshot(snapshot) : null;
  if (restore) {
    try {
      const stdlib = emptyZipUrl ? { stdLibURL: emptyZipUrl } : {};
      const py = await loadPyodide({ indexURL, ...stdlib, ...restore.options });
      const timings = await restore.checked;
      if (emptyZipUrl) fetchStdlibWhenRead(py, new URL("python_stdlib.zip", indexURL).href);
      py.runPython(AFTER_RESTORE);
      return { py, mode: seed ? "seeded" : "snapshot", memory: restore.options._loadSnapshot,
        timings: { ...timings, snapshotWaited: restore.waited, snapshotBase: restore.based } };
    } catch (error) {
      const reason = restore.refused ? "base"
        : await restore.checked.then(() => "load", (failure) => failure.snapshotRejected || "load");
      post({ type: "snapshot-rejected", reason, detail: String(error?.message || error) });
    }
  }
  const py = await loadPyodide({ indexURL });
  return { py, mode: restore ? "fallback" : "normal", memory: null, timings: {} };
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

async function fetchFiles(urls) {
  const parts = await Promise.all(urls.map((url) => fetch(url).then((r) => {
    if (!r.ok) throw new Error(`course files: HTTP ${r.status}`);
    return r.json();
  })));
  return Object.assign({}, ...parts);
}

/** A Python list of text as a JavaScript array, its proxy released. */
function listOf(proxy) {
  try {
    return proxy.toJs();
  } finally {
    proxy.destroy();
  }
}

async function boot({ role = "runner", pyodideUrl, filesUrls, snapshot, seed }) {
  const started = performance.now();
  try {
    post({ type: "progress", text: "Loading Python…" });
    const indexURL = new URL(".", pyodideUrl).href;
    const wasm = useWasmModule(seed?.module || null);
    // all at once: Pyodide's loader and its 1.2 MB runtime script (which loadPyodide would
    // start to import only after its own set-up; it then finds the same module, loaded
    // or on its way), the course files
    import(new URL("pyodide.asm.mjs", indexURL).href).catch(() => {}); // loadPyodide reports a failure
    const [{ loadPyodide }, files, memory] = await Promise.all([
      import(pyodideUrl),
      seed?.files ? seed.files : fetchFiles(filesUrls),
      seed?.port ? memoryFrom(seed.port) : null,
    ]);
    const fetched = performance.now();
    const seeded = memory ? { memory } : null;
    const booted = await startPython(loadPyodide, indexURL, seeded ? null : snapshot, seeded, snapshot?.emptyZipUrl);
    pyodide = booted.py;
    const loaded = performance.now();
    api = importCourse(pyodide, files, ENTRY[role] || ENTRY.runner);
    if (!seed && booted.memory && role === "runner") {
      // the pristine memory (Pyodide copied it into its own), handed over rather than kept:
      // sent before any call, so nothing learner code does can change what later
      // interpreters start from
      post({ type: "seed", module: wasm.module, memory: booted.memory.buffer, files }, [booted.memory.buffer]);
    } else {
      booted.memory?.buffer.transfer?.(0); // Pyodide keeps the bytes in its config: 31 MB for nothing
    }
    pyodide.setStdout({ write: (buf) => buf.length });
    pyodide.setStderr({ write: (buf) => buf.length });
    // armed here, after either boot: the pair of functions lives only in this worker
    const [hide, unhide] = pyodide.pyimport("runner.guard").arm().toJs();
    guard = { hide, unhide };
    const kept = dropPowers();
    const done = performance.now();
    const seconds = (done - started) / 1000;
    const timings = { importPyodideAndFiles: fetched - started, loadPyodide: loaded - fetched,
      courseAndGuard: done - loaded, ...booted.timings };
    const discardAfter = role === "lab" ? listOf(api.DISCARD_AFTER) : undefined;
    post({ type: "ready", seconds, timings, mode: booted.mode, kept, discardAfter });
  } catch (error) {
    post({ type: "boot-failed", error: String(error?.message || error) });
    throw error;
  }
}

async function handleCall({ id, fn, args, given }) {
  try {
    await booting;
  } catch {
    post({ type: "result", id, ok: false, error: "Python could not start.", fatal: true });
    return;
  }
  post({ type: "started", id });
  try {
    if (given) writeFiles(pyodide, given); // what the exercise gives: files only, imported by the learner's code
    let json;
    guard.hide(); // the bridge leaves the interpreter for the length of the call
    try {
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
