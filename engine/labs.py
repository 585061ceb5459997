"""Data for the course's interactive views, computed by the engine itself.

Pages embed these at build time for their default numbers; the browser's
worker calls the same functions when the learner changes an input.
"""

from .engine import Value
from .graph import backward_steps, to_graph


def level_graph(a, b, c, d):
    """L = (a·b + c)·d with named nodes: the graph, and the backward pass step by step."""
    a, b, c, d = (Value(v, label=n) for v, n in zip((a, b, c, d), "abcd"))
    e = a * b
    f = e + c
    L = f * d
    e.label, f.label, L.label = "e", "f", "L"
    return {"graph": to_graph(L), "steps": backward_steps(L)}
