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
    zipUrl: new URL(config.zip, base).href,
    exercisesBase: new URL(`${config.exercises}/`, base),
    useSnapshot: !!config.snapshot && typeof caches !== "undefined" && !!globalThis.crypto?.subtle,
  };
}

// The memory snapshot's bytes live in Cache Storage, which the Python worker could
// write while it still has storage; their SHA-256 lives in the page's localStorage,
// which no worker can reach. The worker restores only bytes that match (worker.js).
export const SNAPSHOT_CACHE = "byoa-python-snapshot";
export const SNAPSHOT_HASH_KEY = "byoa-python-snapshot-sha256";

export function snapshotKey(pyodideUrl) {
  return new URL("snapshot.bin", new URL(".", pyodideUrl)).href;
}

/** The hash the page saved with the snapshot for `key`, or null. */
export function expectedSnapshotHash(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(SNAPSHOT_HASH_KEY));
    return saved && saved.key === key && /^[0-9a-f]{64}$/.test(saved.sha256) ? saved.sha256 : null;
  } catch {
    return null;
  }
}

export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Create the worker and send it the boot message. Messages that arrive before
 * the runtime takes over are kept in `messages` (a worker's events are not queued
 * for a listener that does not exist yet). */
export function launchWorker({ workerUrl, pyodideUrl, zipUrl, useSnapshot }) {
  const interrupt = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function"
    ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  const launched = { startedAt: performance.now(), interrupt, messages: [], error: null };
  launched.worker = new Worker(workerUrl, { type: "module", name: "python" });
  launched.worker.onmessage = (event) => launched.messages.push(event.data || {});
  launched.worker.onerror = (event) => { launched.error = event; };
  // Without a hash the page can vouch for, the worker makes a new snapshot instead.
  const snapshotHash = useSnapshot ? expectedSnapshotHash(snapshotKey(pyodideUrl)) : null;
  launched.worker.postMessage({
    type: "boot", pyodideUrl, zipUrl, interruptBuffer: interrupt ? interrupt.buffer : null, useSnapshot, snapshotHash,
  });
  return launched;
}
