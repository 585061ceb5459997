"""Hidden tests: every path's gradient is added, so values used twice get the sum."""

from exercises.checks import close, expect, expect_same_gradients, fmt, random_inputs


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
        expect_same_gradients(Value, lambda A, B: (lambda s: s * s + s)(A * B), (a, b), "ab",
                              f"With s = a·b and L = s·s + s at a = {fmt(a)}, b = {fmt(b)}")


def test_single_use_graph_still_right(learner):
    "Graphs without reuse still get the right gradients"
    Value = learner["Value"]
    for point in random_inputs(5, n=4, seed=54):
        expect_same_gradients(Value, lambda a, b, c, d: (a * b + c) * d, point, "abcd")
