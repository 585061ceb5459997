"""Graded exercises: one folder per exercise, plus the grader that runs them.

The same code grades in CPython (the `python -m exercises` CLI and the tests)
and in Pyodide (the browser's worker). One truth.
"""
