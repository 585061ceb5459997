"""Marks that several test files give the same way.

`slow` leaves a test out of `make test-fast`, the check a developer runs after each
change; `make test` runs everything."""

import pytest

# sgd-step's cases train small networks: grading one report takes seconds, not milliseconds
TRAINS = {"sgd-step"}


def slow(*values):
    """One parametrization of a test, marked slow."""
    return pytest.param(*values, marks=pytest.mark.slow)


def exercise_params(exercise_ids):
    """Exercise ids to parametrize over, the ones whose grading trains marked slow."""
    return [slow(i) if i in TRAINS else i for i in exercise_ids]
