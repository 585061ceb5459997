"""`course.<hash>.json`: what the browser's Python needs, as one deterministic file.

The `engine` package (`sgd-step` uses it), the `labs`, and the half of `grader`
that runs learner code and reports outputs. Nothing that knows an expected
output goes in: no solutions, no known mistakes, no comparison.

A JSON object of {path: text}, not an archive: the worker writes the files into
Pyodide's file system from JavaScript (course_browser/interpreter.mjs), so no
Python runs to unpack them. Unpacking a zip with Python's `zipfile` cost 30-40 ms
of every boot from the memory snapshot, most of it WebAssembly compiled on first
call (Chromium trace); the host compresses the file on the wire like any text.
"""

import json

WORKER_SIDE = ("__init__.py", "execute.py", "probes.py", "sandbox.py", "text.py", "facts.py",
               "facts.json", "worker_api.py", "guard.py")


def course_files(engine_dir, grader_dir, labs_dir):
    """The files, as {path under the course folder: text}."""
    files = {}
    for package in (engine_dir, labs_dir):
        for path in sorted(package.glob("*.py")):
            files[f"{package.name}/{path.name}"] = path.read_text(encoding="utf-8")
    for name in WORKER_SIDE:
        files[f"grader/{name}"] = (grader_dir / name).read_text(encoding="utf-8")
    return files


def course_bundle(engine_dir, grader_dir, labs_dir):
    """The files as the site ships them: compact JSON, keys in a fixed order."""
    files = course_files(engine_dir, grader_dir, labs_dir)
    return json.dumps(files, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
