// The shipped snapshot's format (course_browser/snapshot-format.mjs): what pack writes,
// unpack gives back byte for byte, zero runs included, and the bytes left to the base
// come from the instance's memory only when it is the one the file was packed against.
import assert from "node:assert/strict";
import { test } from "node:test";

import { FORMAT, pack, segments, sha256Hex, Unpacker, unpack } from "../../course_browser/snapshot-format.mjs";

function memoryLike() {
  const bytes = new Uint8Array(300_000);
  for (let i = 0; i < 40_000; i += 1) bytes[i] = (i * 7 + 1) % 251; // dense, no long zero run
  bytes.fill(0, 1000, 1100); // a short zero run stays inside its segment
  for (let i = 150_000; i < 150_300; i += 3) bytes[i] = 9; // sparse
  bytes[299_999] = 5; // the very last byte
  return bytes;
}

// What a new instance holds from offset 128 of the memory on: its "data segments". The
// memory keeps most of them, changes a few bytes, and zeroes one stretch of them.
function instanceLike() {
  const heap = new Uint8Array(60_000);
  for (let i = 0; i < 50_000; i += 1) heap[i] = (i * 13 + 5) % 249 || 1;
  return heap;
}

function memoryOver(heap) {
  const memory = new Uint8Array(200_000);
  memory.fill(7, 0, 128); // Pyodide's own header
  memory.set(heap.subarray(0, 50_000), 128);
  memory[128 + 10_000] ^= 0xff; // changed
  memory.fill(0, 128 + 20_000, 128 + 21_000); // zeroed: differs from the base
  memory.fill(3, 120_000, 120_500); // beyond the base
  return memory;
}

async function packedOver(heap, memory) {
  const base = heap.slice(0, 50_000);
  return pack(memory, { at: 128, bytes: base }, await sha256Hex(base));
}

test("unpack(pack(memory)) is the memory", async () => {
  const memory = memoryLike();
  const body = pack(memory);
  assert.ok(body.length < memory.length / 4, `${body.length} bytes`);
  assert.deepEqual(await unpack(body), memory);
});

test("runs of 256 zeros or more are left out, shorter ones kept", () => {
  assert.deepEqual(segments(memoryLike()), [[0, 40_000], [150_000, 298], [299_999, 1]]);
  assert.deepEqual(segments(new Uint8Array(1000)), []);
});

test("with a base, only the bytes that differ from it are written", async () => {
  const heap = instanceLike();
  const memory = memoryOver(heap);
  assert.deepEqual(segments(memory, { at: 128, bytes: heap.slice(0, 50_000) }),
    [[0, 128], [10_128, 1], [20_128, 1000], [120_000, 500]]);
  const body = await packedOver(heap, memory);
  assert.ok(body.length < 3000, `${body.length} bytes`);
  assert.deepEqual(await unpack(body, heap), memory);
  assert.deepEqual(await unpack(body, heap.slice(0, 50_000)), memory, "a copy of just the base");
});

test("a base is taken only from the memory it was packed against", async () => {
  const heap = instanceLike();
  const body = await packedOver(heap, memoryOver(heap));
  await assert.rejects(unpack(body), /no instance memory/);
  await assert.rejects(unpack(body, heap.subarray(0, 49_999)), /no instance memory/);
  const other = heap.slice();
  other[30_000] ^= 1;
  const unpacker = new Unpacker();
  unpacker.push(body);
  await assert.rejects(unpacker.finish({ bytes: other, sha256: sha256Hex(other) }), /the instance's memory differs/);
  assert.ok(unpacker.memory.every((b) => b === 0), "the memory is wiped, so Pyodide refuses it");
});

test("anything else is refused", async () => {
  const body = pack(memoryLike());
  await assert.rejects(unpack(body.subarray(0, body.length - 1)), /wrong length/);
  const other = new TextEncoder().encode(JSON.stringify({ format: "other", size: 1, segments: [] }));
  const forged = new Uint8Array(4 + other.length);
  new DataView(forged.buffer).setUint32(0, other.length, true);
  forged.set(other, 4);
  await assert.rejects(unpack(forged), new RegExp(`not a ${FORMAT} file`));
});

test("the body may arrive in pieces of any size", async () => {
  const heap = instanceLike();
  const memory = memoryOver(heap);
  const body = await packedOver(heap, memory);
  for (const size of [1, 3, 7, 4096, 65_536]) {
    const unpacker = new Unpacker();
    for (let at = 0; at < body.length; at += size) unpacker.push(body.subarray(at, at + size));
    assert.deepEqual(await unpacker.finish({ bytes: heap, sha256: sha256Hex(heap) }), memory, `pieces of ${size}`);
  }
  const short = new Unpacker();
  short.push(body.subarray(0, 10));
  assert.throws(() => short.complete(), /wrong length/);
  const long = new Unpacker();
  assert.throws(() => long.push(new Uint8Array([...body, 1])), /wrong length/);
});

test("a memory laid out beforehand is filled in place, if it has the recorded size", async () => {
  const memory = memoryLike();
  const target = new Uint8Array(memory.length);
  const unpacker = new Unpacker(target);
  unpacker.push(pack(memory));
  assert.equal(await unpacker.finish(), target);
  assert.deepEqual(target, memory);
  assert.throws(() => new Unpacker(new Uint8Array(10)).push(pack(memory)), /another size/);
});
