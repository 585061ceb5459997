"""Data for the course's interactive views, computed by the engine itself.

Pages embed these at build time for their default numbers; the browser's
worker calls the same functions when the learner changes an input.
"""

from .engine import Value
from .gradcheck import finite_difference
from .graph import backward_steps, to_graph


def level_graph(a, b, c, d):
    """L = (a·b + c)·d with named nodes: the graph, and the backward pass step by step."""
    a, b, c, d = (Value(v, label=n) for v, n in zip((a, b, c, d), "abcd"))
    e = a * b
    f = e + c
    L = f * d
    e.label, f.label, L.label = "e", "f", "L"
    return {"graph": to_graph(L), "steps": backward_steps(L)}


def curve(x):
    """The nudges level's function, f(x) = 3x² − 4x + 5, on Values."""
    return 3 * x ** 2 - 4 * x + 5


def tangent(x0, h=1e-6, lo=-1.0, hi=5.0, samples=61):
    """f, its central-difference slope at x0 (the oracle) and the engine's gradient."""
    x = Value(x0)
    y = curve(x)
    y.backward()
    numeric = finite_difference(lambda v: curve(Value(v)).data, [x0], 0, h)
    xs = [lo + (hi - lo) * i / (samples - 1) for i in range(samples)]
    return {"x0": x0, "h": h, "y0": y.data, "numeric": numeric, "engine": x.grad,
            "points": [[v, curve(Value(v)).data] for v in xs]}
