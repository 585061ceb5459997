"""Prove an exercise sound: its solution passes, its starter fails, and each
known mistake fails with its own diagnosis and no other's. Run by
`python -m grader prove`, `make check` and pytest.

Proofs run the instructor's own files in-process (they are trusted); learners'
code always runs in a child process or in the browser's worker.
"""

from .cases import signature
from .compare import matches, verdict
from .grading import data_for, report_for


def prove(exercise, data=None):
    """A list of problems; empty when the exercise is sound. `data`: its grading data,
    when the caller has made it already (the build does)."""
    data = data or data_for(exercise)
    problems = []
    result = verdict(data, report_for(exercise, exercise.solution, isolated=False))
    if not result["passed"]:
        failing = [f"{t['name']}: {t['message']}" for t in result["tests"] if not t["passed"]]
        problems.append(f"the [solution] does not pass: {result['summary']} {failing or result['error']}")
    if verdict(data, report_for(exercise, exercise.starter, isolated=False))["passed"]:
        problems.append("starter.py passes: the exercise asks for nothing")
    for mistake in data["mistakes"]:
        if "outputs" not in mistake:
            problems.append(f"mistake {mistake['name']!r} does not run ({mistake['status']}: {mistake['error']}); "
                            "a mistake must compute wrong numbers, not crash")
            continue
        result = verdict(data, {"status": "ran", "outputs": mistake["outputs"]})
        if result["passed"]:
            problems.append(f"mistake {mistake['name']!r} passes, but it is a known mistake")
            continue
        named = (result["diagnosis"] or {}).get("mistake")
        if named != mistake["name"]:
            problems.append(f"mistake {mistake['name']!r} is diagnosed as {named!r}")
        others = [m["name"] for m in data["mistakes"]
                  if m is not mistake and matches(mistake["outputs"], m, data["tolerance"])]
        if others:
            problems.append(f"mistake {mistake['name']!r} computes the same numbers as {others}: "
                            "make the cases tell them apart, or merge them")
    return problems


__all__ = ["prove", "signature"]
