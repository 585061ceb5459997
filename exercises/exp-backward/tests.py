"""Hidden tests: the backward rule of exp, against the reference engine."""

from engine import Value as Reference
from exercises.checks import close, expect, expect_adds_into_grad, expect_matches_nudges, expect_same_gradients, fmt, random_inputs, rule_grads


def op(v):
    return v.exp()


def test_rule(learner):
    "exp sends eˣ × out.grad back, at random x and out.grad"
    Value = learner["Value"]
    for x, g in random_inputs(10, n=2, low=-2, high=2, seed=71):
        (got,) = rule_grads(Value, op, [x], g)
        (want,) = rule_grads(Reference, op, [x], g)
        if close(got, want):
            continue
        expect(not close(got, g),
               f"At x = {fmt(x)} you sent out.grad alone ({fmt(got)}). The local factor of eˣ is eˣ itself: "
               "multiply by e, the output.")
        expect(not close(got, x * g),
               f"At x = {fmt(x)} you sent x × out.grad. eˣ is its own derivative: use e = exp(x), not x.")
        expect(False, f"At x = {fmt(x)} with out.grad = {fmt(g)}, x.grad should be {fmt(want)}, not {fmt(got)}.")


def test_adds(learner):
    "It adds into self.grad"
    points = random_inputs(3, n=2, low=-2, high=2, seed=72)
    expect_adds_into_grad(learner["Value"], op, [[x] for x, _ in points], [g for _, g in points], "exp's rule")


def test_in_a_graph(learner):
    "exp(a·b) · a gets the engine's gradients"
    Value = learner["Value"]
    for a, b in random_inputs(5, n=2, low=-1.5, high=1.5, seed=73):
        expect_same_gradients(Value, lambda A, B: (A * B).exp() * A, (a, b), "ab")


def test_matches_the_nudge_oracle(learner):
    "exp(a·b) + a: every gradient matches finite differences"
    Value = learner["Value"]
    for point in random_inputs(5, n=2, low=-1.5, high=1.5, seed=7):
        expect_matches_nudges(Value, lambda a, b: (a * b).exp() + a, point)
