"""Run the learner's definitions on hidden cases and report what they compute.

This module runs beside learner code: in the browser's Python worker, and in
the CLI's child process. It is given the cases' *inputs* only. The expected
outputs, the known mistakes' outputs and the comparison live elsewhere (the
page's JavaScript, the CLI's parent process), so nothing learner code can
patch here turns a wrong answer into "Passed": the most it can do is report
numbers, and only the right numbers pass.

A probe turns one case into a list of outputs. Each output is a finite float,
or a short string naming what came back instead ("nan", "None", "Value(...)").
A case whose run raised gives {"error": "ZeroDivisionError: ...", "line": n}.
"""

import math

from .facts import MAX_OUTPUTS_PER_CASE
from .network import readings, weights_and_biases
from .text import describe_exception, safe_str, short_repr

OPS = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "sub": lambda a, b: a - b,
    "div": lambda a, b: a / b,
    "pow": lambda a, k: a ** k,
    "exp": lambda a: a.exp(),
    "tanh": lambda a: a.tanh(),
    "relu": lambda a: a.relu(),
    "log": lambda a: a.log(),
    "softplus": lambda a: a.softplus(),
}

# Functions a `call` case may pass to the learner's code by name.
FUNCTIONS = {
    "cube": lambda x: x ** 3,
    "sin": math.sin,
    "exp": math.exp,
}


class CaseFailure(Exception):
    """The learner's definitions are missing or of the wrong shape for this case."""


def number(x):
    """A finite float for real numbers; otherwise a short description of what it is."""
    if type(x) in (int, float):
        x = float(x)
        return x if math.isfinite(x) else repr(x)
    return short_repr(x)


def _learner(namespace, name):
    if name not in namespace:
        raise CaseFailure(f"Your code must define `{name}`; it is missing.")
    return namespace[name]


def _operand(nodes, ref):
    return ref[1] if isinstance(ref, list) and ref and ref[0] == "k" else nodes[ref]


def _build(Value, case):
    """The case's leaves and nodes, made with the learner's Value."""
    leaves = [Value(x) for x in case["leaves"]]
    nodes = list(leaves)
    for op, *args in case["nodes"]:
        nodes.append(OPS[op](*(_operand(nodes, a) for a in args)))
    return leaves, nodes


def _children(node):
    kids = getattr(node, "_children", None)
    return kids if kids is not None else getattr(node, "_prev", ())


def _propagate(out, upstream):
    """Give `out` the upstream gradient and run the rules beneath it, outputs first.
    For a single operation this is exactly `out._backward()`."""
    order, seen, stack = [], set(), [(out, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((kid, False) for kid in _children(node))
    out.grad = upstream
    for node in reversed(order):
        node._backward()


def value_case(namespace, case):
    """`rule`: one operation's own rule, with the inputs' grads already holding
    `start` and `out.grad = upstream`; outputs the inputs' grads.
    `backward`: a whole graph and the learner's `backward()`; outputs every
    node's grad (leaves first), the output's data, and how many times each
    inner node's rule ran (a correct walk runs each once, in any valid order)."""
    Value = _learner(namespace, "Value")
    leaves, nodes = _build(Value, case)
    if case["mode"] == "rule":
        for leaf, start in zip(leaves, case["start"]):
            leaf.grad = start
        _propagate(nodes[-1], case["upstream"])
        return [number(leaf.grad) for leaf in leaves]
    calls = [_count_calls(node) for node in nodes[len(leaves):]]
    nodes[-1].backward()
    return ([number(node.grad) for node in nodes] + [number(nodes[-1].data)]
            + [float(count[0]) for count in calls])


def _count_calls(node):
    """Wrap an inner node's rule to count its runs: each must run exactly once."""
    count, rule = [0], node._backward

    def counted():
        count[0] += 1
        rule()
    node._backward = counted
    return count


def _argument(namespace, arg):
    if isinstance(arg, dict) and "fn" in arg:
        return FUNCTIONS[arg["fn"]]
    if isinstance(arg, dict) and "learner" in arg:
        return _learner(namespace, arg["learner"])
    return arg


def call_case(namespace, case):
    """Call one of the learner's functions; outputs the number(s) it returns."""
    fn = _learner(namespace, case["function"])
    result = fn(*(_argument(namespace, a) for a in case["args"]))
    if type(result) in (tuple, list):
        return [number(x) for x in list(result)[:MAX_OUTPUTS_PER_CASE]]
    return [number(result)]


def sgd_case(namespace, case):
    """Train a small MLP (the one the exercise gives, as the starter imports it) with the
    learner's `train_step`; outputs each step's returned loss, then every parameter
    after that step."""
    train_step = _learner(namespace, "train_step")
    model = _learner(namespace, "MLP")(2, case["sizes"], seed=case["model_seed"])
    outputs = []
    for _ in range(case["steps"]):
        outputs.append(number(train_step(model, case["xs"], case["ys"], case["lr"])))
        outputs.extend(number(p.data) for p in model.parameters())
    return outputs[:MAX_OUTPUTS_PER_CASE]


def nn_case(namespace, case):
    """Build the learner's `MLP(nin, nouts)` (or, for the first two steps, one
    `Neuron(nin)` or one `Layer(nin, nouts[0])`), set every weight and bias to the case's
    numbers, and run it on one input. Outputs: each output's value; the gradient of
    their sum with respect to each parameter (so the forward pass must build a graph);
    how many times `parameters()` lists each parameter (any order is fine, but each
    exactly once); how many items it lists in all; and the gradient of the sum with
    respect to each input. The inputs are Values of the network's own class, as a
    later layer's are: a forward pass that reads their .data cuts them off the graph."""
    model = _network(namespace, case)
    try:
        params = weights_and_biases(model)
    except (AttributeError, TypeError):
        raise CaseFailure("Keep the given structure: model.layers, layer.neurons, neuron.w and neuron.b.") from None
    if len(params) != len(case["params"]):
        raise CaseFailure("Keep the given __init__ methods: the network has the wrong number of weights.")
    for p, value in zip(params, case["params"]):
        p.data = value
    x = _inputs(type(params[0]) if params else None, case["x"])
    outs, grads, counts, listed = readings(model, x)
    return ([number(o) for o in outs] + [number(g) for g in grads] + [float(c) for c in counts] + [float(listed)]
            + [number(getattr(v, "grad", None)) for v in x])


def _inputs(value, numbers):
    """`numbers` as Values of class `value` (the network's weights'), or as they are
    where that class can't make them: their gradients then read as missing."""
    try:
        return [value(v) for v in numbers]
    except Exception:  # noqa: BLE001 - the learner's class, whatever it raises
        return list(numbers)


class _OneLayer:
    """A learner's Neuron or Layer dressed as a one-layer network (model.layers,
    layer.neurons), so the network's readings read it the same way; its
    parameters() are the learner's own."""

    def __init__(self, part, neurons):
        self.layers = [_Neurons(neurons)]
        self._part = part

    def __call__(self, x):
        return self._part(x)

    def parameters(self):
        return self._part.parameters()


class _Neurons:
    def __init__(self, neurons):
        self.neurons = neurons


def _network(namespace, case):
    """The case's `unit` built with the learner's class: one Neuron, one Layer, or an MLP."""
    unit, nin, nouts = case.get("unit", "mlp"), case["nin"], list(case["nouts"])
    if unit == "neuron":
        neuron = _learner(namespace, "Neuron")(nin)
        return _OneLayer(neuron, [neuron])
    if unit == "layer":
        layer = _learner(namespace, "Layer")(nin, nouts[0])
        return _OneLayer(layer, getattr(layer, "neurons", None))
    return _learner(namespace, "MLP")(nin, nouts)


PROBES = {"value": value_case, "call": call_case, "sgd": sgd_case, "nn": nn_case}


def run_cases(namespace, probe, inputs, code):
    """Every case's outputs, or its error; one case's failure never stops the next."""
    run_one = PROBES[probe]
    results = []
    for case in inputs:
        try:
            results.append(list(run_one(namespace, case))[:MAX_OUTPUTS_PER_CASE])
        except CaseFailure as e:
            results.append({"error": safe_str(e), "line": None})  # learner code can subclass it
        except RecursionError:
            results.append({"error": "RecursionError: your code recursed too deeply", "line": None})
        except Exception as e:  # noqa: BLE001 - reported per case, in the learner's terms
            error = describe_exception(e, code)
            results.append({"error": f"{error['type']}: {error['message']}" if error["message"]
                            else error["type"], "line": error["line"]})
    return results
