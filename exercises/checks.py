"""Helpers for hidden tests: reach the learner's definitions, compare numbers.

A failing check raises `TestFailure` (an AssertionError) whose message is what
the learner reads, so write it to teach.
"""

import math
import random

from engine import Value as ReferenceValue  # noqa: F401  (re-exported for tests)


class TestFailure(AssertionError):
    """A hidden test failed; the message is shown to the learner."""


class Learner:
    """The learner's namespace, with helpful failures for missing names."""

    def __init__(self, namespace):
        self._namespace = namespace

    def __getitem__(self, name):
        if name not in self._namespace:
            raise TestFailure(f"Your code must define `{name}`; it is missing.")
        return self._namespace[name]

    def __contains__(self, name):
        return name in self._namespace


def is_number(x):
    """Only real ints and floats count: a look-alike object cannot fake a result."""
    return type(x) in (int, float) and math.isfinite(x)


def close(actual, expected, tol=1e-6):
    return is_number(actual) and math.isclose(actual, expected, rel_tol=tol, abs_tol=tol)


def expect(condition, message):
    if not condition:
        raise TestFailure(message)


def expect_number(actual, what):
    if not is_number(actual):
        raise TestFailure(f"{what} should be a number, but it is {actual!r}.")


def random_inputs(count, n=2, low=-3.0, high=3.0, seed=None):
    """Random test points, away from zero so products and ratios are informative."""
    rng = random.Random(seed)
    points = []
    while len(points) < count:
        point = [round(rng.uniform(low, high), 3) for _ in range(n)]
        if all(abs(x) > 0.25 for x in point) and len(set(point)) == n:
            points.append(point)
    return points


def fmt(x):
    return f"{x:.6g}" if is_number(x) else repr(x)


def rule_grads(Value, build, inputs, upstream, start=0.0):
    """Run one operation's own rule once: fresh inputs holding `start` as grad,
    out.grad = upstream, then out._backward(). Returns the inputs' grads."""
    values = [Value(x) for x in inputs]
    for v in values:
        v.grad = start
    out = build(*values)
    out.grad = upstream
    out._backward()
    return [v.grad for v in values]


def expect_matches_nudges(Value, build, point, h=1e-6):
    """The learner's backward pass against the finite-difference oracle, on the
    learner's own forward pass: fail naming the first input whose gradient differs."""
    from engine.gradcheck import finite_difference

    inputs = [Value(x) for x in point]
    build(*inputs).backward()
    for i, v in enumerate(inputs):
        numeric = finite_difference(lambda *xs: build(*(Value(x) for x in xs)).data, point, i, h)
        expect(close(v.grad, numeric, tol=1e-4),
               f"At {', '.join(fmt(x) for x in point)}: input {i + 1}'s gradient is {fmt(v.grad)}, "
               f"but nudging it gives {fmt(numeric)}.")


def expect_same_gradients(Value, build, point, names, where=""):
    """Backpropagate `build` through the learner's Value and through the reference
    engine at `point`; fail naming the first input whose gradient differs."""
    mine = [Value(x) for x in point]
    ref = [ReferenceValue(x) for x in point]
    build(*mine).backward()
    build(*ref).backward()
    where = where or "At " + ", ".join(f"{n} = {fmt(x)}" for n, x in zip(names, point))
    for name, m, r in zip(names, mine, ref):
        expect(close(m.grad, r.grad), f"{where}: d/d{name} should be {fmt(r.grad)}, but it is {fmt(m.grad)}.")


def expect_adds_into_grad(Value, build, points, upstream_points, what):
    """The rule must add into .grad: inputs already holding 0.5 keep it."""
    for point, g in zip(points, upstream_points):
        got = rule_grads(Value, build, point, g, start=0.5)
        want = rule_grads(ReferenceValue, build, point, g, start=0.5)
        for mine, ref in zip(got, want):
            expect(close(mine, ref), f"x already held 0.5; after {what} it should hold {fmt(ref)}, "
                                     f"not {fmt(mine)}. Use +=.")
