"""The instructor's command line and the exercise-folder format (CPython)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from exercises.catalog import ExerciseError, load, load_exercise
from exercises.grader import grade, run

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "exercises", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_grade_exit_codes_and_json(tmp_path):
    solution = ROOT / "exercises/mul-backward/solution.py"
    ok = cli("grade", "mul-backward", str(solution), "--json")
    assert ok.returncode == 0
    verdict = json.loads(ok.stdout)
    assert verdict["passed"] and verdict["headline"] == "Passed"
    assert all(t["passed"] for t in verdict["tests"]) and len(verdict["tests"]) == 4

    wrong = tmp_path / "wrong.py"
    wrong.write_text(load("mul-backward").mistakes[0].code)
    bad = cli("grade", "mul-backward", str(wrong))
    assert bad.returncode == 1
    assert bad.stdout.startswith("Not yet") and "[FAIL]" in bad.stdout


def test_check_proves_every_exercise():
    result = cli("check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problems" in result.stdout


def test_unknown_exercise_is_a_clear_error(tmp_path):
    result = cli("grade", "no-such-thing", str(tmp_path / "x.py"))
    assert result.returncode == 2 and "unknown exercise 'no-such-thing'" in result.stderr


def _write_exercise(folder, toml):
    folder.mkdir()
    (folder / "exercise.toml").write_text(toml)
    for name in ("starter.py", "solution.py", "tests.py"):
        (folder / name).write_text("x = 1\n")


@pytest.mark.parametrize("toml,words", [
    ('title = "T"\n', "'level' must be a non-empty string"),
    ('title = "T"\nlevel = "l"\nhints = "one"\n', "'hints' must be a list"),
    ('title = "T"\nlevel = "l"\ntimeout = 3\n', "unknown keys ['timeout']"),
    ('title = "T\nlevel = "l"\n', "not valid TOML"),
    ('title = "T"\nlevel = "l"\n[[mistakes]]\nfile = "m.py"\n', "needs a 'file' and a non-empty 'message'"),
    ('title = "T"\nlevel = "l"\n[[mistakes]]\nfile = "gone.py"\nmessage = "m"\n', "missing gone.py"),
])
def test_malformed_metadata_is_reported(tmp_path, toml, words):
    _write_exercise(tmp_path / "broken", toml)
    with pytest.raises(ExerciseError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_exercise(tmp_path / "broken")


def test_runaway_loop_is_stopped_in_cpython():
    verdict = run("while True:\n    pass\n", timeout_seconds=0.5)
    assert verdict["status"] == "timeout" and "too long" in verdict["summary"]
    exercise = load("mul-backward")
    looping = exercise.solution.replace("other.grad += self.data * out.grad",
                                        "other.grad += self.data * out.grad\n            while out.grad == 0.25: pass")
    assert grade(exercise, looping)["passed"]  # the loop never triggers on the real inputs
    forever = exercise.solution.replace("other.grad += self.data * out.grad",
                                        "other.grad += self.data * out.grad\n            while True: pass")
    assert grade(exercise, forever)["status"] == "timeout"
