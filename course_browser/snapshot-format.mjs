// The shipped memory snapshot's format, written at build time (snapshot.mjs) and
// read by the worker: a u32 little-endian header length, a JSON header
// {format, size, segments: [[offset, length], ...]}, then the segments' bytes; the
// whole file gzip-compressed. Runs of zeros are left out (about half of Pyodide's
// 31 MB memory): the browser inflates 15 MB instead of 31, and a new Uint8Array
// gives the zeros back for free.

export const FORMAT = "byoa-snapshot-1";
const MIN_ZERO_RUN = 256;

/** The memory's non-zero stretches: [[offset, length], ...]. */
export function segments(bytes) {
  const found = [];
  let start = -1;
  let zeros = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] !== 0) {
      if (start < 0) start = i;
      zeros = 0;
    } else if (start >= 0 && ++zeros === MIN_ZERO_RUN) {
      found.push([start, i + 1 - MIN_ZERO_RUN - start]);
      start = -1;
      zeros = 0;
    }
  }
  if (start >= 0) found.push([start, bytes.length - zeros - start]);
  return found;
}

export function pack(bytes) {
  const parts = segments(bytes);
  const header = new TextEncoder().encode(JSON.stringify({ format: FORMAT, size: bytes.length, segments: parts }));
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
 * memory (no copy of the whole body is kept): `push` each piece, then `finish()`
 * returns the memory; either throws on anything that is not such a file. The memory
 * is `target` when given (it must have the size the file records), else a new one. */
export class Unpacker {
  #target; // where the memory goes, when the caller laid it out before the first byte
  #pending = []; // the first pieces, until the header is complete
  #pendingLength = 0;
  #memory = null;
  #segments = null;
  #segment = 0; // the segment being written, and how much of it is
  #written = 0;

  constructor(target = null) {
    this.#target = target;
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

  finish() {
    if (!this.#memory || this.#segment !== this.#segments.length) wrongLength();
    return this.#memory;
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

/** The memory again, from `pack`'s bytes in one piece; throws on anything else. */
export function unpack(body) {
  const unpacker = new Unpacker();
  unpacker.push(body);
  return unpacker.finish();
}
