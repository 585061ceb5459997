// The graph labs' layout (dagre): no two boxes overlap, for any expression graph up
// to 40 nodes, and `a + a` keeps one edge per operand.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formula, layout } from "../../course_browser/graphview.js";

const H = 62;

/** A random expression graph: leaves, then ops over earlier nodes (reuse included). */
function randomGraph(size, seed) {
  let state = seed;
  const rand = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const leaves = 1 + Math.floor(rand() * Math.min(6, size / 2));
  const nodes = [], edges = [];
  for (let i = 0; i < size; i++) {
    if (i < leaves) { nodes.push({ id: i, label: `x${i}`, op: "", data: 1 }); continue; }
    const unary = rand() < 0.3;
    nodes.push({ id: i, label: "", op: unary ? "tanh" : rand() < 0.5 ? "+" : "*", data: 1 });
    const pick = () => Math.floor(rand() * i);
    edges.push({ source: pick(), target: i, factor: 1 });
    if (!unary) edges.push({ source: pick(), target: i, factor: 1 });
  }
  return { nodes, edges };
}

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + H && b.y < a.y + H;
}

test("no two boxes overlap, for graphs of 2 to 40 nodes", () => {
  for (let size = 2; size <= 40; size++) {
    for (let seed = 1; seed <= 5; seed++) {
      const graph = randomGraph(size, seed * 7919 + size);
      const { pos, width, height } = layout(graph);
      for (let i = 0; i < pos.length; i++) {
        assert.ok(pos[i].x >= 0 && pos[i].y >= 0 && pos[i].x + pos[i].w <= width + 1 && pos[i].y + H <= height + 1, `node ${i} inside`);
        for (let j = i + 1; j < pos.length; j++) assert.ok(!overlaps(pos[i], pos[j]), `size ${size} seed ${seed}: ${i} and ${j} overlap`);
      }
    }
  }
});

test("a + a has two edges, both routed; the graph reads left to right", () => {
  const graph = { nodes: [{ id: 0, label: "a", op: "", data: 3 }, { id: 1, label: "b", op: "+", data: 6 }],
    edges: [{ source: 0, target: 1, factor: 1 }, { source: 0, target: 1, factor: 1 }] };
  const { pos, routes, children } = layout(graph);
  assert.equal(routes.length, 2);
  assert.deepEqual(children[1], [0, 0]);
  assert.ok(pos[0].x < pos[1].x);
});

test("every box is as wide as its longest line, and an unnamed result reads (…)", () => {
  const graph = { nodes: [{ id: 0, label: "a", op: "", data: 2 }, { id: 1, label: "", op: "", data: -0.123456 },
    { id: 2, label: "", op: "*", data: -0.246912 }, { id: 3, label: "L", op: "+", data: 1.75 }],
  edges: [{ source: 0, target: 2, factor: 1 }, { source: 1, target: 2, factor: 1 },
    { source: 2, target: 3, factor: 1 }, { source: 0, target: 3, factor: 1 }] };
  const { pos, children } = layout(graph);
  for (const n of graph.nodes) {
    const text = formula(n, graph, children);
    assert.ok(pos[n.id].w >= 16 + 7.9 * text.length, `${text}: ${pos[n.id].w} px`);
  }
  assert.equal(formula(graph.nodes[3], graph, children), "L = (…) + a");
  assert.equal(formula(graph.nodes[1], graph, children), "−0.1235 (constant)");
});

