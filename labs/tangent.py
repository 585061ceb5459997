"""The tangent lab: nudge x and watch f move; the slope by nudging against the engine's gradient.

Two functions, because the lesson needs both. On the level's parabola the
central difference is exact for every h (a parabola's symmetric chord is
parallel to its tangent), while the one-sided difference is off by 3h. On a
cubic the central difference has an error too, but it shrinks like h², the
one-sided error only like h. The lab shows both errors for each h.
"""

from engine import Value
from engine.gradcheck import finite_difference

FUNCTIONS = {
    "quadratic": ("f(x) = 3x² − 4x + 5", lambda x: 3 * x ** 2 - 4 * x + 5),
    "cubic": ("g(x) = x³", lambda x: x ** 3),
}
STEPS = (1.0, 0.1, 0.01, 0.001)


def forward_difference(fn, x0, h):
    """The one-sided nudge: the chord from x0 to x0 + h."""
    return (fn(x0 + h) - fn(x0)) / h


def tangent(x0, h=0.1, function="quadratic", lo=-1.0, hi=5.0, samples=61):
    """The curve, the engine's gradient at x0, and both nudged slopes with their errors."""
    label, fn = FUNCTIONS[function]
    x = Value(x0)
    y = fn(x)
    y.backward()
    plain = lambda v: fn(Value(v)).data  # noqa: E731 - the curve on floats

    def slopes(step):
        central = finite_difference(plain, [x0], 0, step)
        forward = forward_difference(plain, x0, step)
        return {"h": step, "central": central, "forward": forward,
                "central_error": abs(central - x.grad), "forward_error": abs(forward - x.grad)}

    xs = [lo + (hi - lo) * i / (samples - 1) for i in range(samples)]
    return {"function": function, "label": label, "x0": x0, "y0": y.data, "engine": x.grad,
            **slopes(h), "errors": [slopes(step) for step in STEPS],
            "points": [[v, plain(v)] for v in xs]}
