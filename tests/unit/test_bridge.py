"""The PyTorch bridge's recorded numbers are PyTorch's, and our engine's agree with them."""

import math

import pytest

from labs.bridge import EXPRESSIONS, engine_numbers, recorded_torch_numbers, torch_numbers

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("which", list(EXPRESSIONS))
def test_recorded_numbers_are_what_torch_computes_today(which):
    fresh, recorded = torch_numbers(which=which), recorded_torch_numbers(which)
    for key in ["L", *(f"{n}.grad" for n in EXPRESSIONS[which][1])]:
        assert math.isclose(fresh[key], recorded[key], rel_tol=1e-12, abs_tol=1e-15), key
    assert fresh["grad_fn"] == recorded["grad_fn"]


@pytest.mark.parametrize("which", list(EXPRESSIONS))
def test_our_engine_agrees_with_torch(which):
    ours, theirs = engine_numbers(which=which), torch_numbers(which=which)
    for key, value in ours.items():
        assert math.isclose(value, theirs[key], rel_tol=1e-12, abs_tol=1e-15), key


def test_the_bridge_ends_in_a_product():
    assert recorded_torch_numbers()["grad_fn"] == "MulBackward0"


def test_the_engine_agrees_away_from_the_pages_point():
    point = {"a": -1.25, "b": 0.75, "c": -0.3, "k": 3.5}
    ours, theirs = engine_numbers(point), torch_numbers(point)
    assert all(math.isclose(ours[k], theirs[k], rel_tol=1e-12, abs_tol=1e-15) for k in ours)
