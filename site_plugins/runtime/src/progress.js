// The learner's progress in localStorage, with a versioned schema.
//
//   {version, levels: {<level>: {items: {<id>: {solved, shown, answer}}, cleared, stars, via}},
//    code: {<slot>: text}}
//
// Corrupt or unknown data never breaks the page: it is set aside (kept under a
// backup key) and a notice says so. Where storage is off (private mode, quota),
// progress lives in memory for this visit and a notice says it can't be kept.

export const STORAGE_KEY = "byoa-progress";
export const SCHEMA_VERSION = 1;
const listeners = new Set();

function empty() {
  return { version: SCHEMA_VERSION, levels: {}, code: {} };
}

function storage() {
  try {
    const s = globalThis.localStorage;
    const probe = "__byoa_probe__";
    s.setItem(probe, "1");
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

function isValid(data) {
  return data && typeof data === "object" && data.version === SCHEMA_VERSION
    && data.levels && typeof data.levels === "object" && data.code && typeof data.code === "object";
}

class Progress {
  constructor() {
    this.store = storage();
    this.notices = [];
    this.data = this.load();
  }

  load() {
    if (!this.store) {
      this.notices.push("Your browser is not letting this site store data, so progress and code are kept only until you leave the page.");
      return empty();
    }
    const raw = this.store.getItem(STORAGE_KEY);
    if (raw === null) return empty();
    let data = null;
    try { data = JSON.parse(raw); } catch { /* reported below */ }
    if (isValid(data)) return data;
    try { this.store.setItem(`${STORAGE_KEY}-backup`, raw); } catch { /* best effort */ }
    const why = data && typeof data === "object" && data.version !== SCHEMA_VERSION
      ? "was saved by another version of the course" : "could not be read";
    this.notices.push(`Your saved progress ${why}, so it has been reset. A copy was kept in this browser.`);
    this.save();
    return empty();
  }

  save() {
    if (!this.store) return false;
    try {
      this.store.setItem(STORAGE_KEY, JSON.stringify(this.data));
      return true;
    } catch {
      this.notify("Your browser's storage is full, so the latest progress could not be saved.");
      return false;
    }
  }

  notify(text) {
    if (!this.notices.includes(text)) this.notices.push(text);
    listeners.forEach((fn) => fn({ notice: text }));
  }

  level(id) {
    if (!this.data.levels[id]) this.data.levels[id] = { items: {}, cleared: false, stars: 0, via: "" };
    return this.data.levels[id];
  }

  item(level, id) {
    const items = this.level(level).items;
    if (!items[id]) items[id] = { solved: false, shown: false };
    return items[id];
  }

  update(level, id, changes) {
    Object.assign(this.item(level, id), changes);
    this.save();
    listeners.forEach((fn) => fn({ level, id }));
  }

  setLevel(level, changes) {
    Object.assign(this.level(level), changes);
    this.save();
    listeners.forEach((fn) => fn({ level }));
  }

  code(slot) { return this.data.code[slot]; }

  saveCode(slot, text) {
    this.data.code[slot] = text;
    return this.save();
  }

  reset() {
    this.data = empty();
    this.save();
    listeners.forEach((fn) => fn({ reset: true }));
  }

  export() {
    return JSON.stringify(this.data, null, 2);
  }

  import(text) {
    const data = JSON.parse(text);
    if (!isValid(data)) throw new Error("This file is not a progress file of this course.");
    this.data = data;
    this.save();
    listeners.forEach((fn) => fn({ reset: true }));
  }
}

export const progress = new Progress();
export function onProgress(fn) { listeners.add(fn); }
