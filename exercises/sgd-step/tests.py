"""Hidden tests: one SGD step, compared parameter by parameter with the reference."""

from engine import MLP as ReferenceMLP
from engine.training import squared_error
from exercises.checks import close, expect, fmt

XS = [[0.5, -1.0], [1.5, 0.5], [-0.5, 1.0], [-2.0, -0.5]]
YS = [1.0, 1.0, -1.0, -1.0]


def _reference_step(model, lr):
    loss = squared_error(model, XS, YS)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss.data


def _pair(learner, seed):
    return learner["MLP"](2, [4, 1], seed=seed), ReferenceMLP(2, [4, 1], seed=seed)


def _compare(mine, ref, start, what):
    for m, r, s in zip(mine.parameters(), ref.parameters(), start):
        if close(m.data, r.data, tol=1e-9):
            continue
        moved, should = m.data - s, r.data - s
        expect(not close(moved, 0.0, tol=1e-12), f"{what}: the parameters did not move. Update p.data.")
        expect(not close(moved, -should, tol=1e-9),
               f"{what}: every parameter moved the wrong way, so you stepped uphill. p.grad points toward "
               "more loss: subtract lr × p.grad.")
        return False
    return True


def test_one_step(learner):
    "One step moves every parameter by −lr × its gradient"
    for seed, lr in ((3, 0.05), (4, 0.01)):
        mine, ref = _pair(learner, seed)
        start = [p.data for p in ref.parameters()]
        loss = learner["train_step"](mine, XS, YS, lr)
        want = _reference_step(ref, lr)
        expect(close(loss, want, tol=1e-9), f"train_step should return the loss before the step, {fmt(want)}, not {fmt(loss)}.")
        expect(_compare(mine, ref, start, f"With lr = {lr}"),
               f"With lr = {lr}, the parameters after one step differ from −lr × grad. "
               "Use the lr you are given, not a fixed number.")


def test_two_steps(learner):
    "A second step starts from fresh gradients"
    mine, ref = _pair(learner, 5)
    for step in range(2):
        start = [p.data for p in ref.parameters()]
        learner["train_step"](mine, XS, YS, 0.05)
        _reference_step(ref, 0.05)
        if step == 1:
            expect(_compare(mine, ref, start, "On the second step"),
                   "The first step was right but the second was not: the gradients piled up from the "
                   "previous step. Set every p.grad to 0 before loss.backward().")


def test_training_lowers_the_loss(learner):
    "Twenty steps lower the loss"
    mine, _ = _pair(learner, 6)
    losses = [learner["train_step"](mine, XS, YS, 0.05) for _ in range(20)]
    expect(losses[-1] < losses[0], f"The loss went from {fmt(losses[0])} to {fmt(losses[-1])}: it should fall.")
