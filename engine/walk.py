"""The end of `backward`, given to the exercise that asks for the order itself: in a
module of its own, so that exercise is given no topological order (grader/gives.py)."""


def walk_in_reverse(root, order):
    """The end of `backward`, for the exercise that asks for `order` itself: the
    output's gradient is 1, then every node of `order`, from its end, runs its
    rule. A wrong order (or a node listed twice) gives wrong gradients here, as
    it would in the learner's own walk."""
    root.grad = 1.0
    for node in reversed(order):
        node._backward()
