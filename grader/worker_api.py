"""What the browser's worker calls: `call(name, args_json)` -> JSON text.

A Check here is only its first half: `check(probe, inputs, code)` runs the
learner's code on the cases' inputs and returns the raw outputs. The expected
outputs and the comparison stay on the page (compare.js), so nothing in this
interpreter decides a verdict. Learner code also runs with the JavaScript bridge
hidden: the worker's JavaScript wraps every call in grader.guard's hide() and
unhide(), and drops its own network and storage powers once Python is up
(worker.js). See the threat model in the README.
"""

import json

from labs import capstone, level_graph
from labs import tangent as tangent_lab
from labs.expression import ExpressionError, expression_graph, gradient_facts, variables
from labs.training import Run

from . import execute
from .probes import PROBES
from .sandbox import CappedOutput, new_restore
from .text import describe_exception


def check(probe, inputs, code, timeout_seconds=10.0):
    """The learner's outputs on the cases (grader.execute.collect); no verdict."""
    if probe not in PROBES or type(inputs) is not list:
        raise ValueError("check() needs a probe name and a list of case inputs")
    return execute.collect(code, probe, inputs, float(timeout_seconds))


REFERENCE_ANSWER = "from engine import Value\n"
WARM_UP_CASES = [
    {"mode": "rule", "leaves": [1.5, -0.5], "nodes": [["mul", 0, 1]], "start": [0.5, 0.5], "upstream": 1.7},
    {"mode": "backward", "leaves": [0.7, -1.2, 0.4],
     "nodes": [["mul", 0, 1], ["add", 3, 2], ["tanh", 4], ["mul", 5, 3], ["add", 6, 0]]},
]
WARM_UP_STEPS = 3


def warm_up(step):
    """One short step of priming Python after boot; returns whether more remain.

    Each step runs the reference engine through the very path a Check takes.
    WebAssembly starts in a baseline tier and optimises what runs hot, so the
    learner's first Check then runs at full speed. The page sends one step at a
    time while it is idle, so a real Check waits for one step at most.
    """
    step = int(step)
    check("value", WARM_UP_CASES * 4, REFERENCE_ANSWER)
    return step + 1 < WARM_UP_STEPS


def run(code, timeout_seconds=10.0):
    return execute.run(code, timeout_seconds)


def lab_graph(a, b, c, d):
    return level_graph.level_graph(float(a), float(b), float(c), float(d))


def tangent(x0, h, function="quadratic"):
    return tangent_lab.tangent(float(x0), float(h), str(function) if function in tangent_lab.FUNCTIONS else "quadratic")


def expression(source, values):
    """The whole graph of a typed expression; a message instead when it can't be built."""
    try:
        return {"variables": variables(source), **expression_graph(source, values)}
    except ExpressionError as e:
        return {"error": str(e)}


def gradient_at(source, values, wrt):
    """The facts the "make ∂L/∂a vanish" task judges (labs.expression.gradient_facts); a
    message instead when the expression can't be built or differentiated there."""
    if not isinstance(source, str) or not isinstance(wrt, str) or not isinstance(values, dict):
        raise ValueError("gradient_at needs an expression, a mapping of values and an input name")
    point = {str(k): float(v) for k, v in values.items()}
    try:
        return gradient_facts(source, point, wrt)
    except ExpressionError as e:
        return {"error": str(e)}


_training = {}


def train_start(seed=1, lr=0.05):
    lr = float(lr)
    if not 0 < lr <= 10:
        raise ValueError("the learning rate must be in (0, 10]")
    _training["run"] = Run(seed=int(seed), lr=lr)
    return _training["run"].parameter_breakdown()


def train_steps(steps):
    run = _training.get("run") or Run()
    _training["run"] = run
    before = len(run.losses)
    losses = run.train(max(1, min(int(steps), 200)))
    return {"step": len(losses), "losses": losses[before:]}


def train_boundary():
    return _training["run"].boundary()


def train_network(x, y):
    return _training["run"].network([float(x), float(y)])


def _learner_engine(work, codes, timeout_seconds=20.0):
    """Run `work` on the engine assembled from the learner's saved code, as a Run runs
    learner code: output captured, the interpreter restored afterwards."""
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in codes.items()):
        raise ValueError("the capstone needs the learner's code by exercise")
    result = {}
    exc = execute._guarded(lambda: result.update(work(codes)), CappedOutput(limit=0), timeout_seconds, new_restore())
    if exc is not None:
        if isinstance(exc, (execute.RunTimeout, KeyboardInterrupt)):
            return {"error": "Your engine ran too long and was stopped."}
        error = describe_exception(exc, "")
        return {"error": f"Your engine raised {error['type']}: {error['message']}"}
    return result


def _weights(params):
    return None if params is None else [None if p is None else float(p) for p in params]


def capstone_train(codes, params, steps, reference_params=None):
    steps = max(1, min(int(steps), 50))
    params, reference_params = _weights(params), _weights(reference_params)
    return _learner_engine(lambda c: capstone.for_page(capstone.train, c, params, steps,
                                                       reference_params=reference_params), codes)


def capstone_boundary(codes, params):
    params = _weights(params)
    return _learner_engine(lambda c: capstone.boundary(c, params), codes)


def capstone_check(codes):
    return _learner_engine(lambda c: {"pieces": capstone.check_pieces(c)}, codes)


API = {"check": check, "run": run, "warm_up": warm_up, "lab_graph": lab_graph, "tangent": tangent,
       "expression": expression, "gradient_at": gradient_at, "train_start": train_start, "train_steps": train_steps,
       "train_boundary": train_boundary, "train_network": train_network,
       "capstone_train": capstone_train, "capstone_check": capstone_check,
       "capstone_boundary": capstone_boundary, "capstone_engine": lambda codes: _learner_engine(
           lambda c: capstone.for_page(lambda: {"source": capstone.engine_source(c)}), codes)}


def call(name, args_json):
    if name not in API:
        raise ValueError(f"unknown worker function {name!r}")
    return json.dumps(API[name](*json.loads(args_json)))
