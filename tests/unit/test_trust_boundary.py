"""The trust boundary as a folder: `runner/` is what a grading interpreter holds, so it
must import nothing that knows an expected output: no grader, no engine, no labs, no
exercise. Read from the source (every import statement of every module), not from
what one run happens to import."""

import ast
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[2] / "runner"
COURSE = {"grader", "engine", "labs", "exercises", "course_build", "tests"}


def imported_modules(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_the_runner_imports_nothing_that_knows_an_answer():
    reached = {(path.name, name) for path in RUNNER.glob("*.py") for name in imported_modules(path)
               if name.split(".")[0] in COURSE}
    assert not reached, f"runner/ imports the judging side: {sorted(reached)}"


def test_the_runner_reads_no_file_of_the_judging_side():
    """No path into grader/, engine/ or exercises/ in the runner's source either."""
    for path in RUNNER.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for folder in ("exercises/", "grader/", "solution.py"):
            assert folder not in text.replace("grader/compare", ""), (path.name, folder)
