"""What runs beside learner code, and nothing else: the trust boundary as a folder.

Everything here may be read, patched or called by the code it runs, so nothing
here knows an expected output: it runs the learner's code (execute), runs the
hidden cases' *inputs* through it (probes), caps what comes back (sandbox, text),
keeps the JavaScript bridge out of reach (guard), and answers the browser's
worker and the CLI's Node child (api; child.mjs). What judges the outputs is
the `grader` package, which never runs in the same interpreter as learner code.
`tests/unit/test_trust_boundary.py` holds this package to importing nothing else
of the course.
"""
