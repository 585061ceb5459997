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

/** The memory again, from `pack`'s bytes; throws on anything else. */
export function unpack(body) {
  const headerLength = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(body.subarray(4, 4 + headerLength)));
  if (header.format !== FORMAT) throw new Error(`not a ${FORMAT} file`);
  const memory = new Uint8Array(header.size);
  let at = 4 + headerLength;
  for (const [offset, length] of header.segments) {
    memory.set(body.subarray(at, at + length), offset);
    at += length;
  }
  if (at !== body.length) throw new Error("snapshot body has the wrong length");
  return memory;
}
