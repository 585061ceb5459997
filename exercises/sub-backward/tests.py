"""Hidden tests: the two lines of `_backward` in `__sub__`."""

from exercises.checks import close, expect, expect_same_gradients, fmt, random_inputs, rule_grads


def _difference(a, b):
    return a - b


def test_self_gets_plus_out_grad(learner):
    "out = self − other sends +out.grad to self"
    Value = learner["Value"]
    for a, b, g in random_inputs(10, n=3, seed=11):
        got, _ = rule_grads(Value, _difference, [a, b], g)
        expect(close(got, g),
               f"With out.grad = {fmt(g)}, self.grad should be {fmt(g)} but is {fmt(got)}. "
               "When self grows, out grows by the same amount: self gets +1 × out.grad, as in a sum.")


def test_other_gets_minus_out_grad(learner):
    "out = self − other sends −out.grad to other"
    Value = learner["Value"]
    for a, b, g in random_inputs(10, n=3, seed=12):
        _, got = rule_grads(Value, _difference, [a, b], g)
        expect(close(got, -g),
               f"With out.grad = {fmt(g)}, other.grad should be {fmt(-g)} but is {fmt(got)}. "
               "When other grows, out shrinks: other gets −1 × out.grad (other.grad -= out.grad).")


def test_adds_to_what_is_there(learner):
    "Both lines add into .grad, keeping gradient from other uses"
    Value = learner["Value"]
    for a, b, g in random_inputs(5, n=3, seed=13):
        got_a, got_b = rule_grads(Value, _difference, [a, b], g, start=0.5)
        expect(close(got_a, 0.5 + g) and close(got_b, 0.5 - g),
               f"Both inputs already held 0.5; after the rule they should hold {fmt(0.5 + g)} and "
               f"{fmt(0.5 - g)}, but hold {fmt(got_a)} and {fmt(got_b)}. With = instead of += or -=, "
               "a value used in several places keeps only its last part.")


def test_x_minus_x(learner):
    "y = x − x gives dy/dx = 0"
    Value = learner["Value"]
    for (x, g) in random_inputs(5, n=2, seed=14):
        X = Value(x)
        y = X - X
        y.grad = g
        y._backward()
        expect(close(X.grad, 0.0),
               f"For y = x − x, x.grad should be 0 (the two parts, +{fmt(g)} and −{fmt(g)}, cancel), "
               f"but it is {fmt(X.grad)}: a value used twice keeps only its last part unless both lines add.")


def test_in_a_graph(learner):
    "L = (a − b)·a gets every gradient right, at random inputs"
    Value = learner["Value"]
    for point in random_inputs(10, n=2, seed=15):
        expect_same_gradients(Value, lambda a, b: (a - b) * a, point, "ab")
