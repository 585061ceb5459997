"""Hidden tests: the tail of `backward()`. They watch which `_backward` runs
when, so each mistake gets a message about what actually happened."""

from engine import Value as Reference
from exercises.checks import close, expect, fmt, random_inputs


def _graph(Value, a, b, c, d):
    a, b, c, d = Value(a), Value(b), Value(c), Value(d)
    e = a * b
    f = e + c
    L = f * d
    return [a, b, c, d, e, f, L]


def _record_visits(nodes):
    """Wrap each node's _backward to log (node, its grad when visited)."""
    visits = []
    for node in nodes:
        original = node._backward

        def logged(node=node, original=original):
            visits.append((node, node.grad))
            original()
        node._backward = logged
    return visits


def test_visits_every_node_in_reverse_order(learner):
    "backward() calls _backward on every node, each after all the nodes that use it"
    Value = learner["Value"]
    a, b, c, d, e, f, L = nodes = _graph(Value, 2.0, 3.0, 1.0, -2.0)
    visits = _record_visits(nodes)
    L.backward()
    seen = [node for node, _ in visits]
    expect(e in seen and f in seen,
           "Only some nodes' _backward ran (e = a·b and f = e + c never did). Call _backward on "
           "every node in topo, from the output back to the inputs, not only on the output.")
    expect(len(seen) == len(set(seen)), "Some node's _backward ran twice: visit each node once.")
    order = {node: i for i, node in enumerate(seen)}
    expect(order[L] < order[f] < order[e],
           "The nodes were visited from the inputs to the output, so a node ran before its gradient "
           "was complete. Walk topo from its end: reversed(topo).")


def test_starts_from_one(learner):
    "The output starts with gradient 1 (∂L/∂L = 1)"
    Value = learner["Value"]
    nodes = _graph(Value, 2.0, 3.0, 1.0, -2.0)
    L = nodes[-1]
    visits = _record_visits(nodes)
    L.backward()
    start = [g for node, g in visits if node is L]
    expect(start, "The output's _backward never ran: call _backward on every node, the output included.")
    expect(close(start[0], 1.0),
           f"When the output's rule ran, its gradient was {fmt(start[0])}. Give it the starting "
           "gradient first: self.grad = 1.0, since every gradient is a product that starts from it.")


def test_lab_graph_at_random_inputs(learner):
    "L = (a·b + c)·d: every gradient matches the reference engine at random inputs"
    Value = learner["Value"]
    for point in random_inputs(10, n=4, seed=21):
        mine = _graph(Value, *point)
        ref = _graph(Reference, *point)
        mine[-1].backward()
        ref[-1].backward()
        for name, m, r in zip("abcdef", mine, ref):
            expect(close(m.grad, r.grad),
                   f"At a, b, c, d = {', '.join(fmt(x) for x in point)}: dL/d{name} should be "
                   f"{fmt(r.grad)}, but it is {fmt(m.grad)}.")


def test_value_used_twice(learner):
    "y = x·x + x gives dy/dx = 2x + 1"
    Value = learner["Value"]
    for (x,) in random_inputs(5, n=1, seed=22):
        X = Value(x)
        (X * X + X).backward()
        expect(close(X.grad, 2 * x + 1),
               f"For y = x·x + x at x = {fmt(x)}, x.grad should be {fmt(2 * x + 1)}, but it is {fmt(X.grad)}.")


def test_tanh_neuron(learner):
    "A tanh neuron, tanh(w1·x1 + w2·x2 + b), gets its weights' gradients right"
    Value = learner["Value"]
    for w1, w2, b, x1, x2 in random_inputs(5, n=5, low=-1.5, high=1.5, seed=23):
        mine = [Value(v) for v in (w1, w2, b, x1, x2)]
        ref = [Reference(v) for v in (w1, w2, b, x1, x2)]
        for W1, W2, B, X1, X2 in (mine, ref):
            (W1 * X1 + W2 * X2 + B).tanh().backward()
        for name, m, r in zip(("w1", "w2", "b"), mine, ref):
            expect(close(m.grad, r.grad),
                   f"For the neuron with w1 = {fmt(w1)}, w2 = {fmt(w2)}, b = {fmt(b)}: d out/d{name} "
                   f"should be {fmt(r.grad)}, but it is {fmt(m.grad)}.")
