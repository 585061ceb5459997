// The learner's progress in localStorage, with a versioned schema.
//
//   {version, levels: {<level>: {items: {<id>: {solved, shown, tried, answer, hints, passed, passedAt}},
//                                cleared, stars, via, started, resetAt}},
//    code: {<slot>: text}, codeTimes: {<slot>: ms}, last: {url, title, level, at}, resetAt,
//    labs: {<page|lab#n|control>: value}}   (a lab's inputs, as the learner last set them)
//
// Corrupt or unknown data never breaks the page: it is set aside (kept under a
// backup key) and a notice says so. Where storage is off (private mode, quota),
// progress lives in memory for this visit and a notice says it can't be kept.
//
// Two tabs of the course share the one key: each save first merges what the other
// wrote, and a `storage` event merges it as soon as it is written, field by field
// (answers, unlocks and stars: the union; code: the newer save; a reset: wins over
// anything older).
//
// An exercise's `passed` is the code that last passed its Check (at `passedAt`): the
// capstone builds the learner's engine from it, whatever the editor holds since.
// Version 1 had no `passed`; it loads as it is (migrate), its exercises solved without one.

import FACTS from "../runner/facts.json" with { type: "json" };

export const STORAGE_KEY = FACTS.storage.key;
export const SCHEMA_VERSION = FACTS.storage.schema_version;
const OLDER_VERSIONS = FACTS.storage.migrates_from;
const listeners = new Set();
const announce = (event) => { for (const fn of listeners) fn(event); };

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

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isTime = (v) => v === undefined || (Number.isFinite(v) && v >= 0);
const optional = (v, type) => v === undefined || typeof v === type;
const pick = (object, keys) => Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]]));

/** A Resume link the page may follow: a path on this site ("/autograd/"), as the page
 * itself saves it (course-map.js rememberVisit), and nothing else: no scheme (javascript:, data:,
 * https:), no other host (not even "//host/" or "/\\host/", which browsers read as
 * one), no whitespace that a URL parser strips. Returns the link resolved on this site. */
export function safeUrl(url) {
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || /[\\\s]/.test(url) || [...url].some((c) => c < " ")) return null;
  try {
    const resolved = new URL(url, location.href); // parsed as the link would be
    return resolved.origin === location.origin ? resolved.href : null;
  } catch {
    return null;
  }
}

function isValidItem(item) {
  return isObject(item) && optional(item.solved, "boolean") && optional(item.shown, "boolean") && optional(item.tried, "boolean")
    && optional(item.answer, "string") && (item.hints === undefined || Number.isInteger(item.hints) && item.hints >= 0)
    && optional(item.passed, "string") && isTime(item.passedAt);
}

function isValidLevel(level) {
  return isObject(level) && isObject(level.items) && Object.values(level.items).every(isValidItem)
    && optional(level.cleared, "boolean") && optional(level.started, "boolean") && optional(level.via, "string")
    && (level.stars === undefined || Number.isInteger(level.stars) && level.stars >= 0 && level.stars <= 3)
    && isTime(level.resetAt);
}

/** Saved progress of an older schema in this one's shape; anything else as it is. Every
 * older version is this one without fields that are optional here. */
export function migrate(data) {
  return isObject(data) && OLDER_VERSIONS.includes(data.version) ? { ...data, version: SCHEMA_VERSION } : data;
}

/** The whole schema, so a crafted file can't put anything else in front of the page's code. */
function isValid(data) {
  if (!isObject(data) || data.version !== SCHEMA_VERSION || !isObject(data.levels) || !isObject(data.code)) return false;
  if (!Object.values(data.levels).every(isValidLevel)) return false;
  if (!Object.values(data.code).every((text) => typeof text === "string")) return false;
  if (data.codeTimes !== undefined && !(isObject(data.codeTimes) && Object.values(data.codeTimes).every(Number.isFinite))) return false;
  if (!isTime(data.resetAt)) return false;
  if (data.labs !== undefined && !isValidLabs(data.labs)) return false;
  return data.last === undefined || isValidLast(data.last);
}

const LAB_VALUE_LIMIT = 500; // a typed expression, a slider's value: never a document

function isValidLabs(labs) {
  return isObject(labs) && Object.entries(labs).every(([key, value]) =>
    key.length <= LAB_VALUE_LIMIT && typeof value === "string" && value.length <= LAB_VALUE_LIMIT);
}

function isValidLast(last) {
  return isObject(last) && safeUrl(last.url) !== null && typeof last.title === "string"
    && optional(last.level, "string") && isTime(last.at);
}

const newer = (a, b) => (a || 0) > (b || 0);

function mergeItem(mine, theirs) {
  if (!mine) return { ...theirs };
  const merged = { ...mine, solved: !!(mine.solved || theirs.solved), shown: !!(mine.shown || theirs.shown) };
  if (mine.tried || theirs.tried) merged.tried = true;
  if (merged.answer === undefined && theirs.answer !== undefined) merged.answer = theirs.answer;
  if (theirs.hints !== undefined) merged.hints = Math.max(mine.hints || 0, theirs.hints);
  if (theirs.passed !== undefined && (mine.passed === undefined || newer(theirs.passedAt, mine.passedAt))) {
    Object.assign(merged, pick(theirs, ["passed", "passedAt"])); // the code that passed last
  }
  return merged;
}

function mergeLevel(mine, theirs) {
  if (!mine) return structuredClone(theirs);
  if (newer(theirs.resetAt, mine.resetAt)) return structuredClone(theirs); // reset elsewhere since
  if (newer(mine.resetAt, theirs.resetAt)) return mine;
  const items = { ...mine.items };
  for (const [id, item] of Object.entries(theirs.items)) items[id] = mergeItem(items[id], item);
  const stars = Math.max(mine.stars || 0, theirs.stars || 0);
  return { ...mine, items, stars, cleared: !!(mine.cleared || theirs.cleared), started: !!(mine.started || theirs.started),
    via: (theirs.stars || 0) > (mine.stars || 0) ? theirs.via : mine.via };
}

/** Field by field: answers, unlocks and stars are the union; code, the newer save. */
export function mergeProgress(mine, theirs) {
  if (newer(theirs.resetAt, mine.resetAt)) return structuredClone(theirs);
  if (newer(mine.resetAt, theirs.resetAt)) return mine;
  const merged = { ...mine, levels: { ...mine.levels }, code: { ...mine.code }, codeTimes: { ...(mine.codeTimes || {}) } };
  for (const [id, level] of Object.entries(theirs.levels)) merged.levels[id] = mergeLevel(merged.levels[id], level);
  const theirTimes = theirs.codeTimes || {};
  for (const slot of new Set([...Object.keys(theirs.code), ...Object.keys(theirTimes)])) {
    const mineAt = merged.codeTimes[slot] || (slot in merged.code ? 0 : -1);
    const theirAt = theirTimes[slot] || (slot in theirs.code ? 0 : -1);
    if (theirAt > mineAt) {
      if (slot in theirs.code) merged.code[slot] = theirs.code[slot];
      else delete merged.code[slot]; // cleared there (a level reset), later than this tab's save
      merged.codeTimes[slot] = theirAt;
    }
  }
  if (theirs.last && (!mine.last || newer(theirs.last.at, mine.last.at))) merged.last = theirs.last;
  if (theirs.labs || mine.labs) merged.labs = { ...theirs.labs, ...mine.labs }; // this tab's own settings win
  return merged;
}

class Progress {
  constructor() {
    this.store = storage();
    this.notices = [];
    this.data = this.load();
    const imported = takeImportNotice();
    if (imported) this.notices.push(imported);
    // Another tab saved: take what it has, field by field.
    globalThis.addEventListener?.("storage", (event) => {
      if (event.key !== STORAGE_KEY || event.newValue === null || !this.store) return;
      if (this.mergeFrom(event.newValue)) for (const fn of listeners) fn({ merged: true });
    });
  }

  /** Merge saved progress (JSON text) into this tab's; returns whether it was readable. */
  mergeFrom(raw) {
    let theirs = null;
    try { theirs = migrate(JSON.parse(raw)); } catch { return false; }
    if (!isValid(theirs)) return false;
    this.data = mergeProgress(this.data, theirs);
    return true;
  }

  load() {
    if (!this.store) {
      this.notices.push("Your browser is not letting this site store data, so progress and code are kept only until you leave the page.");
      return empty();
    }
    const raw = this.store.getItem(STORAGE_KEY);
    if (raw === null) return empty();
    let data = null;
    try { data = migrate(JSON.parse(raw)); } catch { /* reported below */ }
    if (isObject(data) && data.last !== undefined && !isValidLast(data.last)) delete data.last; // only a link: dropped
    if (isValid(data)) return data;
    try { this.store.setItem(`${STORAGE_KEY}-backup`, raw); } catch { /* best effort */ }
    const why = data && typeof data === "object" && data.version !== SCHEMA_VERSION
      ? "was saved by another version of the course" : "could not be read";
    this.notices.push(`Your saved progress ${why}, so it has been reset. A copy was kept in this browser.`);
    this.data = empty();
    this.written = raw; // the unreadable copy is replaced, not merged
    this.save();
    return this.data;
  }

  save() {
    if (!this.store) return false;
    try {
      // what another tab saved since this one last looked is kept too
      const current = this.store.getItem(STORAGE_KEY);
      if (current !== null && current !== this.written) this.mergeFrom(current);
      this.written = JSON.stringify(this.data);
      this.store.setItem(STORAGE_KEY, this.written);
      return true;
    } catch {
      this.notify("Your browser's storage is full, so the latest progress could not be saved.");
      return false;
    }
  }

  notify(text) {
    if (!this.notices.includes(text)) this.notices.push(text);
    announce({ notice: text });
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
    announce({ level, id });
  }

  setLevel(level, changes) {
    Object.assign(this.level(level), changes);
    this.save();
    announce({ level });
  }

  code(slot) { return this.data.code[slot]; }

  /** A Check passed: the item is solved, and `code` is the code that passed last. */
  recordPass(level, slot, code) {
    this.update(level, slot, { solved: true, passed: code, passedAt: Date.now() });
  }

  /** A lab control's saved value (a string), or undefined. */
  labInput(key) { return this.data.labs?.[key]; }

  saveLabInput(key, value) {
    if (this.replaced || typeof value !== "string" || value.length > LAB_VALUE_LIMIT) return false;
    this.data.labs = { ...this.data.labs, [key]: value };
    return this.save();
  }

  saveCode(slot, text) {
    if (this.replaced) return false; // a reset or an import is waiting for the page to reload
    this.data.code[slot] = text;
    this.data.codeTimes = this.data.codeTimes || {};
    this.data.codeTimes[slot] = Date.now();
    return this.save();
  }

  /** Forget a level and the code of its exercises (`slots`), in every tab. */
  resetLevel(level, slots) {
    this.replaced = true;
    const now = Date.now();
    this.data.levels[level] = { items: {}, cleared: false, stars: 0, via: "", resetAt: now };
    this.data.codeTimes = this.data.codeTimes || {};
    for (const slot of slots) {
      delete this.data.code[slot];
      this.data.codeTimes[slot] = now;
    }
    this.save();
  }

  reset() {
    this.replaced = true;
    this.data = { ...empty(), resetAt: Date.now() };
    this.written = null;
    try { this.store?.removeItem(STORAGE_KEY); } catch { /* saved below or not at all */ }
    this.save();
    announce({ reset: true });
  }

  export() {
    return JSON.stringify(this.data, null, 2);
  }

  /** Put a checked progress file (`readProgressFile`) in place of this browser's
   * progress ("replace") or together with it ("merge": answers, unlocks and stars the
   * union, code the newer save), in every tab. The page reloads next: `notice` is said
   * on the page that loads. */
  import(data, mode, notice) {
    const now = Date.now();
    const past = (t) => (t === undefined ? t : Math.min(t, now)); // no save from the future outranks a later one
    for (const level of Object.values(data.levels)) {
      level.resetAt = past(level.resetAt);
      for (const item of Object.values(level.items)) item.passedAt = past(item.passedAt);
    }
    for (const slot of Object.keys(data.codeTimes || {})) data.codeTimes[slot] = past(data.codeTimes[slot]);
    if (data.last) data.last.at = past(data.last.at);
    this.replaced = true;
    this.data = mode === "merge" ? mergeProgress(this.data, { ...data, resetAt: this.data.resetAt })
      : { ...data, resetAt: now }; // a reset newer than any tab's save: it replaces them all
    this.written = null;
    try { this.store?.removeItem(STORAGE_KEY); } catch { /* saved below or not at all */ }
    this.save();
    try { globalThis.sessionStorage?.setItem(IMPORT_NOTICE, notice); } catch { /* the notice is only lost */ }
    announce({ reset: true });
  }
}

const IMPORT_NOTICE = `${STORAGE_KEY}-imported`;

/** What a progress holds, in the learner's words (for the import's question and notice). */
export function summary(data) {
  const levels = Object.values(data.levels);
  const cleared = levels.filter((l) => l.cleared).length;
  const solved = levels.reduce((n, l) => n + Object.values(l.items).filter((i) => i.solved).length, 0);
  const code = Object.keys(data.code).length;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  return `${plural(cleared, "level", "levels")} cleared, ${plural(solved, "question or exercise", "questions and exercises")} solved, `
    + `code saved for ${plural(code, "exercise", "exercises")}`;
}

const ITEM_FIELDS = ["solved", "shown", "answer", "hints", "tried", "passed", "passedAt"];
const LEVEL_FIELDS = ["cleared", "stars", "via", "started", "resetAt"];

/** A progress file's text, checked field by field against the schema: what the page
 * knows is kept (and must be right), anything else is left out, and a Resume link
 * that is not a path on this site is dropped. Returns {data, dropped}: `dropped` says
 * what was left out; throws an Error whose message a learner can read. */
export function readProgressFile(text) {
  let raw;
  try {
    raw = migrate(JSON.parse(text));
  } catch {
    throw new Error("This file is not a progress file: it is not even JSON, so it may be damaged or another kind of file. "
      + "Choose the file that Export progress saved (autograd-course-progress.json).");
  }
  if (isObject(raw) && raw.version !== undefined && raw.version !== SCHEMA_VERSION) {
    throw new Error("This file was saved by another version of the course, so it can't be read here.");
  }
  const notOurs = new Error("This file is not a progress file of this course.");
  if (!isObject(raw) || !isObject(raw.levels) || !isObject(raw.code)) throw notOurs;
  const dropped = [];
  const levels = {};
  for (const [id, level] of Object.entries(raw.levels)) {
    if (!isObject(level) || !isObject(level.items)) throw notOurs;
    const items = {};
    for (const [key, item] of Object.entries(level.items)) items[key] = isObject(item) ? pick(item, ITEM_FIELDS) : item;
    levels[id] = { items, ...pick(level, LEVEL_FIELDS) };
  }
  const data = { version: SCHEMA_VERSION, levels, code: raw.code, ...pick(raw, ["codeTimes", "resetAt", "labs"]) };
  if (raw.last !== undefined) {
    if (isValidLast(raw.last)) data.last = pick(raw.last, ["url", "title", "level", "at"]);
    else dropped.push("its Resume link, which did not point to a page of this course");
  }
  const known = new Set(["version", "levels", "code", "codeTimes", "resetAt", "last", "labs"]);
  if (Object.keys(raw).some((k) => !known.has(k))) dropped.push("fields this course does not use");
  if (!isValid(data)) throw notOurs;
  return { data, dropped };
}

/** The notice an import left for the page that loads after it (once). */
export function takeImportNotice() {
  try {
    const text = globalThis.sessionStorage?.getItem(IMPORT_NOTICE);
    if (text) globalThis.sessionStorage.removeItem(IMPORT_NOTICE);
    return text || null;
  } catch {
    return null;
  }
}

export const progress = new Progress();
export function onProgress(fn) { listeners.add(fn); }
