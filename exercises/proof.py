"""Prove an exercise is sound: its solution passes, its starter fails, and each
known mistake fails with its own message. Run by `python -m exercises check`,
by pytest, and inside Pyodide."""

from .grader import grade


def prove(exercise):
    """A list of problems; empty when the exercise is sound."""
    problems = []
    verdict = grade(exercise, exercise.solution)
    if not verdict["passed"]:
        failing = [f"{t['name']}: {t['message']}" for t in verdict["tests"] if not t["passed"]]
        problems.append(f"solution.py does not pass: {verdict['summary']} {failing or verdict['error']}")
    if grade(exercise, exercise.starter)["passed"]:
        problems.append("starter.py passes: the exercise asks for nothing")
    for mistake in exercise.mistakes:
        verdict = grade(exercise, mistake.code)
        messages = [t["message"] for t in verdict["tests"] if not t["passed"]]
        if verdict["passed"]:
            problems.append(f"{mistake.file} passes, but it is a known mistake")
        elif not any(mistake.message in m for m in messages):
            problems.append(f"{mistake.file} fails without the message {mistake.message!r}; "
                            f"it got: {messages or verdict['summary']}")
    return problems
