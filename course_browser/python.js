// The page's handle on the Python worker: start it early, call functions in it,
// stop runaway code. One instance for the whole visit (it survives Material's
// instant navigation, because module scripts are not re-run).
//
// Stopping: where the page is cross-origin isolated, a SharedArrayBuffer
// interrupt raises KeyboardInterrupt inside Python and the worker lives on;
// otherwise (or if the interrupt is not honoured) the worker is terminated and
// a fresh one boots.

import { launchWorker } from "./launch.js";

const GRACE_MS = 1500;
// Where earlier versions kept a memory snapshot made in the browser; the build ships
// one now (course_build/snapshot.py), so a visitor's old copy is deleted.
const OLD_SNAPSHOT_CACHE = "byoa-python-snapshot";
const OLD_SNAPSHOT_HASH_KEY = "byoa-python-snapshot-sha256";

export class PythonRuntime extends EventTarget {
  constructor({ workerUrl, pyodideUrl, filesUrl, snapshot = null }) {
    super();
    this.urls = { workerUrl, pyodideUrl, filesUrl, snapshot };
    this.bootMode = null; // "snapshot" | "normal" | "fallback" (the snapshot was not usable)
    this.worker = null;
    this.state = "idle"; // idle | loading | ready | failed
    this.progress = "";
    this.pending = new Map();
    this.restarts = 0;
    this.bootSeconds = null;
    this.learnerRunStarted = false;
    this.snapshotRejected = null; // why the worker booted without the snapshot
    this.cspViolations = []; // reported by the worker, for the tests only
  }

  start() {
    if (this.worker) return;
    // The worker the page's <head> started (early.js), once; otherwise a new one.
    const early = globalThis.__courseEarlyPython;
    globalThis.__courseEarlyPython = null;
    const launched = early || launchWorker(this.urls);
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

  // A worker's message is trusted for nothing beyond showing a verdict.
  onMessage(msg) {
    if (msg.type === "progress") return this.setState("loading", msg.text);
    if (msg.type === "ready") {
      this.bootSeconds = msg.seconds;
      this.bootTimings = msg.timings;
      this.bootMode = msg.mode;
      this.workerKept = msg.kept; // powers the worker could not drop (none expected)
      this.snapshotBytes = msg.snapshotBytes; // the restored memory's size, for the tests and benchmarks
      performance.mark("course:python-ready");
      this.setState("ready", "");
      forgetOldSnapshot();
      return this.warmUp();
    }
    if (msg.type === "boot-failed") return this.setState("failed", `Python could not start: ${msg.error}`);
    if (msg.type === "fatal") return this.restart();
    if (msg.type === "snapshot-rejected") {
      this.snapshotRejected = String(msg.reason);
      this.snapshotError = String(msg.detail || ""); // for the tests
      return undefined;
    }
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

function forgetOldSnapshot() {
  try { localStorage.removeItem(OLD_SNAPSHOT_HASH_KEY); } catch { /* no storage */ }
  globalThis.caches?.delete(OLD_SNAPSHOT_CACHE).catch(() => {});
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
