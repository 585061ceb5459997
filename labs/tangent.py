"""The tangent lab: nudge x and watch f move; the slope by nudging against the engine's gradient.

Two functions, because the lesson needs both. On the level's parabola the
central difference is exact for every h (a parabola's symmetric chord is
parallel to its tangent), while the one-sided difference is off by 3h. On a
cubic the central difference has an error too, but it shrinks like h², the
one-sided error only like h. The lab shows both errors for each h, and draws
the nudge itself: the points at x0 − h and x0 + h and both secants.

The same lab walks downhill: from x0, step x against the engine's slope,
x ← x − rate · slope, and watch it settle at the parabola's minimum (x = 2/3),
crawl at a small rate, zig-zag at a larger one, and run away past rate 1/3, where
each step's overshoot (a factor 1 − 6·rate on the distance to the minimum) grows.
The browser makes each step with the slope this module returns; `descent` is the
same walk, for the tests and for the page's worked numbers.
"""

from engine import Value
from engine.gradcheck import finite_difference

from .entry import Lab, Page, number

FUNCTIONS = {
    "quadratic": ("f(x) = 3x² − 4x + 5", lambda x: 3 * x ** 2 - 4 * x + 5),
    "cubic": ("g(x) = x³", lambda x: x ** 3),
}
STEPS = (1.0, 0.1, 0.01, 0.001)
RATES = (0.01, 0.1, 0.3, 0.4)  # crawl, settle, zig-zag, diverge (on the parabola)
RUNAWAY = 100.0  # |x| past this is far off the plot (−1 to 5): the walk is diverging, stop stepping


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
            "rates": list(RATES), "runaway": RUNAWAY,
            "nudge": {"left": [x0 - h, plain(x0 - h)], "right": [x0 + h, plain(x0 + h)]},
            "points": [[v, plain(v)] for v in xs]}


def slope_at(x0, function="quadratic"):
    """f(x0) and the engine's gradient there: what one step of descent needs."""
    x = Value(x0)
    y = FUNCTIONS[function][1](x)
    y.backward()
    return y.data, x.grad


def descent(x0, rate, steps, function="quadratic"):
    """Gradient descent from x0: each row is x, f(x) and the slope there, the next x
    being x − rate · slope. Stops early once x runs away (|x| > RUNAWAY)."""
    rows, x = [], float(x0)
    for _ in range(steps + 1):
        y, grad = slope_at(x, function)
        rows.append({"x": x, "y": y, "slope": grad})
        if abs(x) > RUNAWAY:
            break
        x = x - rate * grad
    return rows


def page(options, _exercises):
    data = tangent(options["x0"], options["h"])
    return Page({"tangent": data}, ("h", "central difference", "one-sided difference", "engine's gradient"),
                [(f"{row['h']:g}", f"{row['central']:.6f}", f"{row['forward']:.6f}", f"{data['engine']:g}")
                 for row in data["errors"]])


def _recompute(x0, h, function="quadratic"):
    return tangent(float(x0), float(h), str(function) if function in FUNCTIONS else "quadratic")


LAB = Lab(options={"x0": (3, number), "h": (0.1, number)}, page=page, worker={"tangent": _recompute})
