"""Turn the graph behind a `Value` into plain data for the browser's graph views.

The result is JSON-ready: nodes in topological order (each after its inputs)
with id, label, op, data and grad, and edges from input to output, each with
its local factor (∂ output / ∂ input), computed by the node's own backward rule,
so the page never re-derives a rule.
"""


def to_graph(root, labels=None):
    """`labels` maps Value objects to names; a node's own `.label` is used otherwise."""
    labels = labels or {}
    order = root.topological_order()
    ids = {node: i for i, node in enumerate(order)}
    nodes = [
        {"id": ids[node],
         "label": labels.get(node) or node.label,
         "op": node._op,
         "data": node.data,
         "grad": node.grad}
        for node in order
    ]
    edges = [
        {"source": ids[child], "target": ids[node], "factor": factor}
        for node in order for child, factor in zip(node._children, local_factors(node))
    ]
    return {"nodes": nodes, "edges": edges}


def local_factors(node):
    """∂node/∂child for each of the node's inputs, by running its rule once with
    node.grad = 1 on zeroed inputs (every grad is put back afterwards). An input
    used twice (a * a) splits its total evenly between its two edges."""
    children = node._children
    saved = [child.grad for child in children], node.grad
    for child in children:
        child.grad = 0.0
    node.grad = 1.0
    node._backward()
    totals = [child.grad for child in children]
    for child, grad in zip(children, saved[0]):
        child.grad = grad
    node.grad = saved[1]
    return [total / sum(1 for c in children if c is child) for child, total in zip(children, totals)]


def backward_steps(root, labels=None):
    """The backward pass one node at a time, for step-through views.

    Runs the same algorithm as `Value.backward()` and records every node's grad
    after the start (output grad = 1) and after each `_backward` call.
    Returns [{"visit": node id or None, "grads": [...]}, ...].
    """
    order = root.topological_order()
    for node in order:
        node.grad = 0.0
    root.grad = 1.0
    steps = [{"visit": None, "grads": [n.grad for n in order]}]
    for i in range(len(order) - 1, -1, -1):
        node = order[i]
        if not node._children:
            continue
        node._backward()
        steps.append({"visit": i, "grads": [n.grad for n in order]})
    return steps
