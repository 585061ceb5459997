// The build's memory snapshot (course_build/snapshot.py, made by snapshot.mjs), as the
// worker restores it: the interpreter with the course imported, through Pyodide's
// private `_loadSnapshot` instead of a normal boot. The page sends the file's SHA-256,
// built into its HTML; only bytes that match reach Pyodide, and the worker boots
// normally when the file is missing, altered, or refused by Pyodide (another build,
// say). Also used by benchmarks/snapshot_floor.py's snapshot-only page.
//
// Why it is laid out this way: Pyodide compiles its wasm only once `_loadSnapshot` has
// given it the memory, and that compile took as long as the snapshot's own download.
// So the memory goes to Pyodide at once, still empty, and the snapshot streams into it
// while the wasm compiles; Pyodide's `fsInit` hook, which it awaits after instantiating
// and before it reads the memory, waits for the last byte and the hash check, then
// copies in the bytes that the file leaves to the new instance's own memory (its base,
// see snapshot-format.mjs).

import { concat, instanceBase, sha256Hex, Unpacker } from "./snapshot-format.mjs";

/** Start restoring from `snapshot` ({url, bodyUrl, sha256, bodySha256, size}): loadPyodide's
 * `options`; `checked`, the promise of what fetching and checking the file cost (ms),
 * which rejects with the reason the snapshot can't be used; and, once Pyodide has
 * instantiated its wasm, how long it `waited` for the file after that, how long the
 * base took (`based`), or whether the base was `refused`. A memory that fails a check
 * is wiped before Pyodide reads it: Pyodide then refuses it (no header) and loadPyodide
 * rejects. */
export function restoreFromSnapshot(snapshot) {
  const memory = new Uint8Array(snapshot.size);
  const unpacker = new Unpacker(memory);
  const base = instanceBase(() => unpacker.baseLength);
  const checked = fetchSnapshot(snapshot, unpacker);
  checked.catch(() => {}); // awaited by fsInit and by the caller
  const restore = { checked, waited: null, based: null, refused: false, options: { _loadSnapshot: memory } };
  restore.options.fsInit = async () => {
    const instantiated = performance.now();
    try {
      await checked;
    } catch {
      memory.fill(0);
      return;
    } finally {
      restore.waited = performance.now() - instantiated; // 0: the wasm took longer than the file
    }
    try {
      await unpacker.finish(base()); // wipes the memory when it fails
      restore.based = performance.now() - instantiated - restore.waited;
    } catch {
      restore.refused = true;
    }
  };
  return restore;
}

/** Why the snapshot could not be used: "missing" | "hash" | "base" | "load" (see the worker's boot). */
function rejected(reason) {
  return Object.assign(new Error(`snapshot ${reason}`), { snapshotRejected: reason });
}

/** Fetch, inflate and unpack the snapshot into `unpacker`'s memory as its bytes arrive,
 * then check their hash: what each step cost (ms). After a failure nothing more is written. */
async function fetchSnapshot({ url, bodyUrl, sha256, bodySha256 }, unpacker) {
  const started = performance.now();
  let reader;
  try {
    reader = (await openSnapshot({ url, bodyUrl })).body.getReader();
  } catch {
    throw rejected("missing");
  }
  const received = []; // the bytes as they came, for the hash
  let failure = null; // bytes that are no snapshot: reported after the hash check, which names them
  const unpack = (piece) => {
    try {
      if (!failure) unpacker.push(piece);
    } catch (error) {
      failure = error;
    }
  };
  let inflate = null;
  try {
    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) {
      if (!received.length && piece.value[0] === 0x1f && piece.value[1] === 0x8b) inflate = inflater(unpack);
      received.push(piece.value);
      if (inflate) inflate.write(piece.value);
      else unpack(piece.value); // a host that sends the file with Content-Encoding: gzip hands over the body
    }
  } catch {
    failure = rejected("missing");
  }
  inflate?.close();
  const streamed = performance.now();
  if (!failure && (await sha256Hex(concat(received))) !== (inflate ? sha256 : bodySha256)) failure = rejected("hash");
  const hashed = performance.now();
  if (inflate) await inflate.done.catch((error) => { failure ??= error; });
  if (failure) throw failure;
  unpacker.complete();
  return { [inflate ? "snapshotFetchInflate" : "snapshotFetch"]: streamed - started,
    snapshotHash: hashed - streamed, snapshotRest: performance.now() - hashed };
}

/** The snapshot's response. A host that compresses on the way sends the body (from a
 * precompressed Brotli copy, 2.5 MB where the gzip file is 3.6 MB), which the browser
 * decodes; any other host, and the offline worker (which keeps the gzip file), sends the
 * gzip file, inflated here. The page gives a `bodyUrl` only where the host compressed
 * the page itself (launch.js); one that did but sends the body as it is (8.4 MB) costs
 * a round trip: the response is dropped as soon as its headers show no Content-Encoding.
 * A later visit takes whichever of the two the HTTP cache kept, and asks the host
 * nothing (a dropped body is not kept, and asked for again would cost that round trip,
 * and the bytes the host pushed before the drop, on every visit). */
async function openSnapshot({ url, bodyUrl }) {
  if (bodyUrl) {
    for (const kept of [bodyUrl, url]) {
      const response = await fetch(kept, { cache: "only-if-cached", mode: "same-origin" }).catch(() => null);
      if (response?.ok) return response;
    }
    try {
      const response = await fetch(bodyUrl);
      const coding = response.headers.get("content-encoding");
      if (response.ok && coding && coding !== "identity") return response;
      response.body?.cancel().catch(() => {});
    } catch {
      // the gzip file, below
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response;
}

/** A gzip stream that hands what it inflates to `unpack` while more arrives: write(),
 * close(), and `done`, which settles once all of it is handed over (rejects on bytes
 * that are no gzip: the hash check, which comes first, reports those). */
function inflater(unpack) {
  const stream = new DecompressionStream("gzip");
  const writer = stream.writable.getWriter();
  const done = (async () => {
    const reader = stream.readable.getReader();
    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) unpack(piece.value);
  })();
  done.catch(() => {}); // awaited after the hash check
  return {
    write: (piece) => writer.write(piece).catch(() => {}), // a failure surfaces in `done`
    close: () => writer.close().catch(() => {}),
    done,
  };
}
