// Starting the Python worker, shared by the inline early start (early.js, in the
// <head>) and the runtime (python.js), so both boot it the same way.

/** The runtime's settings from <meta name="course-runtime">, its URLs made absolute. */
export function readConfig() {
  const meta = document.querySelector('meta[name="course-runtime"]');
  if (!meta) return null;
  const config = JSON.parse(meta.content);
  const base = new URL(config.base, location.href);
  return {
    base,
    workerUrl: new URL(config.worker, base).href,
    pyodideUrl: new URL(config.pyodide, base).href,
    filesUrl: new URL(config.files, base).href,
    labsUrl: new URL(config.labs, base).href,
    exercisesBase: new URL(`${config.exercises}/`, base),
    snapshot: snapshotConfig(config.snapshot, base),
  };
}

/** The build's memory snapshot of Python (course_build/snapshot.py): the URLs of its
 * gzip file and of its body, and the SHA-256 of each that the build wrote into this
 * page, the only bytes the worker will restore. A page served by the offline worker
 * gets the gzip file only: that is what the offline worker keeps.
 * None where the worker could not check or inflate it (no SubtleCrypto outside a
 * secure context, no DecompressionStream), and for a visitor who asked the browser to
 * save data (Save-Data): the snapshot halves the boot but adds up to 1.0 MB (as gzip) to
 * the download, net of the standard library zip it leaves out (stdlib.mjs); as Brotli it
 * weighs what that zip does (2.5 MB).
 * Python then boots normally. */
function snapshotConfig(snapshot, base) {
  const usable = snapshot && Number.isSafeInteger(snapshot.size) && snapshot.size > 0
    && globalThis.crypto?.subtle && typeof DecompressionStream === "function"
    && globalThis.navigator?.connection?.saveData !== true;
  if (!usable) return null;
  const offline = Boolean(globalThis.navigator?.serviceWorker?.controller);
  const askBody = snapshot.body && !offline && hostCompresses();
  return { url: new URL(snapshot.file, base).href, bodyUrl: askBody ? new URL(snapshot.body, base).href : null,
    sha256: snapshot.sha256, bodySha256: snapshot.bodySha256, size: snapshot.size,
    emptyZipUrl: snapshot.emptyZip ? new URL(snapshot.emptyZip, base).href : null };
}

/** Whether the host compressed this page on its way, as Navigation Timing tells from the
 * response's headers (before the page has arrived): such a host most likely sends the
 * snapshot's body compressed too (from the build's Brotli copy, or on the fly), and the
 * worker asks for the body first. One that sent the page as it is would send the 8.4 MB
 * body as it is: the worker asks for the gzip file at once. A browser that can't tell
 * (no `contentEncoding`) asks for the body first and drops it at its headers if need be. */
function hostCompresses() {
  const coding = globalThis.performance?.getEntriesByType?.("navigation")?.[0]?.contentEncoding;
  return coding === undefined || (coding !== "" && coding !== "identity");
}

/** A seed keeper (worker.js, "keep"): the first interpreter's memory, transferred to a
 * worker of its own, which copies it for each later interpreter on its thread rather
 * than this one. */
export function launchKeeper({ workerUrl }, memory) {
  const keeper = new Worker(workerUrl, { type: "module", name: "python-seed" });
  keeper.postMessage({ type: "keep", memory }, [memory]);
  return keeper;
}

/** Create a worker and send it the boot message: a grading interpreter ("runner",
 * the runner's files only) or the lab interpreter ("lab": the engine and the labs as
 * well). `seed` is what the first interpreter handed over, its memory with a keeper
 * (python.js takeSeed). Messages that
 * arrive before the runtime takes over are kept in `messages` (a worker's events are
 * not queued for a listener that does not exist yet). */
export function launchWorker({ workerUrl, pyodideUrl, filesUrl, labsUrl, snapshot }, { role = "runner", seed = null } = {}) {
  const launched = { startedAt: performance.now(), role, messages: [], error: null };
  launched.worker = new Worker(workerUrl, { type: "module", name: `python-${role}` });
  launched.worker.onmessage = (event) => launched.messages.push(event.data || {});
  launched.worker.onerror = (event) => { launched.error = event; };
  const filesUrls = role === "lab" ? [filesUrl, labsUrl] : [filesUrl];
  const files = seed && role === "runner" ? seed.files : null;
  // the seed's memory comes from its keeper (worker.js), copied on the keeper's thread;
  // without a keeper (gone), the boot restores the build's snapshot file
  const { port1, port2 } = seed?.keeper ? new MessageChannel() : {};
  seed?.keeper?.postMessage({ type: "keep", port: port1 }, [port1]);
  launched.worker.postMessage({
    type: "boot", role, pyodideUrl, filesUrls, snapshot,
    seed: seed ? { module: seed.module, port: port2 ?? null, files } : null,
  }, port2 ? [port2] : []);
  return launched;
}
