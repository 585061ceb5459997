# The answer key (grader/catalog.py): the reference engine differentiates the graph.
from engine import Value


def gradients(a, b, c):
    a, b, c = Value(a), Value(b), Value(c)
    loss = (a * b + c) ** 2
    loss.backward()
    return a.grad, b.grad, c.grad
