"""What the browser's grading worker calls: `call(name, args_json)` -> JSON text.

A grading worker is one interpreter for one run: restored from the build's
memory snapshot, given the files that the exercise gives (written by the
worker's JavaScript before the run), then thrown away. So nothing a run does
can reach a later one, and `restore=False` skips the in-process restore.

A Check here is only its first half: `check(probe, inputs, code)` runs the
learner's code on the cases' inputs and returns the raw outputs. The expected
outputs and the comparison stay on the page (compare.js).
"""

import json

from . import execute
from .probes import PROBES


def check(probe, inputs, code, timeout_seconds=10.0):
    """The learner's outputs on the cases (runner.execute.collect); no verdict."""
    if probe not in PROBES or type(inputs) is not list:
        raise ValueError("check() needs a probe name and a list of case inputs")
    return execute.collect(code, probe, inputs, float(timeout_seconds), restore=False)


def run(code, timeout_seconds=10.0):
    return execute.run(code, float(timeout_seconds), restore=False)


# A Value with every local rate deliberately left out (each input gets out.grad
# unchanged): it walks the path a Check takes without holding any rule an
# exercise asks for.
WARM_UP_CODE = '''
class Value:
    def __init__(self, data, children=()):
        self.data, self.grad, self._children, self._backward = data, 0.0, children, lambda: None

    def _op(self, other, data):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __add__(self, other):
        return self._op(other, self.data + getattr(other, "data", other))

    def __mul__(self, other):
        return self._op(other, self.data * getattr(other, "data", other))

    def backward(self):
        order, seen = [], set()
        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for child in v._children:
                    visit(child)
                order.append(v)
        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()
'''
WARM_UP_CASES = [
    {"mode": "rule", "leaves": [1.5, -0.5], "nodes": [["mul", 0, 1]], "start": [0.5, 0.5], "upstream": 1.7},
    {"mode": "backward", "leaves": [0.7, -1.2, 0.4],
     "nodes": [["mul", 0, 1], ["add", 3, 2], ["mul", 4, 3], ["add", 5, 0]]},
]


def warm_up():
    """Run the Check path once on a throwaway class, before any learner code, so that
    WebAssembly compiles it (code the grading workers share: they instantiate one
    compiled module) before the learner's first Check needs it."""
    check("value", WARM_UP_CASES * 4, WARM_UP_CODE)
    return True


API = {"check": check, "run": run, "warm_up": warm_up}


def call(name, args_json):
    if name not in API:
        raise ValueError(f"unknown worker function {name!r}")
    return json.dumps(API[name](*json.loads(args_json)))
