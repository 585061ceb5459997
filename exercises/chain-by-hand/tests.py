"""Hidden tests: the chain rule by hand, against the reference engine."""

from engine import Value
from exercises.checks import close, expect, expect_number, fmt, random_inputs


def _reference(a, b, c):
    A, B, C = Value(a), Value(b), Value(c)
    ((A * B + C) ** 2).backward()
    return A.grad, B.grad, C.grad


def test_page_numbers(learner):
    "At a = 2, b = −3, c = 10 the gradients are −24, 16 and 8"
    got = learner["gradients"](2.0, -3.0, 10.0)
    expect(isinstance(got, tuple) and len(got) == 3, "gradients() should return three numbers: dL_da, dL_db, dL_dc.")
    for name, g, want in zip(("dL/da", "dL/db", "dL/dc"), got, (-24.0, 16.0, 8.0)):
        expect_number(g, name)
        expect(close(g, want), f"At a = 2, b = −3, c = 10, {name} should be {fmt(want)}, but it is {fmt(g)}.")


def test_random_points(learner):
    "Every gradient matches the engine at random points"
    for a, b, c in random_inputs(10, n=3, seed=41):
        got = learner["gradients"](a, b, c)
        want = _reference(a, b, c)
        d = a * b + c
        for name, g, w, local in zip(("a", "b", "c"), got, want, (b, a, 1.0)):
            if close(g, w):
                continue
            expect(not close(g, local),
                   f"dL/d{name} came out as its local factor alone ({fmt(g)}). Multiply each local factor "
                   "times the gradient handed down from the node above (dL_de for a and b).")
            expect(not (name in "ab" and close(g, (a if name == "a" else b) * 2 * d)),
                   f"dL/d{name} used its own value. In a·b, each input's local factor is the other input: "
                   "a gets b, b gets a.")
            expect(False, f"At a, b, c = {fmt(a)}, {fmt(b)}, {fmt(c)}: dL/d{name} should be {fmt(w)}, "
                          f"but it is {fmt(g)}.")
