"""What the browser's worker calls: `call(name, args_json)` -> JSON text.

Learner code runs with the JavaScript bridge (`js`, `pyodide`) out of reach, so
it cannot post a forged verdict to the page or rewrite the worker. This raises
the bar; it is not a wall (see the instructor guide on client-side grading).
"""

import json
import sys

from engine import labs
from engine.expressions import ExpressionError, expression_graph, variables
from engine.training import Run

from . import catalog, grader

BLOCKED_ROOTS = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "gc")


class _Blocker:
    """A meta-path finder that refuses the JavaScript bridge."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED_ROOTS:
            raise ImportError(f"`import {name}` is not available in exercises")
        return None


def _without_js_bridge(fn, *args):
    hidden = {n: m for n, m in sys.modules.items() if n.split(".")[0] in BLOCKED_ROOTS}
    saved_path = list(sys.meta_path)
    for name in hidden:
        del sys.modules[name]
    sys.meta_path[:] = [_Blocker()] + [f for f in saved_path
                                       if "js" not in type(f).__name__.lower()]
    try:
        return fn(*args)
    finally:
        sys.meta_path[:] = saved_path
        sys.modules.update(hidden)


_exercises = {}  # id -> Exercise: the course files never change during a visit


def _exercise(exercise_id):
    if exercise_id not in _exercises:
        _exercises[exercise_id] = catalog.load(exercise_id, complete=False)
    return _exercises[exercise_id]


def check(exercise_id, code):
    return _without_js_bridge(grader.grade, _exercise(exercise_id), code)


# The reference engine passes these exercises' tests (a unit test holds it to that).
WARM_UP_EXERCISES = ("mul-backward", "backward-tail", "sub-backward")
REFERENCE_ANSWER = "from engine import Value\n"


def warm_up(step):
    """One short step of priming the grader after boot; returns whether more remain.

    Step 0 reads and compiles every exercise's tests; the next steps grade the
    reference engine as if a learner had sent it, through the very path a Check
    takes. WebAssembly starts in a baseline tier and optimises what runs hot, so
    the learner's first Check then runs at full speed. The page sends one step
    at a time while it is idle, so a real Check waits for one step at most.
    """
    step = int(step)
    if step == 0:
        for folder in catalog.exercise_folders():
            grader.compile_tests(_exercise(folder.name))
    elif step <= len(WARM_UP_EXERCISES):
        check(WARM_UP_EXERCISES[step - 1], REFERENCE_ANSWER)
    return step < len(WARM_UP_EXERCISES)


def run(code, timeout_seconds=10.0):
    return _without_js_bridge(grader.run, code, timeout_seconds)


def lab_graph(a, b, c, d):
    return labs.level_graph(float(a), float(b), float(c), float(d))


def tangent(x0, h):
    return labs.tangent(float(x0), float(h))


def expression(source, values):
    """The whole graph of a typed expression; a message instead when it can't be built."""
    try:
        return {"variables": variables(source), **expression_graph(source, values)}
    except ExpressionError as e:
        return {"error": str(e)}


_training = {}


def train_start(seed=1):
    _training["run"] = Run(seed=int(seed))
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


API = {"check": check, "run": run, "warm_up": warm_up, "lab_graph": lab_graph, "tangent": tangent,
       "expression": expression, "train_start": train_start, "train_steps": train_steps,
       "train_boundary": train_boundary, "train_network": train_network}


def call(name, args_json):
    if name not in API:
        raise ValueError(f"unknown worker function {name!r}")
    return json.dumps(API[name](*json.loads(args_json)))
