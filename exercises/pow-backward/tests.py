"""Hidden tests: the backward rule of x ** k, against the reference engine."""

from engine import Value as Reference
from exercises.checks import close, expect, expect_adds_into_grad, expect_matches_nudges, expect_same_gradients, fmt, random_inputs, rule_grads

EXPONENTS = (2, 3, -1, 0.5, 2.5)


def test_rule(learner):
    "x ** k sends k·xᵏ⁻¹ × out.grad back, for several k"
    Value = learner["Value"]
    for k in EXPONENTS:
        for x, g in random_inputs(4, n=2, low=0.3, high=2.5, seed=91):
            op = lambda v: v ** k
            (got,) = rule_grads(Value, op, [x], g)
            (want,) = rule_grads(Reference, op, [x], g)
            if close(got, want):
                continue
            expect(not close(got, k * x ** k * g),
                   f"For x ** {k} at x = {fmt(x)} you sent k·xᵏ × out.grad. The power rule lowers the "
                   "exponent by one: k·x^(k−1).")
            expect(not close(got, x ** (k - 1) * g),
                   f"For x ** {k} at x = {fmt(x)} you sent x^(k−1) × out.grad: multiply by k too.")
            expect(False, f"For x ** {k} at x = {fmt(x)} with out.grad = {fmt(g)}, x.grad should be "
                          f"{fmt(want)}, not {fmt(got)}.")


def test_adds(learner):
    "It adds into self.grad"
    points = random_inputs(3, n=2, low=0.3, high=2.5, seed=92)
    expect_adds_into_grad(learner["Value"], lambda v: v ** 3, [[x] for x, _ in points], [g for _, g in points], "the rule")


def test_in_a_graph(learner):
    "(a·b + 1)² · a gets the engine's gradients"
    Value = learner["Value"]
    for a, b in random_inputs(5, n=2, low=-1.5, high=1.5, seed=93):
        expect_same_gradients(Value, lambda A, B: (A * B + type(A)(1.0)) ** 2 * A, (a, b), "ab")


def test_matches_the_nudge_oracle(learner):
    "(a·b)³ · a⁻¹: every gradient matches finite differences"
    Value = learner["Value"]
    for point in random_inputs(5, n=2, low=0.5, high=2.0, seed=7):
        expect_matches_nudges(Value, lambda a, b: (a * b) ** 3 * a ** -1, point)
