// The shipped snapshot's format (course_browser/snapshot-format.mjs): what pack writes,
// unpack gives back byte for byte, zero runs included.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pack, segments, Unpacker, unpack } from "../../course_browser/snapshot-format.mjs";

function memoryLike() {
  const bytes = new Uint8Array(300_000);
  for (let i = 0; i < 40_000; i += 1) bytes[i] = (i * 7 + 1) % 251; // dense, no long zero run
  bytes.fill(0, 1000, 1100); // a short zero run stays inside its segment
  for (let i = 150_000; i < 150_300; i += 3) bytes[i] = 9; // sparse
  bytes[299_999] = 5; // the very last byte
  return bytes;
}

test("unpack(pack(memory)) is the memory", () => {
  const memory = memoryLike();
  const body = pack(memory);
  assert.ok(body.length < memory.length / 4, `${body.length} bytes`);
  assert.deepEqual(unpack(body), memory);
});

test("runs of 256 zeros or more are left out, shorter ones kept", () => {
  assert.deepEqual(segments(memoryLike()), [[0, 40_000], [150_000, 298], [299_999, 1]]);
  assert.deepEqual(segments(new Uint8Array(1000)), []);
});

test("anything else is refused", () => {
  const body = pack(memoryLike());
  assert.throws(() => unpack(body.subarray(0, body.length - 1)), /wrong length/);
  const other = new TextEncoder().encode(JSON.stringify({ format: "other", size: 1, segments: [] }));
  const forged = new Uint8Array(4 + other.length);
  new DataView(forged.buffer).setUint32(0, other.length, true);
  forged.set(other, 4);
  assert.throws(() => unpack(forged), /not a byoa-snapshot-1 file/);
});

test("the body may arrive in pieces of any size", () => {
  const memory = memoryLike();
  const body = pack(memory);
  for (const size of [1, 3, 7, 4096, 65_536]) {
    const unpacker = new Unpacker();
    for (let at = 0; at < body.length; at += size) unpacker.push(body.subarray(at, at + size));
    assert.deepEqual(unpacker.finish(), memory, `pieces of ${size}`);
  }
  const short = new Unpacker();
  short.push(body.subarray(0, 10));
  assert.throws(() => short.finish(), /wrong length/);
  const long = new Unpacker();
  assert.throws(() => long.push(new Uint8Array([...body, 1])), /wrong length/);
});

test("a memory laid out beforehand is filled in place, if it has the recorded size", () => {
  const memory = memoryLike();
  const target = new Uint8Array(memory.length);
  const unpacker = new Unpacker(target);
  unpacker.push(pack(memory));
  assert.equal(unpacker.finish(), target);
  assert.deepEqual(target, memory);
  assert.throws(() => new Unpacker(new Uint8Array(10)).push(pack(memory)), /another size/);
});
