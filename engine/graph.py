"""Turn the graph behind a `Value` into plain data for the browser's graph views.

The result is JSON-ready: nodes in topological order (each after its inputs)
with id, label, op, data and grad, and edges from input to output.
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
        {"source": ids[child], "target": ids[node]}
        for node in order for child in node._children
    ]
    return {"nodes": nodes, "edges": edges}


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
