// Inlined into the <head> of every page, before Material's bundle: Material starts its
// search worker on every page load and builds the whole index in it at once (about
// 0.17 s of CPU a cold visit, measured, on the same two cores that boot Python), though
// most visits never search. Here its worker waits for the learner to reach for search: the search button
// pressed, or the search field focused (a click, a tap, or the "/", "s" or "f" key).
// Until then Material's messages wait here; then the real worker starts and gets them
// in order, and Material says "Initializing search" until the index is built, as it
// does on a first search anyway. Every other worker (Python's) is the browser's own.

const PageWorker = globalThis.Worker;
const SEARCH_WORKER = /\/assets\/javascripts\/workers\/search\.[^/]*\.js$/;
const waiting = [];

/** Stands in for Material's search worker: the part of Worker that Material uses
 * (postMessage, and "message" events through addEventListener). */
class SearchWorkerOnDemand extends EventTarget {
  constructor(url, options) {
    super();
    this.args = [url, options];
    this.started = null;
    this.queue = [];
    waiting.push(this);
  }

  start() {
    if (this.started) return;
    this.started = new PageWorker(...this.args);
    for (const type of ["message", "messageerror", "error"]) {
      this.started.addEventListener(type, (event) => this.dispatchEvent(
        type === "error" ? new ErrorEvent("error", { message: event.message }) : new MessageEvent(type, { data: event.data })));
    }
    for (const [message, transfer] of this.queue.splice(0)) this.started.postMessage(message, transfer);
  }

  postMessage(message, transfer) {
    if (this.started) this.started.postMessage(message, transfer);
    else this.queue.push([message, transfer]);
  }

  terminate() {
    this.started?.terminate();
    this.queue = [];
  }
}

const isSearchWorker = (url) => SEARCH_WORKER.test(new URL(String(url), location.href).pathname);
// A Proxy, not a subclass: `new Worker(...)` from Material gets the stand-in, from anyone
// else a real Worker, and `instanceof Worker` still holds for those.
const WorkerOnDemand = new Proxy(PageWorker, {
  construct(target, args, newTarget) {
    if (isSearchWorker(args[0])) return new SearchWorkerOnDemand(...args);
    return Reflect.construct(target, args, newTarget === WorkerOnDemand ? target : newTarget);
  },
});
globalThis.Worker = WorkerOnDemand;

function wanted(event) {
  const target = event.target;
  if (!(target instanceof Element)) return;
  const asked = event.type === "focusin" ? target.matches("input[data-md-component='search-query']")
    : event.type === "change" ? target.matches("input[data-md-toggle='search']") && target.checked
      : target.closest("label[for='__search']") !== null;
  if (asked) for (const worker of waiting) worker.start();
}
for (const type of ["focusin", "change", "pointerdown"]) document.addEventListener(type, wanted, true);
