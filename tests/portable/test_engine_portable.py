"""Engine checks that need neither pytest nor torch.

pytest collects them under CPython, and tests/pyodide/run_tests.mjs runs the very
same functions inside Pyodide (Python 3.14, the browser's interpreter).
"""

import math

from engine import MLP, Value, check_gradients, to_graph

# seconds each, so left out of `make test-fast` (tests/conftest.py)
SLOW = {"test_200k_node_chain_backpropagates", "test_training_fits_the_eight_points"}

# (name, expression on Values, point)
EXPRESSIONS = [
    ("add", lambda a, b: a + b, (2.0, 3.0)),
    ("mul", lambda a, b: a * b, (2.0, 3.0)),
    ("sub", lambda a, b: a - b, (2.0, 3.0)),
    ("div", lambda a, b: a / b, (2.0, 3.0)),
    ("pow3", lambda a: a ** 3, (2.0,)),
    ("pow-half", lambda a: a ** -0.5, (1.7,)),
    ("neg", lambda a: -a, (1.3,)),
    ("radd", lambda a: 2 + a, (1.3,)),
    ("rmul", lambda a: 2 * a, (1.3,)),
    ("rsub", lambda a: 1 - a, (1.3,)),
    ("rtruediv", lambda a: 3 / a, (1.3,)),
    ("tanh", lambda a: a.tanh(), (0.7,)),
    ("relu+", lambda a: a.relu(), (0.7,)),
    ("relu-", lambda a: a.relu(), (-0.7,)),
    ("exp", lambda a: a.exp(), (0.5,)),
    ("log", lambda a: a.log(), (2.5,)),
    ("sigmoid", lambda a: a.sigmoid(), (0.3,)),
    ("sigmoid-neg", lambda a: a.sigmoid(), (-4.0,)),
    ("softplus", lambda a: a.softplus(), (0.8,)),
    ("softplus-neg", lambda a: a.softplus(), (-30.0,)),
    ("softplus-big", lambda a: a.softplus(), (40.0,)),
    ("diamond a+a", lambda a: a + a, (3.0,)),
    ("square x*x", lambda a: a * a, (3.0,)),
    ("x-x", lambda a: a - a, (3.0,)),
    ("reused subgraph", lambda a: (lambda s: s * s + s)(a.tanh()), (0.4,)),
    ("seed whole graph", lambda a, b, c: (a * b + b ** 2) * c.tanh(), (2.0, -3.0, 0.5)),
    ("seed tanh of square", lambda a, b, c: ((a * b + c) ** 2).tanh(), (0.2, -0.3, 0.4)),
    ("level graph", lambda a, b, c, d: (a * b + c) * d, (2.0, 3.0, 1.0, -2.0)),
    ("composite", lambda a, b, c: ((a * b + c).tanh() * a + (0.5 * b).exp()) / c, (0.6, -0.8, 1.7)),
]


def micrograd_readme(a, b):
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    return g


def test_every_expression_matches_finite_differences():
    for name, fn, point in EXPRESSIONS + [("micrograd README", micrograd_readme, (-4.0, 2.0))]:
        for i, autograd, numeric, ok in check_gradients(fn, point):
            assert ok, f"{name}, input {i}: autograd {autograd} vs finite difference {numeric}"


def test_micrograd_readme_numbers():
    a, b = Value(-4.0), Value(2.0)
    g = micrograd_readme(a, b)
    g.backward()
    assert (round(g.data, 4), round(a.grad, 4), round(b.grad, 4)) == (24.7041, 138.8338, 645.5773)


def test_chain_rule_by_hand_numbers():
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    L = (a * b + c) ** 2
    L.backward()
    assert (L.data, a.grad, b.grad, c.grad) == (16.0, -24.0, 16.0, 8.0)


def test_level_graph_numbers():
    a, b, c, d = Value(2.0), Value(3.0), Value(1.0), Value(-2.0)
    L = (a * b + c) * d
    L.backward()
    assert (L.data, a.grad, b.grad, c.grad, d.grad) == (-14.0, -6.0, -4.0, -2.0, 7.0)


def test_tanh_neuron_numbers():
    w1, w2, b = Value(0.8), Value(-0.3), Value(0.1)
    (w1 * 0.5 + w2 * -1.2 + b).tanh().backward()
    assert [round(v.grad, 8) for v in (w1, w2, b)] == [0.25761263, -0.6182703, 0.51522525]


def test_clear_errors():
    for bad, kind, words in [
        (lambda: Value(2.0) ** Value(3.0), TypeError, "exponent"),
        (lambda: 2 ** Value(3.0), TypeError, "exponent"),
        (lambda: Value(0.0).log(), ValueError, "non-positive"),
        (lambda: Value(-1.0).log(), ValueError, "non-positive"),
        (lambda: Value(1.0) / 0, ZeroDivisionError, "zero"),
        (lambda: Value(1.0) + "2", TypeError, "cannot combine"),
    ]:
        try:
            bad()
        except kind as e:
            assert words in str(e), str(e)
        else:
            raise AssertionError(f"expected {kind.__name__}")


def test_sigmoid_does_not_overflow():
    assert Value(-1000.0).sigmoid().data == 0.0
    assert Value(1000.0).sigmoid().data == 1.0


def test_second_backward_accumulates_into_leaves_only():
    a, b = Value(2.0), Value(3.0)
    L = (a * b + a) * b
    L.backward()
    first = (a.grad, b.grad)
    L.backward()
    assert (a.grad, b.grad) == (2 * first[0], 2 * first[1])
    assert L.grad == 1.0


def test_200k_node_chain_backpropagates():
    x = Value(0.5)
    out = sum((x * 1.0 for _ in range(100_000)), Value(0.0))
    assert len(out.topological_order()) == 300_002  # x, 0, 100k constants, 100k products, 100k sums
    out.backward()
    assert math.isclose(x.grad, 100_000.0)


def test_topological_order_is_the_lessons_order():
    a, b, c, d = (Value(v, label=n) for v, n in [(2, "a"), (3, "b"), (1, "c"), (-2, "d")])
    e = a * b
    f = e + c
    L = f * d
    e.label, f.label, L.label = "e", "f", "L"
    assert [n.label for n in L.topological_order()] == ["a", "b", "e", "c", "f", "d", "L"]


def test_graph_export():
    a, b = Value(2.0, label="a"), Value(3.0)
    out = a * b + b
    out.backward()
    g = to_graph(out, labels={b: "b"})
    assert [n["label"] for n in g["nodes"]] == ["a", "b", "", ""]
    assert [n["op"] for n in g["nodes"]] == ["", "", "*", "+"]
    assert g["nodes"][1]["grad"] == 3.0
    assert {(e["source"], e["target"]) for e in g["edges"]} == {(0, 2), (1, 2), (2, 3), (1, 3)}


def test_mlp_shape_seed_and_zero_grad():
    model = MLP(2, [8, 8, 1])
    assert len(model.parameters()) == 105
    assert [p.data for p in MLP(2, [8, 8, 1]).parameters()] == [p.data for p in model.parameters()]
    assert [p.data for p in MLP(2, [8, 8, 1], seed=1).parameters()] != [p.data for p in model.parameters()]
    out = model([1.0, -1.0])
    assert isinstance(out, Value)
    out.backward()
    assert any(p.grad != 0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0 for p in model.parameters())


def test_training_fits_the_eight_points():
    model = MLP(2, [8, 8, 1])
    xs = [[1.0, 1.0], [1.5, 0.5], [0.5, 1.5], [2.0, 1.0],
          [-1.0, -1.0], [-1.5, -0.5], [-0.5, -1.5], [-2.0, -1.0]]
    ys = [1.0] * 4 + [-1.0] * 4
    losses = []
    for _ in range(120):
        loss = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.05 * p.grad
        losses.append(loss.data)
    assert losses[-1] < 0.05 * losses[0], (losses[0], losses[-1])
    assert all(math.copysign(1, model(x).data) == y for x, y in zip(xs, ys))


def test_backward_steps_end_where_backward_ends():
    from engine import backward_steps
    a, b, c, d = Value(2.0), Value(3.0), Value(1.0), Value(-2.0)
    L = (a * b + c) * d
    steps = backward_steps(L)
    assert steps[0]["grads"][-1] == 1.0 and steps[0]["visit"] is None
    assert [s["visit"] for s in steps[1:]] == [6, 4, 2]  # L, f, e
    a, b, c, d = Value(2.0), Value(3.0), Value(1.0), Value(-2.0)
    L = (a * b + c) * d
    L.backward()
    assert steps[-1]["grads"] == [n.grad for n in L.topological_order()]
