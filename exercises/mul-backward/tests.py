"""Hidden tests: the first line of `_backward` in `__mul__`."""

from exercises.checks import close, expect, expect_same_gradients, fmt, random_inputs, rule_grads


def _product(a, b):
    return a * b


def test_other_input_times_out_grad(learner):
    "A product sends the other input × out.grad to its first input"
    Value = learner["Value"]
    page_ok = close(rule_grads(Value, _product, [2.0, 3.0], 1.0)[0], 3.0)
    for a, b, g in random_inputs(20, n=3, seed=1):
        got, _ = rule_grads(Value, _product, [a, b], g)
        if close(got, b * g):
            continue
        expect(not close(got, a * g),
               f"With a = {fmt(a)}, b = {fmt(b)} and out.grad = {fmt(g)}, a.grad came out as a × out.grad. "
               "Each input gets the other input's data times out.grad: self gets other.data × out.grad.")
        expect(not close(got, b),
               f"With out.grad = {fmt(g)}, a.grad came out as b alone. Multiply by out.grad: "
               "it is how much L moves per unit of out, and the chain rule multiplies it in.")
        expect(not page_ok,
               f"a.grad is right for a = 2, b = 3, but with a = {fmt(a)}, b = {fmt(b)}, "
               f"out.grad = {fmt(g)} it is {fmt(got)}, not {fmt(b * g)}. The answer works only for the "
               "page's numbers: use other.data and out.grad, not fixed numbers.")
        expect(False, f"With a = {fmt(a)}, b = {fmt(b)} and out.grad = {fmt(g)}, a.grad should be "
                      f"{fmt(b * g)}, but it is {fmt(got)}.")


def test_adds_to_what_is_there(learner):
    "It adds into self.grad, keeping gradient that arrived from other uses"
    Value = learner["Value"]
    for a, b, g in random_inputs(5, n=3, seed=2):
        got, _ = rule_grads(Value, _product, [a, b], g, start=0.5)
        if close(got, 0.5 + b * g):
            continue
        expect(not close(got, b * g),
               f"a already held a gradient of 0.5 from another use; after the product's rule it is "
               f"{fmt(got)}, not {fmt(0.5 + b * g)}. With = instead of +=, a value used in several "
               "places keeps only its last part: add into self.grad.")
        expect(False, f"a already held a gradient of 0.5; after the product's rule (a = {fmt(a)}, "
                      f"b = {fmt(b)}, out.grad = {fmt(g)}) it should be {fmt(0.5 + b * g)}, "
                      f"but it is {fmt(got)}.")


def test_square(learner):
    "y = x · x gives dy/dx = 2x"
    Value = learner["Value"]
    for (x,) in random_inputs(5, n=1, seed=3):
        X = Value(x)
        y = X * X
        y.grad = 1.0
        y._backward()
        expect(close(X.grad, 2 * x),
               f"For y = x · x at x = {fmt(x)}, x.grad should be 2x = {fmt(2 * x)}, but it is {fmt(X.grad)}.")


def test_lab_graph(learner):
    "The lab's graph L = (a·b + c)·d gets every gradient right, at random inputs"
    Value = learner["Value"]
    for point in random_inputs(10, n=4, seed=4):
        expect_same_gradients(Value, lambda a, b, c, d: (a * b + c) * d, point, "abcd")
