"""Each operation is declared once (grader/cases.py OPERATIONS): the worker's table
of how to apply it (runner/probes.py OPS) names the same operations and computes
what the case text, written from the declaration, says it computes."""

import math

import pytest

from engine import Value
from grader.cases import OPERATIONS, describe_value_case
from runner.probes import OPS


def test_the_worker_applies_exactly_the_declared_operations():
    assert set(OPS) == set(OPERATIONS)


@pytest.mark.parametrize("op", sorted(OPERATIONS))
def test_the_case_text_computes_what_the_worker_applies(op):
    shape = OPERATIONS[op]["shape"]
    node = {"binary": [op, 0, 1], "power": [op, 0, ["k", 3]], "unary": [op, 0]}[shape]
    leaves = [0.7, 1.3][: 2 if shape == "binary" else 1]
    text, _ = describe_value_case({"mode": "backward", "leaves": leaves, "nodes": [node]})
    expression = text.split("L = ", 1)[1].split(";", 1)[0]  # e.g. "a * b", "a ** 3", "a.tanh()"
    names = {"a": Value(leaves[0]), **({"b": Value(leaves[1])} if shape == "binary" else {})}
    written = eval(expression, {}, names)  # noqa: S307 - our own generated text
    applied = OPS[op](*names.values(), *([3] if shape == "power" else []))
    assert math.isclose(written.data, applied.data)
