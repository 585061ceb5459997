// The page's handle on Python: one fresh interpreter for every run of learner code,
// and one for the labs. One instance for the whole visit (it survives Material's
// instant navigation, because module scripts are not re-run).
//
// No restore between runs can be complete, so none is relied on: a Run or a Check
// takes a spare interpreter (booted from the build's memory snapshot, touched by no
// learner code), and the interpreter is thrown away when the run ends. Once an
// exercise comes near view the page keeps two spares, so that a Check pressed right
// after another, or right after a Stop, finds one booted; the replacement boots once
// the verdict is shown, or while a run that lasts goes on. Later boots reuse what the
// first one fetched: the compiled WebAssembly module and the snapshot's memory (the
// "seed").
//
// Stopping is the same: Stop, a timeout or a crash terminates the run's worker, and
// the spare is already on its way.
//
// What it does is told as User Timing marks, which DevTools' performance panel shows
// and a script driving the page (a test, a benchmark) reads; nothing else is kept
// for them:
//   course:python-start      the first interpreter's launch (startTime)
//   course:python-ready      the first interpreter booted: detail {mode, rejected,
//                            timings, kept, seconds}: "snapshot" | "normal" | "fallback"
//                            (rejected says why the snapshot was not usable), the
//                            boot's parts in ms, the powers the worker could not drop
//   course:interpreter-ready every interpreter booted: detail {role, id}, id counting
//                            the visit's interpreters from 1
//   course:interpreter-ended every interpreter ended: detail {role, id, reason}, reason
//                            "done" (after its one run, or not needed) or "stop",
//                            "timeout", "crash"
// A policy violation in a worker is a console warning, as the browser's own are.

import FACTS from "../runner/facts.json" with { type: "json" };
import { launchKeeper, launchWorker } from "./launch.js";
import { makeVerdict } from "./verdicts.js";

const SPARE_AFTER_MS = 100; // a run that lasts this long gets its successor booting meanwhile
const CSP_WARNING = "Content-Security-Policy: the Python worker was refused";
let interpreters = 0; // launched this visit: each one's id in the marks

/** One worker, one interpreter: its boot, its calls, its end. */
class Interpreter {
  constructor(runtime, launched) {
    this.runtime = runtime;
    this.role = launched.role;
    this.id = ++interpreters;
    this.worker = launched.worker;
    this.pending = new Map();
    this.dead = false;
    this.discardAfter = null; // the lab interpreter's, once booted: see labCall
    this.ready = new Promise((resolve, reject) => { this.settleBoot = { resolve, reject }; });
    this.ready.catch(() => {});
    this.worker.onmessage = (event) => this.onMessage(event.data || {});
    this.worker.onerror = (event) => this.fail(`The Python worker failed: ${event.message || "unknown error"}`);
    for (const msg of launched.messages) this.onMessage(msg);
    if (launched.error) this.worker.onerror(launched.error);
  }

  // A worker's message is trusted for nothing beyond showing a verdict.
  onMessage(msg) {
    if (this.dead) return;
    if (msg.type === "progress") return this.runtime.bootProgress(this, msg.text);
    if (msg.type === "seed") return this.runtime.takeSeed(this, msg);
    if (msg.type === "ready") {
      this.booted = msg;
      // told once, before this interpreter has run anything: what it must not outlive
      this.discardAfter = Array.isArray(msg.discardAfter) ? new Set(msg.discardAfter) : null;
      this.settleBoot.resolve(this);
      return this.runtime.bootReady(this, msg);
    }
    if (msg.type === "boot-failed") return this.fail(`Python could not start: ${msg.error}`);
    if (msg.type === "fatal") return this.end("crash");
    if (msg.type === "snapshot-rejected") return this.runtime.snapshotWasRejected(msg);
    // only while booting, as the worker sends it: later, learner code may have sent it
    if (msg.type === "keeper-silent") return this.booted ? undefined : this.runtime.keeperIsGone();
    if (msg.type === "csp-violation") return console.warn(`${CSP_WARNING} ${msg.directive} ${msg.blocked}`);
    const call = this.pending.get(msg.id);
    if (!call) return undefined; // not ours: ids are random, a forged message cannot match
    if (msg.type === "started") return call.started?.();
    if (msg.type === "result") {
      this.pending.delete(msg.id);
      if (msg.ok) call.resolve(msg.result);
      else if (msg.fatal) { call.resolve(stoppedVerdict("crash")); this.end("crash"); }
      else call.reject(new Error(msg.error));
    }
    return undefined;
  }

  call(fn, args, given, started) {
    const id = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, started });
      this.worker.postMessage({ type: "call", id, fn, args, given });
    });
  }

  fail(message) {
    this.settleBoot.reject(new Error(message));
    this.runtime.bootFailed(this, message);
    this.end("crash");
  }

  /** Terminate the worker; every call still pending ends as stopped (`reason`). */
  end(reason = "stop") {
    if (this.dead) return;
    this.dead = true;
    this.worker.terminate();
    for (const call of this.pending.values()) call.resolve(stoppedVerdict(reason));
    this.pending.clear();
    this.runtime.ended(this, reason);
  }
}

export class PythonRuntime extends EventTarget {
  constructor({ workerUrl, pyodideUrl, filesUrl, labsUrl, snapshot = null }) {
    super();
    this.urls = { workerUrl, pyodideUrl, filesUrl, labsUrl, snapshot };
    this.spares = []; // grading interpreters touched by no run, booted or booting
    this.keep = 1; // how many spares to keep: see keepSpares
    this.toppingUp = false;
    this.lab = null; // the lab interpreter (see labCall), once launched
    this.labLaunch = null; // its launch, while it waits for the seed
    this.wantLab = false; // keep one booted: a lab is in view (see prepareLab)
    this.running = null; // {interpreter, reason}: the run of learner code under way
    this.seed = null; // {module, keeper, files} from the first interpreter (takeSeed)
    this.state = "idle"; // idle | loading | ready | failed
    this.progress = "";
    this.bootFailures = 0; // grading interpreters in a row that could not boot
    this.bootSeconds = null;
    this.snapshotRejected = null; // why the first worker booted without the snapshot
  }

  /** The interpreter the next run takes: a booted spare if there is one. */
  get spare() {
    return this.spares.find((i) => i.booted) || this.spares[0] || null;
  }

  /** The worker of the interpreter a run would take (early.js: is one there already?). */
  get worker() {
    return this.spare?.worker || null;
  }

  /** Keep `count` spares booted. Each costs about 30 MB; a second one is what lets a
   * Check follow another Check, or a Stop, without waiting for a boot. */
  keepSpares(count) {
    this.keep = Math.max(1, count);
    while (this.spares.length > this.keep) (this.spares.findLast((i) => !i.booted) || this.spares.at(-1)).end("done");
    this.start();
  }

  /** Make sure a spare is on its way now, and the others after the next paint. */
  start() {
    if (this.state === "failed") return;
    if (!this.spares.length) this.launchSpare();
    this.topUp();
  }

  launchSpare() {
    // The worker the page's <head> started (early.js), once; otherwise a new one.
    const early = globalThis.__courseEarlyPython;
    globalThis.__courseEarlyPython = null;
    const launched = early || launchWorker(this.urls, { seed: this.seed });
    if (!this.startedAt) {
      this.startedAt = launched.startedAt;
      performance.mark("course:python-start", { startTime: launched.startedAt });
    }
    if (this.state !== "ready") this.setState("loading", "Loading Python…");
    this.spares.push(new Interpreter(this, launched));
  }

  /** One more interpreter per painted frame, in the order `missing` gives, until none is
   * missing. Only once the first has booted: later ones start from its seed instead of
   * fetching and compiling again. Launching one still costs this thread a worker's
   * start (its copy of the seed's memory is made on the keeper's thread, worker.js),
   * which must not fall in the task that shows a verdict. */
  topUp() {
    if (this.toppingUp || this.bootSeconds === null || !this.missing()) return;
    this.toppingUp = true;
    afterNextPaint(() => {
      this.toppingUp = false;
      const missing = this.state === "failed" ? null : this.missing();
      if (missing === "spare") this.launchSpare();
      else if (missing === "lab") this.launchLab();
      if (missing) this.topUp();
    });
  }

  /** What topUp launches next: "spare", "lab" or null. The lab's comes before a second
   * spare: a learner at a lab changes it at once, and a second spare only serves a
   * second Check in a row. */
  missing() {
    if (!this.spares.length) return "spare";
    if (this.wantLab && !this.lab && !this.labLaunch) return "lab";
    return this.spares.length < this.keep ? "spare" : null;
  }

  /** A lab is about to be seen: keep the lab interpreter booted from now on, so that the
   * learner's first change to it is measured without waiting for a boot. */
  prepareLab() {
    this.wantLab = true;
    this.start();
  }

  setState(state, progress) {
    this.state = state;
    this.progress = progress || "";
    this.dispatchEvent(new CustomEvent("state", { detail: { state, progress: this.progress } }));
  }

  bootProgress(interpreter, text) {
    if (interpreter === this.spare && this.state !== "ready") this.setState("loading", text);
  }

  takeSeed(interpreter, msg) {
    // only from the visit's first interpreter, before it has run anything
    if (this.seed || interpreter.booted || !(msg.module instanceof WebAssembly.Module)) return;
    this.seed = { module: msg.module, keeper: launchKeeper(this.urls, msg.memory), files: msg.files };
  }

  bootReady(interpreter, msg) {
    performance.mark("course:interpreter-ready", { detail: { role: interpreter.role, id: interpreter.id } });
    if (interpreter.role !== "runner") return undefined;
    if (this.bootSeconds === null) {
      this.bootSeconds = msg.seconds;
      performance.mark("course:python-ready", { detail: { mode: msg.mode, rejected: this.snapshotRejected,
        timings: msg.timings, kept: msg.kept, seconds: msg.seconds } });
      // the first interpreter primes the WebAssembly that every later one shares
      interpreter.call("warm_up", []).catch(() => {});
    }
    this.bootFailures = 0;
    if (this.state !== "ready") this.setState("ready", "");
    this.topUp();
    return undefined;
  }

  bootFailed(interpreter, message) {
    if (interpreter.role !== "runner") return;
    this.bootFailures += 1;
    // a spare that can't boot three times in a row won't: say so rather than boot forever
    if (this.state !== "ready" || this.bootFailures >= 3) this.setState("failed", message);
  }

  /** The seed's keeper did not answer a boot (python-seed worker gone): later boots
   * restore the build's snapshot file rather than wait on it too. */
  keeperIsGone() {
    if (this.seed) this.seed.keeper = null;
  }

  snapshotWasRejected(msg) {
    this.snapshotRejected ??= String(msg.reason);
  }

  ended(interpreter, reason) {
    performance.mark("course:interpreter-ended", { detail: { role: interpreter.role, id: interpreter.id, reason } });
    if (this.takeSpare(interpreter) && this.state !== "failed") this.start();
    if (interpreter === this.lab) {
      this.lab = null;
      // one that could not boot is launched again only when a lab calls (labCall)
      if (!interpreter.booted) this.wantLab = false;
      this.topUp();
    }
  }

  /** Take `interpreter` out of the spares; false if it was not one (another call took it). */
  takeSpare(interpreter) {
    const at = this.spares.indexOf(interpreter);
    if (at >= 0) this.spares.splice(at, 1);
    return at >= 0;
  }

  /** Call `fn(*args)` of runner.api in a fresh grading interpreter: a run of learner
   * code. Resolves with its JSON result, or a stopped verdict. `given`: the files the
   * exercise gives its learner's code. */
  call(fn, args, { timeoutMs = 0, onStart, given = null } = {}) {
    return this.runCall(fn, args, given, timeoutMs, onStart);
  }

  async runCall(fn, args, given, timeoutMs, onStart) {
    this.start();
    const interpreter = this.spare;
    try {
      await interpreter.ready;
    } catch {
      return stoppedVerdict("crash");
    }
    if (!this.takeSpare(interpreter)) return this.runCall(fn, args, given, timeoutMs, onStart); // another call took it while it booted
    // Its replacement boots once this run's verdict is on screen (see topUp). A run still
    // going after SPARE_AFTER_MS (a slow one, or a loop about to be stopped) gets it then.
    const successor = setTimeout(() => this.start(), SPARE_AFTER_MS);
    const run = { interpreter, timer: null };
    this.running = run;
    const started = () => {
      if (timeoutMs) run.timer = setTimeout(() => this.stop(null, "timeout"), timeoutMs);
      onStart?.();
    };
    try {
      return await interpreter.call(fn, args, given, started);
    } finally {
      clearTimeout(run.timer);
      clearTimeout(successor);
      if (this.running === run) this.running = null;
      interpreter.end("done");
      afterNextPaint(() => this.start());
    }
  }

  /** Call `fn(*args)` of labs.api, a function some lab declares, in the lab interpreter.
   * One the lab interpreter named at boot as running the learner's saved code
   * (`discardAfter`, from labs.api.DISCARD_AFTER) ends that interpreter afterwards. */
  async labCall(fn, args, { timeoutMs = 0, onStart } = {}) {
    const lab = await this.launchLab();
    try {
      await lab.ready;
    } catch {
      return stoppedVerdict("crash");
    }
    let timer = null;
    const started = () => {
      if (timeoutMs) timer = setTimeout(() => lab.end("timeout"), timeoutMs);
      onStart?.();
    };
    try {
      return await lab.call(fn, args, null, started);
    } finally {
      clearTimeout(timer);
      // the learner's code ran there (and without the list, it may have)
      if (!lab.discardAfter || lab.discardAfter.has(fn)) lab.end("done");
    }
  }

  /** Whether a lab's call would start at once, with no boot to wait for. */
  get labBooted() {
    return this.state === "ready" && Boolean(this.lab?.booted);
  }

  /** The lab interpreter, launched if there is none: one launch however many ask. */
  launchLab() {
    this.start();
    if (this.lab) return Promise.resolve(this.lab);
    this.labLaunch ??= this.seedOrNothing().then((seed) => {
      this.labLaunch = null;
      this.lab = new Interpreter(this, launchWorker(this.urls, { role: "lab", seed }));
      return this.lab;
    });
    return this.labLaunch;
  }

  /** The first interpreter's seed, once it has one (or has booted without one). */
  async seedOrNothing() {
    if (!this.seed && this.spare && this.bootSeconds === null) await this.spare.ready.catch(() => {});
    return this.seed;
  }

  /** Stop the run under way (reason: "stop" or "timeout"): its interpreter is ended,
   * and its promise resolves with a stopped verdict. */
  stop(_id, reason = "stop") {
    const run = this.running;
    if (!run) return;
    this.running = null;
    run.interpreter.end(reason);
  }
}

/** `fn` once the page has painted what the current task changed (in a hidden tab,
 * which paints nothing, at once). */
function afterNextPaint(fn) {
  if (document.hidden) setTimeout(fn);
  else requestAnimationFrame(() => setTimeout(fn));
}

export function stoppedVerdict(reason) {
  const summary = {
    timeout: FACTS.timeout_summary,
    stop: "Stopped. Your code is kept; change it and try again.",
    crash: "Python stopped unexpectedly (your code may have ended the interpreter). It has been restarted; your code is kept.",
  }[reason] || "Stopped.";
  return makeVerdict(reason === "timeout" ? "timeout" : "stopped", summary);
}
