"""The level-graph lab: L = (a·b + c)·d, stepped through backward, node by node."""

from engine import Value
from engine.graph import backward_steps, to_graph


def level_graph(a, b, c, d):
    """L = (a·b + c)·d with named nodes: the graph, and the backward pass step by step."""
    a, b, c, d = (Value(v, label=n) for v, n in zip((a, b, c, d), "abcd"))
    e = a * b
    f = e + c
    L = f * d
    e.label, f.label, L.label = "e", "f", "L"
    return {"graph": to_graph(L), "steps": backward_steps(L)}
