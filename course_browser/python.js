// The page's handle on the Python worker: start it early, call functions in it,
// stop runaway code. One instance for the whole visit (it survives Material's
// instant navigation, because module scripts are not re-run).
//
// Stopping: where the page is cross-origin isolated, a SharedArrayBuffer
// interrupt raises KeyboardInterrupt inside Python and the worker lives on;
// otherwise (or if the interrupt is not honoured) the worker is terminated and
// a fresh one boots.

import { launchWorker, SNAPSHOT_CACHE, SNAPSHOT_HASH_KEY, sha256Hex } from "./launch.js";

const GRACE_MS = 1500;
// The snapshot worker boots a whole interpreter (seconds of CPU): it starts once Python
// has been ready a while and the learner has not run anything for a while, so it never
// slows the first Checks, and waits again while the learner keeps working.
const SNAPSHOT_AFTER_MS = 4000;
const SNAPSHOT_QUIET_MS = 5000;

export class PythonRuntime extends EventTarget {
  constructor({ workerUrl, pyodideUrl, zipUrl, useSnapshot = false }) {
    super();
    this.urls = { workerUrl, pyodideUrl, zipUrl };
    this.useSnapshot = useSnapshot;
    this.bootMode = null;
    this.worker = null;
    this.state = "idle"; // idle | loading | ready | failed
    this.progress = "";
    this.pending = new Map();
    this.restarts = 0;
    this.bootSeconds = null;
    this.learnerRunStarted = false;
    this.snapshotTimer = null;
    this.lastCallAt = Number.NEGATIVE_INFINITY;
    this.snapshotRejected = null;
    this.cspViolations = []; // reported by the worker, for the tests only
  }

  start() {
    if (this.worker) return;
    // The worker the page's <head> started (early.js), once; otherwise a new one.
    const early = globalThis.__courseEarlyPython;
    globalThis.__courseEarlyPython = null;
    const launched = early || launchWorker({ ...this.urls, useSnapshot: this.useSnapshot });
    this.worker = launched.worker;
    this.interrupt = launched.interrupt;
    this.startedAt = launched.startedAt; // for the benchmarks
    this.worker.onmessage = (event) => this.onMessage(event.data || {});
    this.worker.onerror = (event) => this.setState("failed", `The Python worker failed: ${event.message || "unknown error"}`);
    this.setState("loading", "Loading Python…");
    for (const msg of launched.messages) this.onMessage(msg);
    if (launched.error) this.worker.onerror(launched.error);
  }

  setState(state, progress) {
    this.state = state;
    this.progress = progress || "";
    this.dispatchEvent(new CustomEvent("state", { detail: { state, progress: this.progress } }));
  }

  // A worker's message is trusted for nothing beyond showing a verdict: a snapshot is
  // taken only from a worker still booting (it sends it before "ready", so before any
  // call has run in it), and never once a learner's code has run in this visit.
  onMessage(msg) {
    if (msg.type === "progress") return this.setState("loading", msg.text);
    if (msg.type === "ready") {
      this.bootSeconds = msg.seconds;
      this.bootTimings = msg.timings;
      this.bootMode = msg.mode;
      this.workerKept = msg.kept; // powers the worker could not drop (none expected)
      performance.mark("course:python-ready");
      this.setState("ready", "");
      if (this.useSnapshot && msg.mode !== "snapshot") this.makeSnapshotLater();
      return this.warmUp();
    }
    if (msg.type === "boot-failed") return this.setState("failed", `Python could not start: ${msg.error}`);
    if (msg.type === "fatal") return this.restart();
    if (msg.type === "snapshot-rejected") return this.dropSnapshot(String(msg.reason));
    if (msg.type === "csp-violation") { this.cspViolations.push(msg); return undefined; }
    const call = this.pending.get(msg.id);
    if (!call) return; // not ours: ids are random, a forged message cannot match
    if (msg.type === "started") {
      call.started = true;
      if (!call.background) this.learnerRunStarted = true;
      if (call.timeoutMs) call.timer = setTimeout(() => this.stop(call.id, "timeout"), call.timeoutMs);
      call.onStart?.();
      return;
    }
    if (msg.type === "result") {
      this.settle(call);
      if (msg.ok) call.resolve(msg.result);
      else if (msg.fatal) {
        call.resolve(stoppedVerdict("crash"));
        this.restart();
      } else call.reject(new Error(msg.error));
    }
  }

  /** No snapshot to boot from yet: once the page has been idle a while, a second,
   * short-lived worker boots a fresh interpreter only to snapshot it. Nothing else ever
   * runs there (no course files, no learner code: its messages are taken only as a
   * snapshot), and the first Check never waits for it. */
  makeSnapshotLater() {
    if (this.snapshotTimer) return;
    const whenQuiet = () => {
      const busy = [...this.pending.values()].some((c) => !c.background);
      const wait = Math.max(SNAPSHOT_QUIET_MS - (performance.now() - this.lastCallAt), busy ? SNAPSHOT_QUIET_MS : 0);
      if (wait > 0) {
        this.snapshotTimer = setTimeout(whenQuiet, wait);
        return;
      }
      const maker = new Worker(this.urls.workerUrl, { type: "module", name: "python-snapshot" });
      const done = () => maker.terminate();
      maker.onerror = done;
      maker.onmessage = ({ data }) => {
        if (data?.type === "snapshot" && data.bytes instanceof ArrayBuffer && typeof data.key === "string") {
          done();
          this.saveSnapshot(data);
        } else if (data?.type === "boot-failed") done();
      };
      maker.postMessage({ type: "make-snapshot", pyodideUrl: this.urls.pyodideUrl });
    };
    this.snapshotTimer = setTimeout(whenQuiet, SNAPSHOT_AFTER_MS);
  }

  /** Keep a snapshot handed over by the snapshot worker: bytes in Cache Storage, their
   * SHA-256 in localStorage (see launch.js). */
  async saveSnapshot({ key, bytes }) {
    try {
      const started = performance.now();
      const sha256 = await sha256Hex(bytes);
      this.snapshotHashMs = performance.now() - started;
      localStorage.removeItem(SNAPSHOT_HASH_KEY);
      const cache = await caches.open(SNAPSHOT_CACHE);
      for (const old of await cache.keys()) await cache.delete(old);
      await cache.put(key, new Response(bytes));
      localStorage.setItem(SNAPSHOT_HASH_KEY, JSON.stringify({ key, sha256 }));
      this.snapshotBytes = bytes.byteLength;
    } catch { /* storage full or unavailable: the next visit boots normally */ }
  }

  /** The worker found the cached snapshot bad (wrong hash, or Pyodide refused it): drop it. */
  dropSnapshot(reason) {
    this.snapshotRejected = reason;
    this.snapshotDropped = (async () => {
      try { localStorage.removeItem(SNAPSHOT_HASH_KEY); } catch { /* no storage */ }
      await caches.delete(SNAPSHOT_CACHE).catch(() => {});
      return true;
    })();
    return undefined;
  }

  settle(call) {
    clearTimeout(call.timer);
    clearTimeout(call.graceTimer);
    this.pending.delete(call.id);
  }

  /** Prime the grader after boot, one short step at a time (exercises.worker_api.warm_up),
   * so the learner's first Check runs at full speed. A learner's call waits for one step
   * at most; once one is under way, priming stops (that call warms Python itself). */
  async warmUp() {
    const worker = this.worker;
    for (let step = 0; ; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.worker !== worker || this.pending.size) return;
      const more = await this.call("warm_up", [step], { background: true }).catch(() => false);
      if (more !== true) return;
    }
  }

  /** Call `fn(*args)` of exercises.worker_api; resolves with its JSON result. */
  call(fn, args, { timeoutMs = 0, onStart, background = false } = {}) {
    this.start();
    if (!background) this.lastCallAt = performance.now(); // the snapshot worker waits for a quiet spell
    const id = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { id, resolve, reject, timeoutMs, onStart, background, started: false, stopReason: null });
      if (this.interrupt) this.interrupt[0] = 0;
      this.worker.postMessage({ type: "call", id, fn, args });
    });
  }

  /** Stop a running call (reason: "stop" or "timeout"). Its promise resolves with a stopped verdict. */
  stop(id, reason = "stop") {
    const call = id ? this.pending.get(id) : [...this.pending.values()].find((c) => c.started && !c.background);
    if (!call) return;
    call.stopReason = reason;
    const finish = () => {
      this.settle(call);
      call.resolve(stoppedVerdict(reason));
    };
    if (this.interrupt && call.started) {
      this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next check
      const { resolve } = call;
      call.resolve = (result) => resolve(result && result.status === "stopped" ? stoppedVerdict(reason) : result);
      call.graceTimer = setTimeout(() => { this.restart(); }, GRACE_MS);
      return;
    }
    finish();
    this.restart();
  }

  /** Terminate the worker and boot a new one; every pending call ends as stopped. */
  restart() {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    this.restarts += 1;
    for (const call of [...this.pending.values()]) {
      this.settle(call);
      call.resolve(stoppedVerdict(call.stopReason || "crash"));
    }
    this.start();
  }
}

export function stoppedVerdict(reason) {
  const summary = {
    timeout: "Your code ran too long and was stopped. Look for a loop that never ends, or a very slow step.",
    stop: "Stopped. Your code is kept; change it and try again.",
    crash: "Python stopped unexpectedly (your code may have ended the interpreter). It has been restarted; your code is kept.",
  }[reason] || "Stopped.";
  return { status: reason === "timeout" ? "timeout" : "stopped", passed: false, headline: "Not yet",
    summary, tests: [], stdout: "", stdout_truncated: false, error: null };
}
