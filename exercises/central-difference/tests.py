"""Hidden tests: the central difference."""

import math

from exercises.checks import close, expect, expect_number, fmt, random_inputs

CUBE = (lambda x: x ** 3, lambda x: 3 * x ** 2, "x³")
SINE = (math.sin, math.cos, "sin x")


def _central(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


def test_slope_of_known_functions(learner):
    "Finds the slope of x³ and sin x at random points"
    slope = learner["slope"]
    for f, df, name in (CUBE, SINE):
        for (x,) in random_inputs(5, n=1, seed=31):
            got = slope(f, x)
            expect_number(got, f"slope(f, {fmt(x)})")
            expect(close(got, df(x), tol=1e-4),
                   f"For f(x) = {name} at x = {fmt(x)} the slope is {fmt(df(x))}, but slope() gave {fmt(got)}.")


def test_nudges_both_ways(learner):
    "Nudges both ways: accurate even with a coarse h"
    slope = learner["slope"]
    f, df, _ = CUBE
    for (x,) in random_inputs(5, n=1, low=1.0, high=3.0, seed=32):
        h = 0.01
        got = slope(f, x, h)
        expect_number(got, f"slope(f, {fmt(x)}, h={h})")
        if close(got, _central(f, x, h), tol=1e-9):
            continue
        expect(not close(got, (f(x + h) - f(x)) / h, tol=1e-9),
               f"With h = {h} at x = {fmt(x)}, your slope is {fmt(got)}, the true one {fmt(df(x))}. "
               "That nudges only one way, (f(x + h) − f(x)) / h, which leans toward one side of the curve. "
               "Nudge both ways: from x − h to x + h.")
        expect(not close(got, 2 * _central(f, x, h), tol=1e-9),
               f"Your slope is twice the true one ({fmt(got)} instead of {fmt(df(x))}). From x − h to x + h, "
               "x moves by 2h in total: divide by 2h.")
        expect(False, f"With h = {h} at x = {fmt(x)}, slope() gave {fmt(got)}; nudging both ways gives "
                      f"{fmt(_central(f, x, h))}. Use the h you are given.")


def test_page_example(learner):
    "f(x) = 3x² − 4x + 5 has slope 14 at x = 3"
    got = learner["slope"](learner["f"], 3.0)
    expect(close(got, 14.0, tol=1e-4), f"slope(f, 3.0) should be about 14, but it is {fmt(got)}.")
