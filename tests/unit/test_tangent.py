"""The tangent lab's descent: what the nudges page says it shows, at each rate."""

import math

import pytest

from labs.tangent import RATES, RUNAWAY, descent, tangent

MINIMUM = 2 / 3  # f(x) = 3x² − 4x + 5: f′(x) = 6x − 4 = 0


def distances(rate, steps=20, x0=1.0):
    return [abs(row["x"] - MINIMUM) for row in descent(x0, rate, steps)]


def test_each_step_moves_x_against_the_engines_slope():
    rows = descent(1.0, 0.1, 3)
    assert rows[0] == {"x": 1.0, "y": 4.0, "slope": 2.0}
    for here, there in zip(rows, rows[1:]):
        assert there["x"] == here["x"] - 0.1 * here["slope"]
        assert there["slope"] == pytest.approx(6 * there["x"] - 4)


def test_rate_point_one_settles_at_the_minimum():
    last = descent(1.0, 0.1, 20)[-1]
    assert last["x"] == pytest.approx(MINIMUM, abs=1e-7) and abs(last["slope"]) < 1e-6


def test_rate_point_zero_one_crawls():
    d = distances(0.01)
    assert all(b < a for a, b in zip(d, d[1:])) and d[-1] > 0.25 * d[0]  # downhill every step, most of the way left


def test_rate_point_three_overshoots_and_zigzags_in():
    xs = [row["x"] for row in descent(1.0, 0.3, 20)]
    sides = [x > MINIMUM for x in xs]
    assert all(a != b for a, b in zip(sides, sides[1:]))  # every step jumps over the minimum
    assert abs(xs[-1] - MINIMUM) < 0.02 * abs(xs[0] - MINIMUM)  # 0.8²⁰


def test_rate_point_four_diverges_and_the_walk_stops():
    rows = descent(1.0, 0.4, 40)
    d = [abs(row["x"] - MINIMUM) for row in rows]
    assert all(b > a for a, b in zip(d, d[1:]))
    assert abs(rows[-1]["x"]) > RUNAWAY and len(rows) < 41


def test_the_rates_the_lab_offers():
    assert RATES == (0.01, 0.1, 0.3, 0.4)
    # the factor on the distance to the minimum is 1 − 6·rate: past 1/3 it exceeds 1 in size
    for rate in RATES:
        d = distances(rate, 2)
        assert math.isclose(d[1] / d[0], abs(1 - 6 * rate), rel_tol=1e-9)


def test_the_nudge_the_lab_draws():
    data = tangent(1.0, 0.5)
    assert data["nudge"] == {"left": [0.5, 3.75], "right": [1.5, 5.75]}
    assert data["central"] == pytest.approx((5.75 - 3.75) / 1.0)
    assert data["forward"] == pytest.approx((5.75 - 4.0) / 0.5)
