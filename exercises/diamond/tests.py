"""Hidden tests: every path's gradient is added, so values used twice get the sum."""

from engine import Value as Reference
from exercises.checks import close, expect, fmt, random_inputs


def test_diamond(learner):
    "a + a gives a.grad = 2"
    Value = learner["Value"]
    for (x,) in random_inputs(3, n=1, seed=51):
        a = Value(x)
        (a + a).backward()
        expect(close(a.grad, 2.0),
               f"For b = a + a, a.grad should be 2 (one from each path), but it is {fmt(a.grad)}: "
               "the sum's _backward overwrites instead of adding. Use += in __add__.")


def test_square(learner):
    "x * x gives 2x"
    Value = learner["Value"]
    for (x,) in random_inputs(3, n=1, seed=52):
        X = Value(x)
        (X * X).backward()
        expect(close(X.grad, 2 * x),
               f"For y = x * x at x = {fmt(x)}, x.grad should be {fmt(2 * x)}, but it is {fmt(X.grad)}: "
               "the product's _backward overwrites instead of adding. Use += in __mul__.")


def test_reused_subgraph(learner):
    "A reused in-between result, s·s + s with s = a·b, gets every path"
    Value = learner["Value"]
    for a, b in random_inputs(5, n=2, seed=53):
        mine, ref = (Value(a), Value(b)), (Reference(a), Reference(b))
        for A, B in (mine, ref):
            s = A * B
            (s * s + s).backward()
        for name, m, r in zip("ab", mine, ref):
            expect(close(m.grad, r.grad),
                   f"With s = a·b and L = s·s + s at a = {fmt(a)}, b = {fmt(b)}: dL/d{name} should be "
                   f"{fmt(r.grad)}, but it is {fmt(m.grad)}.")


def test_single_use_graph_still_right(learner):
    "Graphs without reuse still get the right gradients"
    Value = learner["Value"]
    for point in random_inputs(5, n=4, seed=54):
        mine, ref = [Value(x) for x in point], [Reference(x) for x in point]
        for a, b, c, d in (mine, ref):
            ((a * b + c) * d).backward()
        for name, m, r in zip("abcd", mine, ref):
            expect(close(m.grad, r.grad), f"dL/d{name} should be {fmt(r.grad)}, but it is {fmt(m.grad)}.")
