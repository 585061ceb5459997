"""Code the course gives a learner before they write it themselves.

The autograd level's first exercises need a working `backward` on the learner's
own Value class, but section 4 asks them to write its end (the starting gradient
and the walk in reverse order); spelling it out in those starters would show the
answer before the question. Their `backward` calls `backward_pass` instead.
"""

from .order import topological_order


def backward_pass(root):
    """What `backward` does, on any Value-like node (data, grad, _children,
    _backward): the output's own gradient is 1, then each node, from the end of
    a topological order, sends its gradient to its inputs."""
    order = topological_order(root)
    root.grad = 1.0
    for node in reversed(order):
        node._backward()
