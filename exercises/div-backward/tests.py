"""Hidden tests: the backward rule of division, against the reference engine."""

from engine import Value as Reference
from exercises.checks import close, expect, expect_matches_nudges, expect_same_gradients, fmt, random_inputs, rule_grads

def op(a, b):
    return a / b


def test_numerator(learner):
    "a / b sends out.grad / b to a"
    Value = learner["Value"]
    for a, b, g in random_inputs(10, n=3, seed=101):
        got, _ = rule_grads(Value, op, [a, b], g)
        want, _ = rule_grads(Reference, op, [a, b], g)
        expect(close(got, want), f"At a = {fmt(a)}, b = {fmt(b)}, out.grad = {fmt(g)}: a.grad should be "
                                 f"{fmt(want)} (out.grad / b), not {fmt(got)}.")


def test_denominator(learner):
    "a / b sends −a/b² × out.grad to b"
    Value = learner["Value"]
    for a, b, g in random_inputs(10, n=3, seed=102):
        _, got = rule_grads(Value, op, [a, b], g)
        _, want = rule_grads(Reference, op, [a, b], g)
        if close(got, want):
            continue
        expect(not close(got, -want),
               "b.grad came out as +a/b² × out.grad. When b grows, a / b shrinks: the local factor is −a / b².")
        expect(not close(got, -a / b * g),
               "b.grad came out as −a/b × out.grad: divide by b squared, −a / b².")
        expect(False, f"At a = {fmt(a)}, b = {fmt(b)}, out.grad = {fmt(g)}: b.grad should be {fmt(want)}, not {fmt(got)}.")


def test_adds_and_reuse(learner):
    "x / x gives 0, and both lines add into .grad"
    Value = learner["Value"]
    for (x,) in random_inputs(4, n=1, seed=103):
        X = Value(x)
        (X / X).backward()
        expect(close(X.grad, 0.0), f"For y = x / x, x.grad should be 0, but it is {fmt(X.grad)}: both lines must add (+=).")


def test_in_a_graph(learner):
    "(a·b) / (a + b) gets the engine's gradients"
    Value = learner["Value"]
    for a, b in random_inputs(5, n=2, low=0.5, high=2.5, seed=104):
        expect_same_gradients(Value, lambda A, B: (A * B) / (A + B), (a, b), "ab")


def test_matches_the_nudge_oracle(learner):
    "(a·a) / (a·b): every gradient matches finite differences"
    Value = learner["Value"]
    for point in random_inputs(5, n=2, low=0.5, high=2.5, seed=7):
        expect_matches_nudges(Value, lambda a, b: (a * a) / (a * b), point)
