"""The finite-difference oracle: nudge one input, measure how far the output moves.

Too slow to train with, simple enough to trust. Tests and course pages check
every backward rule against it.
"""

from .engine import Value


def finite_difference(fn, point, i, h=1e-6):
    """Central difference of `fn` (plain floats -> float) along input `i` at `point`."""
    up = list(point)
    down = list(point)
    up[i] += h
    down[i] -= h
    return (fn(*up) - fn(*down)) / (2 * h)


def check_gradients(build, point, h=1e-6, atol=1e-5, rtol=1e-4):
    """Compare backprop with finite differences for `build` (Values -> Value).

    Returns a list of (index, autograd, numeric, ok), one per input.
    """
    inputs = [Value(x) for x in point]
    build(*inputs).backward()

    def forward(*xs):
        return build(*(Value(x) for x in xs)).data

    report = []
    for i, v in enumerate(inputs):
        numeric = finite_difference(forward, point, i, h)
        ok = abs(v.grad - numeric) <= atol + rtol * abs(numeric)
        report.append((i, v.grad, numeric, ok))
    return report
