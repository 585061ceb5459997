"""The reference engine against PyTorch (float64, CPU); finite-difference checks are in tests/portable."""

import random

import pytest

from engine import MLP, Value
from tests.portable.test_engine_portable import EXPRESSIONS

torch = pytest.importorskip("torch")

TORCH_TOL = 1e-8


def t(x):
    return torch.tensor(float(x), dtype=torch.float64, requires_grad=True)


# The portable suite's expressions (one list, also run in Pyodide), plus two that
# only matter against torch: the micrograd README's and a saturated tanh.
CASES = EXPRESSIONS + [
    ("micrograd README", None, (-4.0, 2.0)),
    ("seed tanh of square, saturated", lambda a, b, c: ((a * b + c) ** 2).tanh(), (2.0, -3.0, 10.0)),
]


def micrograd_readme(a, b, relu):
    c = a + b
    d = a * b + b ** 3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + relu(b + a)
    d = d + 3 * d + relu(b - a)
    e = c - d
    f = e ** 2
    g = f / 2.0
    g = g + 10.0 / f
    return g


def _fn(name, fn):
    if name == "micrograd README":
        return (lambda a, b: micrograd_readme(a, b, lambda v: v.relu()),
                lambda a, b: micrograd_readme(a, b, torch.relu))
    torch_fn = {
        "tanh": lambda a: torch.tanh(a), "relu+": torch.relu, "relu-": torch.relu,
        "exp": torch.exp, "log": torch.log, "sigmoid": torch.sigmoid, "sigmoid-neg": torch.sigmoid,
        "softplus": torch.nn.functional.softplus, "softplus-neg": torch.nn.functional.softplus,
        "softplus-big": lambda a: torch.nn.functional.softplus(a, threshold=1000.0),
    }.get(name)
    return fn, torch_fn or _torchify(fn)


def _torchify(fn):
    """Run an expression written with Value methods on tensors."""
    def run(*xs):
        return fn(*(_TensorAdapter(x) for x in xs)).tensor
    return run


class _TensorAdapter:
    """Gives tensors the method names Values have (.tanh(), .exp(), ...)."""
    def __init__(self, tensor):
        self.tensor = tensor

    def _wrap(self, other):
        return other.tensor if isinstance(other, _TensorAdapter) else other

    def __add__(self, o): return _TensorAdapter(self.tensor + self._wrap(o))
    def __radd__(self, o): return _TensorAdapter(o + self.tensor)
    def __mul__(self, o): return _TensorAdapter(self.tensor * self._wrap(o))
    def __rmul__(self, o): return _TensorAdapter(o * self.tensor)
    def __sub__(self, o): return _TensorAdapter(self.tensor - self._wrap(o))
    def __rsub__(self, o): return _TensorAdapter(o - self.tensor)
    def __truediv__(self, o): return _TensorAdapter(self.tensor / self._wrap(o))
    def __rtruediv__(self, o): return _TensorAdapter(o / self.tensor)
    def __pow__(self, k): return _TensorAdapter(self.tensor ** k)
    def __neg__(self): return _TensorAdapter(-self.tensor)
    def tanh(self): return _TensorAdapter(torch.tanh(self.tensor))
    def exp(self): return _TensorAdapter(torch.exp(self.tensor))
    def relu(self): return _TensorAdapter(torch.relu(self.tensor))


@pytest.mark.parametrize("name,fn,point", CASES, ids=[c[0] for c in CASES])
def test_matches_torch(name, fn, point):
    ours, theirs = _fn(name, fn)
    xs = [Value(p) for p in point]
    out = ours(*xs)
    out.backward()
    ts = [t(p) for p in point]
    out_t = theirs(*ts)
    out_t.backward()
    assert out.data == pytest.approx(out_t.item(), abs=TORCH_TOL, rel=1e-12)
    for x, xt in zip(xs, ts):
        assert x.grad == pytest.approx(xt.grad.item(), abs=TORCH_TOL, rel=1e-10)


def test_random_expressions_against_torch():
    def ours(a, b, c):
        return ((a * b - c / a) ** 2 + (b * c).tanh() - a.log() * c.exp()).sigmoid() * (b - a)

    def theirs(a, b, c):
        return torch.sigmoid((a * b - c / a) ** 2 + torch.tanh(b * c) - torch.log(a) * torch.exp(c)) * (b - a)

    rng = random.Random(7)
    for _ in range(50):
        point = [rng.uniform(0.2, 2.0) for _ in range(3)]
        xs = [Value(p) for p in point]
        ours(*xs).backward()
        ts = [t(p) for p in point]
        theirs(*ts).backward()
        for x, xt in zip(xs, ts):
            assert x.grad == pytest.approx(xt.grad.item(), abs=TORCH_TOL, rel=1e-9)


def test_mlp_matches_torch_model_with_same_weights():
    model = MLP(2, [8, 8, 1])
    xs = [[1.0, 1.0], [1.5, 0.5], [0.5, 1.5], [2.0, 1.0],
          [-1.0, -1.0], [-1.5, -0.5], [-0.5, -1.5], [-2.0, -1.0]]
    ys = [1.0] * 4 + [-1.0] * 4
    loss = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))
    loss.backward()

    net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(),
                              torch.nn.Linear(8, 8), torch.nn.Tanh(),
                              torch.nn.Linear(8, 1), torch.nn.Tanh()).double()
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for layer, lin in zip(model.layers, linears):
            lin.weight.copy_(torch.tensor([[w.data for w in n.w] for n in layer.neurons], dtype=torch.float64))
            lin.bias.copy_(torch.tensor([n.b.data for n in layer.neurons], dtype=torch.float64))
    out = net(torch.tensor(xs, dtype=torch.float64)).squeeze(1)
    loss_t = ((out - torch.tensor(ys, dtype=torch.float64)) ** 2).sum()
    loss_t.backward()
    assert loss.data == pytest.approx(loss_t.item(), abs=1e-10)
    for layer, lin in zip(model.layers, linears):
        for j, n in enumerate(layer.neurons):
            for k, w in enumerate(n.w):
                assert abs(w.grad - lin.weight.grad[j, k].item()) < 1e-8
            assert abs(n.b.grad - lin.bias.grad[j].item()) < 1e-8


def test_graph_edges_carry_the_engines_local_factors():
    """The graph views draw each edge's factor from the engine's own rule."""
    from engine.gradcheck import finite_difference
    from engine.graph import to_graph

    a, b = Value(1.5), Value(-0.7)
    for build in (lambda x, y: x * y, lambda x, y: x + y, lambda x, y: x / y, lambda x, y: (x * y).tanh(),
                  lambda x, y: x * x, lambda x, y: (x - y).exp(), lambda x, y: x ** 3):
        out = build(a, b)
        graph = to_graph(out)
        root = graph["nodes"][-1]["id"]
        for edge in (e for e in graph["edges"] if e["target"] == root):
            node_of = {n["id"]: n for n in graph["nodes"]}
            child = node_of[edge["source"]]
            if child["op"]:
                continue  # an inner input: its factor is checked as the root of its own build
            i = 0 if child["data"] == a.data else 1
            uses = sum(1 for e in graph["edges"] if e["target"] == root and e["source"] == edge["source"])
            numeric = finite_difference(lambda x, y, build=build: build(Value(x), Value(y)).data, [a.data, b.data], i)
            assert abs(edge["factor"] * uses - numeric) < 1e-5, (edge, numeric)
        assert out.grad == 0.0 and a.grad == 0.0 and b.grad == 0.0  # nothing left behind
