// The shipped memory snapshot's format, written at build time (snapshot.mjs) and
// read by the worker: a u32 little-endian header length, a JSON header
// {format, size, base, segments: [[offset, length], ...]}, then the segments' bytes;
// the whole file gzip-compressed.
//
// Only the bytes that differ from what a new Pyodide instance already holds are
// sent. `base` is {at, length, sha256}: the memory's bytes from `at` on (after
// Pyodide's own header) start as the first `length` bytes of the wasm instance's
// memory, which instantiating the module fills with its data segments (3.2 MB of
// static data, 98 % of it unchanged in the snapshot); every other byte starts at zero
// (about half of Pyodide's 31 MB memory). Segments are the stretches that differ from
// that. So the browser inflates 8.4 MB instead of 31, the data segments that
// pyodide.asm.wasm carries are not sent a second time (the Brotli body went from
// 3.5 to 2.5 MB), and a new Uint8Array gives the zeros back for free.

export const FORMAT = "byoa-snapshot-2";
const MIN_SAME_RUN = 256;

/** What the memory starts as, before any segment is written: `base.bytes` from
 * `base.at` on, zeros everywhere else. */
function startingByte(base) {
  if (!base) return () => 0;
  const { at, bytes } = base;
  return (i) => (i >= at && i < at + bytes.length ? bytes[i - at] : 0);
}

/** The stretches of `bytes` that differ from what the memory starts as: [[offset,
 * length], ...]; a run of 256 bytes or more that needs no writing ends a stretch. */
export function segments(bytes, base = null) {
  const start = startingByte(base);
  const found = [];
  let first = -1;
  let same = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] !== start(i)) {
      if (first < 0) first = i;
      same = 0;
    } else if (first >= 0 && ++same === MIN_SAME_RUN) {
      found.push([first, i + 1 - MIN_SAME_RUN - first]);
      first = -1;
      same = 0;
    }
  }
  if (first >= 0) found.push([first, bytes.length - same - first]);
  return found;
}

/** `bytes` packed; `base` ({at, bytes}), when given, is what the restoring side will
 * find in the new instance's memory (see the top of this file), and `sha256` its hash. */
export function pack(bytes, base = null, sha256 = null) {
  const parts = segments(bytes, base);
  const recorded = base ? { at: base.at, length: base.bytes.length, sha256 } : null;
  const header = new TextEncoder().encode(JSON.stringify({ format: FORMAT, size: bytes.length, base: recorded,
    segments: parts }));
  const body = new Uint8Array(4 + header.length + parts.reduce((n, [, length]) => n + length, 0));
  new DataView(body.buffer).setUint32(0, header.length, true);
  body.set(header, 4);
  let at = 4 + header.length;
  for (const [offset, length] of parts) {
    body.set(bytes.subarray(offset, offset + length), at);
    at += length;
  }
  return body;
}

/** Unpacks `pack`'s bytes as they arrive, in pieces of any size, straight into the
 * memory (no copy of the whole body is kept): `push` each piece, then `complete()`
 * once the last has come, then `finish(instance)` once the new instance exists; each
 * throws on anything that is not such a file. The memory is `target` when given (it
 * must have the size the file records), else a new one. */
export class Unpacker {
  #target; // where the memory goes, when the caller laid it out before the first byte
  #pending = []; // the first pieces, until the header is complete
  #pendingLength = 0;
  #memory = null;
  #base = null;
  #segments = null;
  #segment = 0; // the segment being written, and how much of it is
  #written = 0;

  constructor(target = null) {
    this.#target = target;
  }

  /** The memory being filled: null until the header has come. */
  get memory() {
    return this.#memory;
  }

  /** How many bytes of the instance's memory the file takes as its base: null until the
   * header has come, 0 for a file with none. */
  get baseLength() {
    return this.#memory ? (this.#base?.length ?? 0) : null;
  }

  push(piece) {
    if (this.#memory) {
      this.#fill(piece);
      return;
    }
    this.#pending.push(piece);
    this.#pendingLength += piece.length;
    if (this.#pendingLength < 4) return;
    const head = this.#pending.length === 1 ? this.#pending[0] : concat(this.#pending, this.#pendingLength);
    this.#pending = [head];
    const headerLength = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0, true);
    if (head.length < 4 + headerLength) return;
    const header = JSON.parse(new TextDecoder().decode(head.subarray(4, 4 + headerLength)));
    if (header.format !== FORMAT) throw new Error(`not a ${FORMAT} file`);
    if (this.#target && this.#target.length !== header.size) throw new Error("snapshot of a memory of another size");
    this.#memory = this.#target ?? new Uint8Array(header.size);
    this.#base = header.base ?? null;
    this.#segments = header.segments;
    this.#pending = null;
    this.#fill(head.subarray(4 + headerLength));
  }

  #fill(piece) {
    for (let at = 0; at < piece.length;) {
      const [offset, length] = this.#segments[this.#segment] ?? wrongLength();
      const n = Math.min(length - this.#written, piece.length - at);
      this.#memory.set(piece.subarray(at, at + n), offset + this.#written);
      at += n;
      this.#written += n;
      if (this.#written === length) {
        this.#segment += 1;
        this.#written = 0;
      }
    }
  }

  /** Throws unless every segment has come. */
  complete() {
    if (!this.#memory || this.#segment !== this.#segments.length) wrongLength();
  }

  /** The whole memory: the bytes left to the base copied from `instance`, what the new
   * wasm instance's memory held as it was made ({bytes, sha256}, see `instanceBase`;
   * nothing needed for a file with no base), once their hash is the one the file
   * records. On any failure the memory is wiped, so that Pyodide, which may already
   * hold it, refuses it (no header) rather than boot from half of it. */
  async finish(instance = null) {
    try {
      this.complete();
      if (this.#base) await this.#fillBase(instance);
      return this.#memory;
    } catch (error) {
      this.#memory?.fill(0);
      throw error;
    }
  }

  async #fillBase(instance) {
    const { at, length, sha256 } = this.#base;
    const heap = instance?.bytes;
    if (!heap || heap.length < length) throw new Error("snapshot base: no instance memory to take it from");
    // copied whole when the header came after the instance: hashed again, as much as the base
    const found = heap.length === length ? await instance.sha256 : await sha256Hex(heap.subarray(0, length));
    if (found !== sha256) throw new Error("snapshot base: the instance's memory differs");
    let from = at; // the next byte not yet written, in the memory
    for (const [offset, size] of this.#segments) {
      if (offset >= at + length) break;
      if (offset > from) this.#memory.set(heap.subarray(from - at, offset - at), from);
      from = Math.max(from, offset + size);
    }
    if (from < at + length) this.#memory.set(heap.subarray(from - at, length), from);
  }
}

function wrongLength() {
  throw new Error("snapshot body has the wrong length");
}

/** The pieces in one array (`length`: their total). */
export function concat(pieces, length = pieces.reduce((n, piece) => n + piece.length, 0)) {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The memory again, from `pack`'s bytes in one piece and, for a file with a base, the
 * bytes it was packed against; throws on anything else. */
export async function unpack(body, base = null) {
  const unpacker = new Unpacker();
  unpacker.push(body);
  return unpacker.finish(base && { bytes: base, sha256: sha256Hex(base) });
}

/** What the memory of the next WebAssembly instance that exports one holds as it is
 * made, before any of its code runs: its data segments, the same in every browser and in
 * Node (by the time Pyodide's fsInit runs, its start-up code has written a few statics,
 * and not the same ones everywhere). Pyodide makes its instance inside loadPyodide
 * (instantiateStreaming in a browser, instantiate in Node) with no hook that reaches it,
 * and small modules with no memory before it: both are wrapped until that instance.
 * Returns a function that gives, once the instance exists (null before), a copy of the
 * first `length()` bytes (all of them when `length()` is null) and the promise of their
 * SHA-256, started at once: it is computed off this thread while Pyodide starts up. */
export function instanceBase(length = () => null) {
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  let base = null;
  for (const [name, original] of Object.entries(originals)) {
    if (!original) continue;
    WebAssembly[name] = async (...args) => {
      const made = await original.apply(WebAssembly, args);
      const memory = (made instanceof WebAssembly.Instance ? made : made.instance).exports.memory;
      if (!base && memory instanceof WebAssembly.Memory) {
        const bytes = new Uint8Array(memory.buffer);
        const copy = bytes.slice(0, length() ?? bytes.length);
        base = { bytes: copy, sha256: sha256Hex(copy) };
        base.sha256.catch(() => {}); // read by Unpacker.finish
        Object.assign(WebAssembly, originals);
      }
      return made;
    };
  }
  return () => base;
}

/** How to restore `body` (`pack`'s bytes, in one piece): `options` for loadPyodide, which
 * hand Pyodide the memory at once and fill in the base in the `fsInit` hook (Pyodide
 * awaits it once its wasm is instantiated, before it reads the memory), and `done`, the
 * promise of that fill. A memory that can't be finished is wiped there, and loadPyodide
 * rejects. */
export function restoreOptions(body) {
  const unpacker = new Unpacker();
  unpacker.push(body);
  unpacker.complete();
  const base = instanceBase(() => unpacker.baseLength);
  let fsInit;
  const done = new Promise((resolve, reject) => {
    fsInit = () => unpacker.finish(base()).then(resolve, reject);
  });
  done.catch(() => {});
  return { options: { _loadSnapshot: unpacker.memory, fsInit }, done };
}
