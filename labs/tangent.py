"""The tangent lab: nudge x and watch f move; the slope by nudging against the engine's gradient."""

from engine import Value
from engine.gradcheck import finite_difference


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
