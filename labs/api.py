"""What the browser's lab worker calls: `call(name, args_json)` -> JSON text.

The labs, the training level and the capstone need the reference engine, so they
run in an interpreter of their own, never in one that grades: a grading
interpreter holds only what its exercise gives (runner/api.py). The capstone runs
the learner's saved code here, beside the reference; the page throws this
interpreter away after every capstone call, so that code reaches no later lab.
"""

import json

from runner import execute
from runner.sandbox import CappedOutput
from runner.text import describe_exception

from . import capstone, level_graph
from . import tangent as tangent_lab
from .expression import ExpressionError, expression_graph, gradient_facts, variables
from .training import Run


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
    learner code: output captured, and no restore: the page discards this interpreter
    after every capstone call (course_browser/python.js)."""
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in codes.items()):
        raise ValueError("the capstone needs the learner's code by exercise")
    result = {}
    exc = execute._guarded(lambda: result.update(work(codes)), CappedOutput(limit=0), timeout_seconds,
                           execute.Discarded())
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


API = {"lab_graph": lab_graph, "tangent": tangent,
       "expression": expression, "gradient_at": gradient_at, "train_start": train_start, "train_steps": train_steps,
       "train_boundary": train_boundary, "train_network": train_network,
       "capstone_train": capstone_train, "capstone_check": capstone_check,
       "capstone_boundary": capstone_boundary, "capstone_engine": lambda codes: _learner_engine(
           lambda c: capstone.for_page(lambda: {"source": capstone.engine_source(c)}), codes)}


def call(name, args_json):
    if name not in API:
        raise ValueError(f"unknown worker function {name!r}")
    return json.dumps(API[name](*json.loads(args_json)))
