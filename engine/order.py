"""The order a backward pass visits a graph in, apart from the engine: the code the
course gives a learner (engine.given) needs it, and a grading interpreter is given
that code without the reference engine's rules (grader/gives.py)."""


def topological_order(root):
    """Every node of the graph behind `root`, each after all of its inputs.

    Iterative depth-first search, children in their recorded order, so the list
    is the same on every run (the order a recursive `build` gives) and no depth
    can overflow the stack. Works on any node with `_children`, so the code the
    course gives a learner (engine.given) walks the learner's own Values with it,
    whether they keep their children in a tuple, a list or a set, as micrograd does.
    """
    order, seen = [], set()
    stack = [(root, False)]
    while stack:
        node, inputs_done = stack.pop()
        if inputs_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        try:
            children = reversed(node._children)
        except TypeError:  # a set: any order of inputs gives a right order
            children = node._children
        for child in children:
            if child not in seen:
                stack.append((child, False))
    return order
