"""The runner's API as these tests call it: many runs in one long-lived interpreter,
each restored afterwards (runner.sandbox), as the mutation proof runs the course's
own code. The browser and the CLI rely on no restore: each submission runs in an
interpreter of its own (tests/e2e/test_isolation.py, tests/unit/test_cli.py)."""

from runner import execute


def run(code, timeout_seconds=10.0):
    return execute.run(code, timeout_seconds)


def check(probe, inputs, code, timeout_seconds=10.0):
    return execute.collect(code, probe, inputs, timeout_seconds)
