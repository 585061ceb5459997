"""The course's Python files as the browser gets them: two deterministic JSON files.

- `runner.<hash>.json`: the `runner` package, what runs beside learner code. Every
  grading interpreter gets it, and the build's memory snapshot imports it. It knows
  no answer: no engine, no solutions, no known mistakes, no comparison.
- `labs.<hash>.json`: the reference engine and the labs, for the lab interpreter
  only (labs/api.py), never for one that grades.

What an exercise gives its learner's code travels with that exercise's public data
(grader/gives.py). Each file is a JSON object of {path: text}, not an archive: the
worker writes the files into Pyodide's file system from JavaScript
(course_browser/interpreter.mjs), so no Python runs to unpack them.
"""

import hashlib
import json

RUNNER_DATA = ("facts.json",)


def _bundle(files):
    """Compact JSON, keys in a fixed order."""
    return json.dumps(dict(sorted(files.items())), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _package(directory, extra=()):
    files = {f"{directory.name}/{p.name}": p.read_text(encoding="utf-8") for p in sorted(directory.glob("*.py"))}
    for name in extra:
        files[f"{directory.name}/{name}"] = (directory / name).read_text(encoding="utf-8")
    return files


def runner_bundle(runner_dir):
    return _bundle(_package(runner_dir, RUNNER_DATA))


def labs_bundle(engine_dir, labs_dir):
    return _bundle({**_package(engine_dir), **_package(labs_dir)})


def hashed_name(stem, data):
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}.json"
