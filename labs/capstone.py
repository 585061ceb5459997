"""The capstone: the learner's own engine, assembled from their solved blanks, trains a network.

Each exercise of the course has the learner write one method of `Value`. Here the
reference engine's source runs afresh (so every `Value(...)` inside it means the
new class), and each method the learner has solved replaces the reference's, taken
from their code as it last passed its exercise's Check (the method's definition,
nothing else). A method not
solved yet stays the reference's, and the page says which is which.

Then the same network trains on both engines from the same starting weights, each
on its own path, on two moons that no straight line separates: a broken engine
visibly fails to learn next to the reference, which does. While both still hold the
same weights their gradients are compared, and a small gradient check per method
points at the blank behind a divergence. `engine_source` writes the assembled engine
and network as one file that runs under plain Python. Nothing here grants progress:
the page only shows what the learner's engine computes.
"""

import ast
import inspect
import math
import random
import re
import textwrap

import engine.engine as reference_engine
import engine.nn as reference_nn
import engine.order as reference_order
import labs.course_network as course_network
from runner.facts import BLANK, SAME_TO_ROUNDING
from runner.network import readings, weights_and_biases

from .entry import Lab, Page
from .learner_code import run_on_learner_code


def two_moons(n=8):
    """Two interleaved half circles, `n` points each, evenly spaced (no noise, so every
    run has the same points): +1 on the upper moon, -1 on the lower. The lower moon's
    tip sits inside the upper moon's bend, so no straight line separates them and the
    network has to learn a curved boundary."""
    xs, ys = [], []
    for i in range(n):
        t = math.pi * i / (n - 1)
        xs.append([round(2 * (math.cos(t) - 0.5), 4), round(2 * (math.sin(t) - 0.25), 4)])
        ys.append(1.0)
        xs.append([round(2 * (0.5 - math.cos(t)), 4), round(2 * (0.25 - math.sin(t)), 4)])
        ys.append(-1.0)
    return xs, ys


XS, YS = two_moons()
LR = 0.01  # the moons' 16 points add up to a larger loss than the training level's 8: a smaller step

# The engine's pieces that the course has the learner write, in the order the page lists
# them: what each is, and for a method of Value the small graph that checks it alone. Each
# op's input is used elsewhere too (so `=` for `+=` shows) and its upstream gradient is
# not 1 (so a forgotten out.grad shows). Which exercise writes a piece is that exercise's
# own `writes` (exercise.toml); the page sends the learner's code keyed by piece.
PIECES = {
    "__mul__": ("multiplication", "(a * b) * a"),
    "__sub__": ("subtraction", "(a - b) * (b - a * a)"),
    "backward": ("the backward walk", "(lambda e: (e * b + a) * e)(a * b)"),  # e is used twice, at two depths
    "__add__": ("addition, adding up every path", "(a + b) * (a + a)"),
    "tanh": ("tanh", "a.tanh() * a + (a * b).tanh() * b"),
    "exp": ("exp", "a.exp() * a + (a * b).exp() * b"),
    "log": ("log", "(lambda s: s.log() * s + (s * s).log() * a)(a * a + b * b)"),  # s > 0: log's domain
    "relu": ("relu", "a.relu() * a + (a * b).relu() * b"),
    "__pow__": ("powers", "((a * b) ** 3) * b + (a ** 2) * a"),
    "__truediv__": ("division", "((a + b) / (b * a)) * b + (a / b) * a"),
    "softplus": ("softplus, your own operation", "a.softplus() * a + (a * b).softplus() * b"),
    "Neuron": ("a neuron", None),
    "Layer": ("a layer", None),
    "MLP": ("the network", None),
}
# the pieces that are classes of their own, not methods of Value, in the order they build on each other
NETWORK = ("Neuron", "Layer", "MLP")
BINARY = {"__mul__", "__sub__", "__add__", "__truediv__"}
# the reference engine as one module of its own source (its order module inlined)
ENGINE_SOURCE = inspect.getsource(reference_order) + inspect.getsource(reference_engine).replace(
    "from .order import topological_order\n", "")
NN_SOURCE = inspect.getsource(reference_nn).replace("from .engine import Value\n", "")
COURSE_SOURCE = inspect.getsource(course_network)
COURSE_CLASSES = {node.name: node for node in ast.parse(COURSE_SOURCE).body
                  if isinstance(node, ast.ClassDef)}
SIZES = [8, 8, 1]


class PieceError(Exception):
    """A solved exercise's code has no usable definition of its piece. `piece` names it,
    so a message about the whole engine can say which saved code is at fault."""

    def __init__(self, detail, piece=None):
        super().__init__(detail)
        self.detail, self.piece = detail, piece

    def __str__(self):
        if self.piece is None:
            return self.detail
        return f"{PIECES[self.piece][0]} ({self.piece}): {self.detail}"


def _parse(code):
    try:
        return ast.parse(code)
    except SyntaxError as e:
        raise PieceError(f"your saved code does not parse (line {e.lineno}: {e.msg})") from None


def _filled(node):
    """`node`, once every blank in it is filled: a blank left would stop training with a
    NameError that names no exercise."""
    if any(isinstance(n, ast.Name) and n.id == BLANK for n in ast.walk(node)):
        raise PieceError(f"your saved code still has blanks ({BLANK}): check its exercise again")
    return node


def _method_node(code, name):
    for node in _parse(code).body:
        if isinstance(node, ast.ClassDef) and node.name == "Value":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return _filled(item)
    raise PieceError(f"your saved code has no Value.{name}")


def _class_node(code, name):
    for node in _parse(code).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return _filled(node)
    raise PieceError(f"your saved code has no class {name}")


def network_classes(codes):
    """Neuron, Layer and MLP: each the learner's, from the saved code of the exercise
    that has them write it, or the course's (labs/course_network.py) until they do."""
    nodes = []
    for name in NETWORK:
        if name not in codes:
            nodes.append(COURSE_CLASSES[name])
            continue
        try:
            nodes.append(_class_node(codes[name], name))
        except PieceError as e:
            raise PieceError(e.detail, name) from None
    return nodes


def for_page(work, *args, **kwargs):
    """`work(*args, **kwargs)`, with a piece that can't be used told as the page's message
    (and the piece named, so its row can say so) rather than raised."""
    try:
        return work(*args, **kwargs)
    except PieceError as e:
        return {"error": str(e), "piece": e.piece}


def learner_method(code, name):
    """The definition of `Value.<name>` in the learner's code, as a module of its own."""
    return ast.Module(body=[_method_node(code, name)], type_ignores=[])


def learner_network(codes, value):
    """A maker of the MLP on `value` built of the learner's classes (and the course's,
    where theirs are not written yet), started from the reference's weights for the
    seed, so both engines train the same network."""
    scope = {"__name__": "your_nn", "Value": value, "random": random.Random(0)}
    module = ast.Module(body=network_classes(codes), type_ignores=[])
    exec(compile(module, "nn.py", "exec"), scope)  # noqa: S102 - run like a Run, in the worker
    network = scope["MLP"]

    def make(nin, sizes, seed=1):
        model, start = network(nin, list(sizes)), reference_nn.MLP(nin, sizes, seed=seed)
        for p, q in zip(weights_and_biases(model), weights_and_biases(start), strict=True):
            p.data = q.data
        return model
    return make


def assemble(codes):
    """A fresh Value class: the reference's, with each piece in `codes` (piece -> saved
    code) replaced by the learner's own method. Returns (Value, MLP, {piece: source})."""
    namespace = {"__name__": "your_engine"}
    exec(compile(ENGINE_SOURCE, "engine.py", "exec"), namespace)  # noqa: S102 - the reference's own source
    value = namespace["Value"]
    sources = {}
    for name in PIECES:
        if name not in codes:
            sources[name] = "reference"
            continue
        if name in NETWORK:
            sources[name] = "yours"
            continue
        scope = dict(namespace)  # the method sees the new Value and math, as in its exercise
        try:
            method = learner_method(codes[name], name)
        except PieceError as e:
            raise PieceError(e.detail, name) from None
        exec(compile(method, f"{name}.py", "exec"), scope)  # noqa: S102
        setattr(value, name, _coercing(scope[name], value) if name in BINARY else scope[name])
        sources[name] = "yours"
    nn_namespace = {"__name__": "your_nn", "Value": value}
    exec(compile(NN_SOURCE, "nn.py", "exec"), nn_namespace)  # noqa: S102 - the reference's own source
    network = nn_namespace["MLP"]
    if any(name in codes for name in NETWORK):
        network = learner_network(codes, value)
    return value, network, sources


def _coercing(method, value):
    """The exercises' methods take two Values; a network also multiplies by plain numbers."""
    def binary(self, other):
        return method(self, other if isinstance(other, value) else value(other))
    binary.__name__ = method.__name__
    return binary


def _loss(model, value):
    total = value(0.0)
    for x, y in zip(XS, YS):
        total = total + (model(x) - y) ** 2
    return total


def _parameters_of(model):
    return [p.data for p in weights_and_biases(model)]


def _set(model, params):
    for p, x in zip(weights_and_biases(model), params, strict=True):
        p.data = math.nan if x is None else float(x)  # JSON's null: a weight that was no longer a number


def _step(model, value, lr):
    """One step of the course's training loop, the same for both engines. It walks the
    network's structure rather than its parameters(): the learner's parameters() is
    checked on its own (check_network), so a slip there is named, not blurred into the loss."""
    params = weights_and_biases(model)
    loss = _loss(model, value)
    for p in params:
        p.grad = 0.0
    loss.backward()
    for p in params:
        p.data -= lr * p.grad
    return loss.data, [p.grad for p in params]


def train(codes, params=None, steps=10, lr=LR, seed=1, reference_params=None):
    """`steps` training steps of MLP(2, [8, 8, 1]) on the learner's engine and on the
    reference, each on its own path from the same starting weights (the seed's).
    Stateless: the page keeps both engines' parameters between calls (`params`,
    `reference_params`), so it can show progress as it goes.

    The reference is never moved onto the learner's weights: a broken engine's curve
    stays flat next to the reference's falling one. While both still hold the same
    weights (to rounding: a learner's `1 - t ** 2` is not bit for bit the reference's
    `1.0 - t * t`), every loss and gradient is compared; once they part, the first
    gap already says that they differ."""
    value, mlp, sources = assemble(codes)
    yours, ref = mlp(2, SIZES, seed=seed), reference_nn.MLP(2, SIZES, seed=seed)
    if params is not None:
        _set(yours, params)
    if reference_params is not None:
        _set(ref, reference_params)
    losses, ref_losses, worst = [], [], 0.0
    for _ in range(int(steps)):
        together = all(_gap(a, b) <= SAME_TO_ROUNDING for a, b in zip(_parameters_of(yours), _parameters_of(ref)))
        loss, grads = _step(yours, value, lr)
        ref_loss, ref_grads = _step(ref, reference_engine.Value, lr)
        losses.append(_finite(loss))
        ref_losses.append(ref_loss)
        if together:
            worst = max([worst, _gap(loss, ref_loss)] + [_gap(a, b) for a, b in zip(grads, ref_grads)])
    return {"losses": losses, "reference": ref_losses, "params": [_finite(p) for p in _parameters_of(yours)],
            "reference_params": _parameters_of(ref), "worst_gradient_gap": _finite(worst), "sources": sources}


def boundary(codes, params, nx=30, ny=25, x_range=(-3.5, 3.5), y_range=(-2.5, 2.5)):
    """The trained network's output over a grid, computed by the learner's own engine and
    classes: what their network now believes about every point of the plane."""
    value, mlp, _ = assemble(codes)
    model = mlp(2, SIZES)
    _set(model, params)
    xs = [x_range[0] + (x_range[1] - x_range[0]) * i / (nx - 1) for i in range(nx)]
    ys = [y_range[0] + (y_range[1] - y_range[0]) * j / (ny - 1) for j in range(ny)]
    right = sum(((_data(model(x)) or 0.0) >= 0) == (y > 0) for x, y in zip(XS, YS))
    return {"xs": xs, "ys": ys, "z": [[_finite(_data(model([x, y]))) for x in xs] for y in ys],
            "points": XS, "labels": YS, "right": right}


def _data(out):
    return getattr(out[0] if isinstance(out, (list, tuple)) else out, "data", None)


def _finite(x):
    """A finite float, or None (JSON has no NaN) for whatever else came back."""
    return float(x) if isinstance(x, (int, float)) and math.isfinite(x) else None


def _gap(a, b):
    if not (isinstance(a, (int, float)) and math.isfinite(a)):
        return math.inf
    return abs(a - b) / (1 + abs(b))


def check_pieces(codes, seed=7):
    """For each piece the learner wrote: its small graph on an engine with that piece
    alone theirs, and on the reference, at random inputs of both signs; the first
    difference, if any. One piece at a time, so a divergence points at one blank."""
    rng = random.Random(seed)
    points = [(rng.uniform(0.3, 1.5) * rng.choice((-1, 1)), rng.uniform(0.3, 1.5) * rng.choice((-1, 1)))
              for _ in range(4)]
    results = []
    for name, (what, check) in PIECES.items():
        mine = name in codes
        row = {"method": name, "what": what, "source": "yours" if mine else "reference", "ok": True}
        if mine and name in NETWORK:
            try:
                problem = check_network({name: codes[name]})
            except PieceError as e:
                problem = e.detail
            except Exception as e:  # noqa: BLE001 - the learner's classes raised: that is the finding
                problem = f"it raised {type(e).__name__}: {e}"[:300]
            if problem:
                row.update(ok=False, problem=problem)
        elif mine:
            try:
                value = assemble({name: codes[name]})[0]
            except PieceError as e:
                row.update(ok=False, problem=e.detail)
                results.append(row)
                continue
            expression = eval(f"lambda a, b: {check}")  # noqa: S307 - our own fixed text
            try:
                for a, b in points:
                    got, expected = _grads(expression, value, a, b), _grads(expression, reference_engine.Value, a, b)
                    if any(_gap(g, e) > 1e-6 for g, e in zip(got, expected)):
                        row.update(ok=False, at=[a, b], got=[_finite(g) for g in got], expected=expected,
                                   expression=check)
                        break
            except Exception as e:  # noqa: BLE001 - the learner's method raised: that is the finding
                row.update(ok=False, expression=check, problem=f"it raised {type(e).__name__}: {e}"[:300])
        results.append(row)
    return results


def _grads(expression, value, a, b):
    x, y = value(a), value(b)
    expression(x, y).backward()
    return [x.grad, y.grad]


def check_network(codes):
    """The network built with the learner's classes in `codes` (the course's for the
    others) on the reference's Value, against the reference's network with the same
    weights: None when they agree, else what differs."""
    make = learner_network(codes, reference_engine.Value)
    for nin, sizes, x in ((2, [3, 2, 1], [0.7, -1.3]), (3, [2, 2], [0.4, -0.9, 1.6])):
        shown = f"MLP({nin}, {sizes}) with the reference's weights, on x = {x}"
        outs, grads, counts, _ = readings(make(nin, sizes, seed=5), x)
        ref_outs, ref_grads, _, _ = readings(reference_nn.MLP(nin, sizes, seed=5), x)
        if len(outs) != len(ref_outs) or any(_gap(a, b) > SAME_TO_ROUNDING for a, b in zip(outs, ref_outs)):
            return f"{shown}: your network outputs {_short(outs)}, the reference {_short(ref_outs)}"
        if any(_gap(a, b) > SAME_TO_ROUNDING for a, b in zip(grads, ref_grads)):
            return f"{shown}: backward() gives some weights or biases other gradients than the reference's"
        if any(c != 1 for c in counts):
            return (f"{shown}: parameters() should list each of the {len(counts)} weights and biases once; "
                    f"{sum(c == 0 for c in counts)} are missing and {sum(c > 1 for c in counts)} listed more than once")
    return None


def _short(numbers):
    return "[" + ", ".join(f"{n:.4g}" if isinstance(n, (int, float)) else repr(n)[:20] for n in numbers) + "]"


# -- the learner's engine as one file ----------------------------------------------

ENGINE_HEAD = '''"""My autograd engine: the Value class and the network I wrote in the course
"Build your own autograd", assembled into one file. It needs nothing but Python:

    python engine.py

trains MLP(2, [8, 8, 1]) on two moons and prints the loss as it falls.

Pieces ({pieces}).
"""

import math
import random
'''

ENGINE_TAIL = '''

def train(model, steps=60, lr={lr}):
    """Full-batch gradient descent on the squared error, as in the course."""
    for step in range(steps):
        loss = sum(((model(x) - y) ** 2 for x, y in zip(XS, YS)), Value(0.0))
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        if step % 10 == 0 or step == steps - 1:
            print(f"step {{step + 1}}: loss {{loss.data:.4f}}")
    right = sum((model(x).data > 0) == (y > 0) for x, y in zip(XS, YS))
    print(f"{{right}} of {{len(XS)}} points on their own side")
    return loss.data


if __name__ == "__main__":
    random.seed(1)
    train(MLP(2, [8, 8, 1]))
'''

COERCING = '''

def _taking_numbers(method):
    """My methods take two Values; a network also multiplies a Value by a plain number."""
    def binary(self, other):
        return method(self, _as_value(other))
    binary.__name__ = method.__name__
    return binary


for _name in {names!r}:
    setattr(Value, _name, _taking_numbers(getattr(Value, _name)))
'''


# What an exercise's starter imports from the course inside a method (backward-tail's
# `from engine.given import topological_order`): the file defines it itself.
COURSE_IMPORT = re.compile(r"^\s*from engine(\.\w+)? import topological_order\s*(#.*)?$")


def _lines(code, node):
    """The source lines of a definition (its decorators too), dedented, without the
    course's own imports, so that the file needs nothing but Python."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    lines = [line for line in code.splitlines()[first - 1:node.end_lineno] if not COURSE_IMPORT.match(line)]
    return textwrap.dedent("\n".join(lines)).splitlines()


def _strip_header(source):
    """A module's source without its docstring and imports: the file has its own."""
    tree = ast.parse(source)
    body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))
            and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))]
    lines = source.splitlines()
    return "\n".join(lines[body[0].lineno - 1:]) if body else ""


def engine_source(codes):
    """One Python file: the reference engine's source with each method the learner
    solved replaced by their own (their lines, comments and all), their network
    classes or the reference's, the two moons and a training loop. It runs under
    plain CPython, and trains."""
    lines = ENGINE_SOURCE.splitlines()
    value_class = next(n for n in ast.parse(ENGINE_SOURCE).body if isinstance(n, ast.ClassDef) and n.name == "Value")
    methods = {item.name: item for item in value_class.body if isinstance(item, ast.FunctionDef)}
    swaps, mine = [], []
    for name in PIECES:
        if name in NETWORK or name not in codes:
            continue
        try:
            node = _method_node(codes[name], name)
        except PieceError as e:
            raise PieceError(e.detail, name) from None
        swaps.append((methods[name], ["    " + line if line else line for line in _lines(codes[name], node)]))
        mine.append(name)
    for old, new in sorted(swaps, key=lambda swap: -swap[0].lineno):
        lines[old.lineno - 1:old.end_lineno] = new
    engine = _strip_header("\n".join(lines))
    binary = [name for name in mine if name in BINARY]
    coercing = COERCING.format(names=tuple(binary)) if binary else ""
    if any(name in codes for name in NETWORK):
        classes = zip(NETWORK, network_classes(codes), strict=True)
        network = "\n\n\n".join("\n".join(_lines(codes[name] if name in codes else COURSE_SOURCE, node))
                                   for name, node in classes)
        mine += [name for name in NETWORK if name in codes]
    else:
        network = _strip_header(NN_SOURCE)
    theirs = [name for name in PIECES if name not in codes]
    pieces = "; ".join(part for part in (f"mine: {', '.join(mine)}" if mine else "",
                                         f"the course's reference: {', '.join(theirs)}" if theirs else "") if part)
    moons = inspect.getsource(two_moons)
    parts = [ENGINE_HEAD.format(pieces=pieces), "", engine.rstrip() + "\n" + coercing, "", network.rstrip(),
             "", "", moons.rstrip(), "", "", "XS, YS = two_moons()", ENGINE_TAIL.format(lr=LR)]
    return "\n".join(parts).rstrip() + "\n"


# -- The lab: the page lists the pieces; the widget trains on the learner's engine -----

def capstone_pieces(exercises):
    """The capstone's pieces in its order, each with the exercise that writes it (its
    `writes`) and that exercise's page; a piece no exercise writes stays the reference's
    and is not listed."""
    writers = {}
    for exercise in exercises.values():
        if exercise.piece in PIECES:
            if exercise.piece in writers:
                raise ValueError(f"{writers[exercise.piece].id} and {exercise.id} both write {exercise.writes}: "
                                 "the capstone takes each piece from one exercise")
            writers[exercise.piece] = exercise
    return [{"exercise": writers[name].id, "page": writers[name].level, "method": name, "what": what}
            for name, (what, _check) in PIECES.items() if name in writers]


def page(_options, exercises):
    pieces = capstone_pieces(exercises)
    return Page({"pieces": pieces}, ("piece", "method", "the exercise that writes it"),
                [(p["what"], p["method"], exercises[p["exercise"]].title) for p in pieces])


def _weights(params):
    return None if params is None else [None if p is None else float(p) for p in params]


def _train(codes, params, steps, reference_params=None):
    steps = max(1, min(int(steps), 50))
    params, reference_params = _weights(params), _weights(reference_params)
    return run_on_learner_code(lambda c: for_page(train, c, params, steps, reference_params=reference_params), codes)


LAB = Lab(options={}, page=page, runs_learner_code=True, worker={
    "capstone_train": _train,
    "capstone_boundary": lambda codes, params: run_on_learner_code(lambda c: boundary(c, _weights(params)), codes),
    "capstone_check": lambda codes: run_on_learner_code(lambda c: {"pieces": check_pieces(c)}, codes),
    "capstone_engine": lambda codes: run_on_learner_code(
        lambda c: for_page(lambda: {"source": engine_source(c)}), codes),
})
