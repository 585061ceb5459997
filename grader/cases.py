"""Hidden cases and their expected outputs, made once at build time.

`grading_data(exercise)` is everything the page needs to grade an exercise: the
cases (inputs, a readable description, a label per output), the expected
outputs, computed by the reference engine or the exercise's answer key, and each known
mistake's outputs on the same cases, its *signature*. The browser ships the
inputs to the worker and keeps the rest on the page; the CLI keeps it in its
parent process. Cases are seeded, so the same exercise always gets the same ones.
The generators here are generic: a page's own numbers, points and shapes are the
exercise's `[[groups]]` (catalog.py), drawn in order.

Value exercises get differential property tests: the learner's `Value` runs
random expressions with reused inputs and inner nodes (diamonds, `a + a`,
`a * a`, three consumers), upstream gradients other than 1, gradients already
non-zero before a rule runs, and inputs near and at zero. Every leaf and every
inner gradient is compared.
"""

import math
import random

from engine import Value as ReferenceValue
from runner import probes
from runner.execute import collect
from runner.facts import TOLERANCE

# Every operation a value exercise may list in [grading] `ops` and `focus`, declared once.
# Case generation reads its shape and domain, case texts its symbol (a method call when it
# has none), group names its word. The worker applies it to the learner's Value under the
# same name (runner/probes.py OPS: one line each, held equal to this table by
# tests/build/test_operations.py). A new operation: an entry here, and its line there.
OPERATIONS = {
    "add": {"shape": "binary", "symbol": "+", "word": "a sum"},
    "mul": {"shape": "binary", "symbol": "*", "word": "a product"},
    "sub": {"shape": "binary", "symbol": "-", "word": "a difference"},
    "div": {"shape": "binary", "symbol": "/", "word": "a quotient", "divides_by_second": True},
    "pow": {"shape": "power", "symbol": "**", "word": "a power"},
    "exp": {"shape": "unary", "word": "exp"},
    "tanh": {"shape": "unary", "word": "tanh"},
    # no slope at 0, so either convention is right there: tested at 0 only with nothing
    # arriving from above, where both give 0 and a rule that divides by the input fails
    "relu": {"shape": "unary", "word": "relu", "kink_at_zero": True},
    # defined for x > 0 only: its "near zero" cases come from the right
    "log": {"shape": "unary", "word": "log", "positive_only": True},
    "softplus": {"shape": "unary", "word": "softplus"},
}
SYMBOL = {op: o["symbol"] for op, o in OPERATIONS.items() if "symbol" in o}
BINARY = tuple(op for op, o in OPERATIONS.items() if o["shape"] == "binary")
POSITIVE_ONLY = {op for op, o in OPERATIONS.items() if o.get("positive_only")}
EXPONENTS = (2, 3, -1, 4)
LETTERS = "abcdefgh"


def fmt(x, digits=6):
    """A number as the verdict shows it (Python's %.6g, a true minus); the page's is
    course_browser/numbers.js."""
    if type(x) is not float and type(x) is not int:
        return str(x)
    text = f"{x:.{digits}g}"
    return "−" + text[1:] if text.startswith("-") else text


def fmt_pair(want, got):
    """Expected and got, with enough digits that they read differently."""
    for digits in range(6, 18):
        a, b = fmt(want, digits), fmt(got, digits)
        if a != b:
            return a, b
    return a, b


# -- value expressions ------------------------------------------------------

def _node_text(names, node):
    op, *args = node
    refs = [str(a[1]) if isinstance(a, list) else names[a] for a in args]
    if op in SYMBOL:
        return f"{refs[0]} {SYMBOL[op]} {refs[1]}"
    return f"{refs[0]}.{op}()"


def _names(case):
    leaves = [LETTERS[i] for i in range(len(case["leaves"]))]
    inner = [f"n{i + 1}" for i in range(len(case["nodes"]) - 1)] + ["L" if case["mode"] == "backward" else "out"]
    return leaves, inner


def describe_value_case(case):
    """(text, labels) for a value case, in the words of the learner's own code."""
    leaves, inner = _names(case)
    names = leaves + inner
    given = ", ".join(f"{n} = {fmt(x)}" for n, x in zip(leaves, case["leaves"]))
    steps = "; ".join(f"{name} = {_node_text(names, node)}" for name, node in zip(inner, case["nodes"]))
    if case["mode"] == "rule":
        starts = set(case["start"])
        start = f"{'each grad' if len(leaves) > 1 else leaves[0] + '.grad'} starting at {fmt(case['start'][0])}" \
            if len(starts) == 1 else ", ".join(f"{n}.grad starting at {fmt(s)}" for n, s in zip(leaves, case["start"]))
        text = f"{given} ({start}); {steps}; out.grad = {fmt(case['upstream'])}; out._backward()"
        return text, [f"{n}.grad" for n in leaves]
    return f"{given}; {steps}; L.backward()", ([f"{n}.grad" for n in names] + ["L.data"]
                                                + [f"the number of times {n}._backward ran" for n in inner])


def _reference(case):
    return probes.value_case({"Value": ReferenceValue}, case)


def _sound(case):
    """The reference engine computes finite, moderate numbers, and no division
    comes near zero: the case tests the rule, not floating point."""
    try:
        leaves, nodes = probes._build(ReferenceValue, case)
        for op, *args in case["nodes"]:
            if op == "div" and abs(nodes[args[1]].data) < 0.1:
                return False
            at_kink = nodes[args[0]].data == 0.0 and case.get("upstream") == 0.0
            if OPERATIONS[op].get("kink_at_zero") and abs(nodes[args[0]].data) < 1e-6 and not at_kink:
                return False
        outputs = _reference(case)
    except (ZeroDivisionError, OverflowError, ValueError):
        return False
    return all(type(x) is float and abs(x) < 1e5 for x in outputs)


def _leaf_value(rng, low=0.3, high=2.5):
    return round(rng.choice((-1, 1)) * rng.uniform(low, high), 3)


def _operation(op, args):
    if OPERATIONS[op]["shape"] == "power":
        return [op, args[0], ["k", args[1]]]
    return [op, *args]


def _rule_case(rng, op, leaves, start, same=False, exponent=None, upstream=None):
    if op in BINARY:
        node = _operation(op, [0, 0] if same else [0, 1])
        leaves = leaves[:1] if same else leaves[:2]
    elif OPERATIONS[op]["shape"] == "power":
        node = _operation(op, [0, rng.choice(EXPONENTS) if exponent is None else exponent])
        leaves = leaves[:1]
    else:
        node = [op, 0]
        leaves = leaves[:1]
    if upstream is None:
        upstream = round(rng.choice((-1, 1)) * rng.uniform(0.3, 2.0), 3)
        if abs(abs(upstream) - 1) < 0.1:
            upstream = 1.7
    return {"mode": "rule", "leaves": leaves, "nodes": [node],
            "start": [start] * len(leaves), "upstream": upstream}


def _graph_case(rng, ops, weights, n_leaves, n_nodes):
    """A random expression over the learner's operations, with reuse: some
    operations take the same node twice, and one inner node always feeds two
    later nodes at different depths (the case a wrong visiting order gets wrong)."""
    leaves = [_leaf_value(rng, 0.2, 2.0) for _ in range(n_leaves)]
    nodes, consumers = [], [0] * n_leaves

    def pick():
        count = n_leaves + len(nodes)
        return rng.randrange(max(0, count - 3), count) if rng.random() < 0.6 else rng.randrange(count)

    def add(op, args):
        nodes.append(_operation(op, args))
        consumers.append(0)
        for a in (args[:1] if OPERATIONS[op]["shape"] == "power" else args):
            consumers[a] += 1

    for _ in range(n_nodes):
        op = rng.choices(ops, weights)[0]
        if op in BINARY:
            i = pick()
            add(op, [i, i if rng.random() < 0.2 else pick()])
        elif OPERATIONS[op]["shape"] == "power":
            add(op, [pick(), rng.choice(EXPONENTS)])
        else:
            add(op, [pick()])
    inner = range(n_leaves, n_leaves + len(nodes) - 1)
    if not any(consumers[i] >= 2 for i in inner) and len(nodes) >= 2:
        reused = rng.choice(list(inner))
        add(rng.choice([op for op in ("add", "mul") if op in ops] or ["add"]), [reused, n_leaves + len(nodes) - 1])
    last = n_leaves + len(nodes) - 1
    for dangling in [i for i in range(n_leaves, last) if consumers[i] == 0]:
        add("add", [n_leaves + len(nodes) - 1, dangling])
    for leaf in [i for i in range(n_leaves) if consumers[i] == 0]:
        add("mul" if "mul" in ops else "add", [n_leaves + len(nodes) - 1, leaf])  # only the ops the learner has
    return {"mode": "backward", "leaves": leaves, "nodes": nodes}



def _near_zero(rng, zeros, positive=False):
    choices = [0.001, 0.05, 0.2] if positive else [0.001, -0.001, 0.05, -0.05, 0.2, -0.2] + ([0.0] if zeros else [])
    return rng.choice(choices)


def _near_zero_inputs(rng, op, zeros):
    """The first near-zero cases, fixed, as _rule_case's keyword arguments: an input at
    exactly 0 in each position where the true gradient exists (a rule that divides by
    an input must fail there; for a power, x ** 1 too, whose slope at 0 is 1 where a
    guarded x ** k / x gives 0), and a tiny negative input (a rule that lets gradient
    through just below zero must fail there). An operation with a kink at 0 meets 0
    with nothing from above."""
    other = _leaf_value(rng, 0.3, 1.5)
    if op in POSITIVE_ONLY:  # a rule like 1/x is steepest here
        return [{"leaves": [0.001, other]}, {"leaves": [0.01, other]}]
    zero_second = op in BINARY and not OPERATIONS[op].get("divides_by_second")
    fixed = [{"leaves": [-0.001, other]}, {"leaves": [other, -0.001] if zero_second else [0.001, other]}]
    if zeros:
        fixed[:0] = [{"leaves": [0.0, other]}] + ([{"leaves": [other, 0.0]}] if zero_second else [])
        if OPERATIONS[op]["shape"] == "power":
            fixed.insert(1, {"leaves": [0.0, other], "exponent": 1})
    elif OPERATIONS[op].get("kink_at_zero"):
        fixed.insert(0, {"leaves": [0.0, other], "upstream": 0.0})
    return fixed


def value_cases(grading, declared_groups, rng):
    """Three groups per `focus` operation, then the declared groups (graphs with
    random leaves), then random graphs over `ops` that reuse values."""
    ops, focus = grading["ops"], grading.get("focus", [])
    zeros = grading.get("zeros", True)
    groups, cases = [], []

    def group(name, make, count):
        groups.append({"name": name})
        made, tries = 0, 0
        while made < count:
            tries += 1
            case = make()
            if case is not None and _sound(case) and case not in [c["input"] for c in cases]:
                cases.append({"group": len(groups) - 1, "input": case})
                made += 1
            if tries > 5000:
                raise RuntimeError(f"could not make sound cases for group {name!r}")

    for op in focus:
        word = OPERATIONS[op]["word"]
        group(f"The rule of {word} on its own, at random inputs and upstream gradients",
              lambda op=op: _rule_case(rng, op, [_leaf_value(rng), _leaf_value(rng)], 0.0), 6)
        group(f"The rule of {word} adds into gradients that are already there"
              + (", also when both inputs are the same value" if op in BINARY else ""),
              lambda op=op: _rule_case(rng, op, [_leaf_value(rng), _leaf_value(rng)],
                                       round(rng.uniform(-1.5, 1.5), 2) or 0.5,
                                       same=op in BINARY and rng.random() < 0.5), 6)
        near = _near_zero_inputs(rng, op, zeros)
        positive = op in POSITIVE_ONLY
        at_zero = ", and at 0" if zeros else ", and at its kink, 0" if OPERATIONS[op].get("kink_at_zero") else ""
        group(f"The rule of {word} at " + ("small inputs (it is defined for x > 0 only)" if positive else
                                           "inputs near zero, of both signs" + at_zero),
              lambda op=op, near=near, positive=positive: _rule_case(rng, op, start=0.0, **(near.pop(0) if near else {
                  "leaves": [_near_zero(rng, zeros, positive), _leaf_value(rng, 0.3, 1.5)]})), 6)
    for declared in declared_groups:  # the page's own graphs, at random leaves
        group(declared["name"], lambda d=declared: {"mode": "backward", "nodes": d["graph"],
                                                     "leaves": [_leaf_value(rng) for _ in range(d["leaves"])]},
              declared.get("count", 4))
    weights = [3 if op in focus else 1 for op in ops]
    group("Random graphs that reuse values: diamonds, a + a, a · a, a node with several consumers",
          lambda: _graph_case(rng, ops, weights, rng.choice([2, 3]), rng.randint(3, 6)),
          16 if not focus else 12)
    for case in cases:
        case["text"], case["labels"] = describe_value_case(case["input"])
    return groups, cases


# -- the page's own case groups: [[groups]] in exercise.toml ---------------------

def _argument(rng, spec):
    """One argument of a call case, as [[groups]] writes it: a number, a function the
    probe knows ({fn = "cube"}) or the learner's own ({learner = "f"}), or a draw:
    {random = [low, high]} (either sign, 3 decimals) or {near_zero = true}."""
    if isinstance(spec, dict) and "random" in spec:
        return _leaf_value(rng, *spec["random"])
    if isinstance(spec, dict) and "near_zero" in spec:
        return _near_zero(rng, True)
    return spec


FUNCTION_NAMES = {"cube": "x³", "sin": "sin", "exp": "exp"}  # how a case's text names probes.FUNCTIONS


def _call_case(function, args, names):
    shown = ", ".join(fmt(a) if isinstance(a, (int, float)) else FUNCTION_NAMES.get(a.get("fn")) or a.get("learner")
                      for a in args)
    return {"input": {"function": function, "args": args}, "text": f"{function}({shown})", "labels": names}


def call_cases(grading, groups, rng):
    """The declared groups, each case drawn `repeat` times in order; without groups,
    `arity` random arguments in ±[low, high] at 12 points, after the page's `points`."""
    function = grading["function"]
    labels = grading.get("labels", [f"{function}(…)"])
    if not groups:
        arity, low, high = int(grading.get("arity", 1)), grading.get("low", 0.3), grading.get("high", 3.0)
        points = [{"args": p} for p in grading.get("points", [])]
        groups = [{"name": f"{function} at the page's points", "cases": points},
                  {"name": f"{function} at random points",
                   "cases": [{"args": [{"random": [low, high]}] * arity, "repeat": 12}]}]
        groups = [g for g in groups if g["cases"]]
    cases = [{"group": index, **_call_case(function, [_argument(rng, a) for a in case["args"]], labels)}
             for index, group in enumerate(groups) for case in group["cases"] for _ in range(case.get("repeat", 1))]
    return [{"name": g["name"]} for g in groups], cases


def _parameter_count(nin, nouts):
    sizes = [nin, *nouts]
    return sum((sizes[i] + 1) * sizes[i + 1] for i in range(len(nouts)))


SGD_INPUTS = 2  # runner/probes.py sgd_case builds MLP(2, sizes)


def sgd_cases(grading, groups, rng):
    """Each declared case trains MLP(2, sizes) from its seed for `steps` steps of the
    learner's train_step on the exercise's xs, and its ys or the case's own (targets far
    from the model's outputs give gradients large enough to tell a clipped step)."""
    sizes, count = grading["sizes"], _parameter_count(SGD_INPUTS, grading["sizes"])
    cases = []
    for index, group in enumerate(groups):
        for case in group["cases"]:
            seed, lr, steps = case["model_seed"], case["lr"], case["steps"]
            ys = case.get("ys", grading["ys"])
            labels = []
            for step in range(1, steps + 1):
                labels.append(f"the loss train_step returned on step {step}")
                labels += [f"parameter {i + 1} after step {step}" for i in range(count)]
            cases.append({"group": index, "labels": labels,
                          "input": {"model_seed": seed, "sizes": sizes, "lr": lr, "steps": steps,
                                    "xs": grading["xs"], "ys": ys},
                          "text": f"model = MLP({SGD_INPUTS}, {sizes}, seed={seed}); "
                                  f"{steps} × train_step(model, xs, {'ys' if 'ys' not in case else ys}, lr={lr})"})
    return [{"name": g["name"]} for g in groups], cases


MADE = {"neuron": "Neuron({nin})", "layer": "Layer({nin}, {nout})", "mlp": "MLP({nin}, {nouts})"}


def _nn_case(rng, unit, nin, nouts):
    sizes = [nin, *nouts]
    where = [f"layer {li + 1} neuron {ni + 1} {'w' + str(k + 1) if k < sizes[li] else 'b'}"
             for li in range(len(nouts)) for ni in range(nouts[li]) for k in range(sizes[li] + 1)]
    # weights and biases of both signs, none near 0, so a left-out term always shows
    params = [_leaf_value(rng, 0.2, 1.0) for _ in where]
    x = [_leaf_value(rng, 0.3, 2.0) for _ in range(nin)]
    labels = [f"output {i + 1}" for i in range(nouts[-1])] if nouts[-1] > 1 else ["the output"]
    labels += [f"∂(sum of outputs)/∂({w})" for w in where]
    labels += [f"how many times parameters() lists {w}" for w in where] + ["len(model.parameters())"]
    labels += [f"∂(sum of outputs)/∂(input {i + 1})" for i in range(nin)]
    if unit != "mlp":
        labels = labels[:nouts[-1]] + [label.replace("layer 1 ", "") for label in labels[nouts[-1]:]]
    order = "each neuron's w then b" if unit != "mlp" else "layer by layer, each neuron's w then b"
    text = (f"model = {MADE[unit].format(nin=nin, nouts=nouts, nout=nouts[0])} with its weights and biases set to "
            f"{', '.join(fmt(p) for p in params)} ({order}); "
            f"model([{', '.join(fmt(v) for v in x)}])")
    inputs = {"nin": nin, "nouts": nouts, "params": params, "x": x, **({"unit": unit} if unit != "mlp" else {})}
    return {"input": inputs, "labels": labels, "text": text}


def nn_cases(grading, groups, rng):
    """Each declared shape, built with the learner's `unit` (Neuron, Layer or, by
    default, MLP) and given random weights and inputs."""
    unit = grading.get("unit", "mlp")
    cases = [{"group": index, **_nn_case(rng, unit, case["nin"], case["nouts"])}
             for index, group in enumerate(groups) for case in group["cases"]]
    return [{"name": g["name"]} for g in groups], cases


GENERATORS = {"value": value_cases, "call": call_cases, "sgd": sgd_cases, "nn": nn_cases}


def make_cases(exercise):
    grading = exercise.grading
    return GENERATORS[grading["probe"]](grading, list(exercise.groups), random.Random(grading.get("seed", 1)))


def signature(report):
    """What a piece of code computed on the cases: its outputs, or how it stopped."""
    if report["status"] == "ran":
        return {"outputs": report["outputs"]}
    return {"status": report["status"], "error": (report.get("error") or {}).get("type")}


def expected_outputs(exercise, cases):
    """The reference engine's outputs for value cases; for the rest, those of the
    exercise's answer key (catalog: reference.py, never the [solution]), so the proof
    checks the solution against something other than itself."""
    if exercise.grading["probe"] == "value":
        return [_reference(c["input"]) for c in cases]
    report = collect(exercise.reference, exercise.grading["probe"], [c["input"] for c in cases],
                     exercise.timeout_seconds * 4)
    if report["status"] != "ran" or any(isinstance(o, dict) for o in report["outputs"]):
        raise RuntimeError(f"{exercise.id}: the answer key (reference.py) does not run on the cases: {report}")
    return report["outputs"]


def grading_data(exercise):
    """Everything the page (or the CLI's parent) needs to grade this exercise."""
    groups, cases = make_cases(exercise)
    for case, expected in zip(cases, expected_outputs(exercise, cases)):
        case["expected"] = expected
    inputs = [c["input"] for c in cases]
    mistakes = []
    for mistake in exercise.mistakes:
        report = collect(mistake.code, exercise.grading["probe"], inputs, exercise.timeout_seconds * 4)
        mistakes.append({"name": mistake.name, "message": mistake.message, **signature(report)})
    return {"id": exercise.id, "probe": exercise.grading["probe"], "seed": exercise.grading.get("seed", 1),
            "tolerance": TOLERANCE, "groups": groups, "cases": cases, "mistakes": mistakes}


def worker_inputs(data):
    """What the worker may see of the grading data: the probe and the cases' inputs."""
    return {"probe": data["probe"], "inputs": [c["input"] for c in data["cases"]]}


def is_finite_number(x):
    return type(x) is float and math.isfinite(x)
