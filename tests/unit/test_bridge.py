"""The PyTorch bridge's recorded numbers are PyTorch's, and our engine's agree with them."""

import math

import pytest

from labs.bridge import NAMES, engine_numbers, recorded_torch_numbers, torch_numbers

torch = pytest.importorskip("torch")


def test_recorded_numbers_are_what_torch_computes_today():
    fresh, recorded = torch_numbers(), recorded_torch_numbers()
    for key in ["L", *(f"{n}.grad" for n in NAMES)]:
        assert math.isclose(fresh[key], recorded[key], rel_tol=1e-12, abs_tol=1e-15), key
    assert fresh["grad_fn"] == recorded["grad_fn"] == "MulBackward0"


def test_our_engine_agrees_with_torch_on_the_bridge_expression():
    ours, theirs = engine_numbers(), torch_numbers()
    for key, value in ours.items():
        assert math.isclose(value, theirs[key], rel_tol=1e-12, abs_tol=1e-15), key


def test_the_engine_agrees_away_from_the_pages_point():
    point = {"a": -1.25, "b": 0.75, "c": -0.3, "d": 3.5}
    ours, theirs = engine_numbers(point), torch_numbers(point)
    assert all(math.isclose(ours[k], theirs[k], rel_tol=1e-12, abs_tol=1e-15) for k in ours)
