"""Grade one piece of code against one exercise, the CLI's way: the code runs in
a child process (`grader.isolated`: Pyodide under Node, holding only what the
exercise gives), the verdict is decided here."""

from functools import cache

from runner.execute import collect

from . import catalog
from .cases import grading_data, worker_inputs
from .compare import verdict
from .gives import given_files
from .isolated import collect_isolated


@cache
def _data(exercise_id, folder):
    return grading_data(catalog.load_exercise(folder))


def data_for(exercise):
    return _data(exercise.id, exercise.folder)


def report_for(exercise, code, isolated=True):
    """What the code computes on the exercise's cases (in a child process by default)."""
    task = worker_inputs(data_for(exercise))
    if isolated:
        return collect_isolated(code, task["probe"], task["inputs"], exercise.timeout_seconds,
                                given_files(exercise.gives))
    return collect(code, task["probe"], task["inputs"], exercise.timeout_seconds)


def grade(exercise, code, isolated=True):
    return verdict(data_for(exercise), report_for(exercise, code, isolated))
