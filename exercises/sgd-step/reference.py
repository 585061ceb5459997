# The answer key (grader/catalog.py): one step of gradient descent with the
# reference engine's own MLP helpers, written apart from solution.py.
from engine import MLP  # noqa: F401 - the network the exercise gives, which the probe trains


def train_step(model, xs, ys, lr=0.05):
    loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys))
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data += -lr * p.grad
    return loss.data
