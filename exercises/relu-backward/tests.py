"""Hidden tests: the backward rule of relu, against the reference engine."""

from engine import Value as Reference
from exercises.checks import close, expect, expect_adds_into_grad, expect_matches_nudges, expect_same_gradients, fmt, random_inputs, rule_grads

def op(v):
    return v.relu()


def test_rule(learner):
    "relu passes out.grad back where x > 0, and nothing where x < 0"
    Value = learner["Value"]
    for x, g in random_inputs(12, n=2, seed=81):
        (got,) = rule_grads(Value, op, [x], g)
        (want,) = rule_grads(Reference, op, [x], g)
        if close(got, want):
            continue
        expect(not (x < 0 and close(got, g)),
               f"At x = {fmt(x)} (negative) you sent {fmt(got)} back, but relu's output there is flat at 0: "
               "no gradient flows where the input was negative.")
        expect(not close(got, max(x, 0) * g),
               f"At x = {fmt(x)} you sent out.data × out.grad. The local factor of relu is 1 where x > 0 "
               "and 0 elsewhere, not the output itself.")
        expect(False, f"At x = {fmt(x)} with out.grad = {fmt(g)}, x.grad should be {fmt(want)}, not {fmt(got)}.")


def test_adds(learner):
    "It adds into self.grad"
    points = random_inputs(4, n=2, seed=82)
    expect_adds_into_grad(learner["Value"], op, [[x] for x, _ in points], [g for _, g in points], "relu's rule")


def test_neuron(learner):
    "A relu neuron, relu(w·x + b), gets the engine's gradients"
    Value = learner["Value"]
    for w, x, b in random_inputs(6, n=3, seed=83):
        expect_same_gradients(Value, lambda W, X, B: (W * X + B).relu(), (w, x, b), ("w", "x", "b"))


def test_matches_the_nudge_oracle(learner):
    "relu(a·b)·a: every gradient matches finite differences"
    Value = learner["Value"]
    for point in random_inputs(5, n=2, low=-3.0, high=3.0, seed=7):
        expect_matches_nudges(Value, lambda a, b: (a * b).relu() * a, point)
