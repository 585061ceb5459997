"""Hidden tests: the backward rule of tanh, against the reference engine."""

from engine import Value as Reference
from exercises.checks import close, expect, expect_adds_into_grad, expect_matches_nudges, expect_same_gradients, fmt, random_inputs, rule_grads

import math


def op(v):
    return v.tanh()


def test_rule(learner):
    "tanh sends (1 − t²) × out.grad back, at random x and out.grad"
    Value = learner["Value"]
    for x, g in random_inputs(10, n=2, seed=61):
        (got,) = rule_grads(Value, op, [x], g)
        (want,) = rule_grads(Reference, op, [x], g)
        if close(got, want):
            continue
        t = math.tanh(x)
        expect(not close(got, (1 - t) * g),
               f"At x = {fmt(x)} you sent {fmt(got)}: that is (1 − t) × out.grad. The derivative of tanh "
               "is 1 − t², with t = tanh(x): square it.")
        expect(not close(got, (1 - x * x) * g),
               f"At x = {fmt(x)} you sent {fmt(got)}: that squares the input x. The rule uses "
               "t = tanh(x), the output: 1 − t².")
        expect(False, f"At x = {fmt(x)} with out.grad = {fmt(g)}, x.grad should be {fmt(want)}, not {fmt(got)}.")


def test_adds(learner):
    "It adds into self.grad"
    points = random_inputs(3, n=2, seed=62)
    expect_adds_into_grad(learner["Value"], op, [[x] for x, _ in points], [g for _, g in points], "tanh's rule")


def test_neuron(learner):
    "A tanh neuron, tanh(w·x + b), gets the engine's gradients"
    Value = learner["Value"]
    for w, x, b in random_inputs(5, n=3, low=-1.5, high=1.5, seed=63):
        expect_same_gradients(Value, lambda W, X, B: (W * X + B).tanh(), (w, x, b), ("w", "x", "b"))


def test_matches_the_nudge_oracle(learner):
    "(w·x).tanh()·w: every gradient matches finite differences"
    Value = learner["Value"]
    for point in random_inputs(5, n=2, low=-1.5, high=1.5, seed=7):
        expect_matches_nudges(Value, lambda w, x: (w * x).tanh() * w, point)
