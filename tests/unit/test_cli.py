"""The instructor's command line, `python -m grader`, and the exercise-folder format.

`grade` runs the learner's file in a child process and decides the verdict in
the parent, so nothing the file does can make the command exit 0 on a wrong
answer: the attacks below are the ones that used to work.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader.catalog import ExerciseError, edited, fill_blanks, filled, load, load_exercise

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def grade_text(tmp_path, code, exercise="mul-backward", *flags):
    path = tmp_path / "answer.py"
    path.write_text(code)
    return cli("grade", exercise, str(path), *flags)


@pytest.mark.pyodide  # grades in Pyodide under Node
def test_grade_exit_codes_and_json(tmp_path):
    ok = grade_text(tmp_path, load("mul-backward").solution, "mul-backward", "--json")
    assert ok.returncode == 0, ok.stderr
    verdict = json.loads(ok.stdout)
    assert verdict["passed"] and verdict["headline"] == "Passed"
    assert all(t["passed"] for t in verdict["tests"]) and len(verdict["tests"]) >= 4

    mistake = load("mul-backward").mistakes[0]
    bad = grade_text(tmp_path, mistake.code)
    assert bad.returncode == 1
    assert bad.stdout.startswith("Not yet") and "[FAIL]" in bad.stdout
    assert mistake.message in bad.stdout  # the diagnosis names the mistake


@pytest.mark.slow  # proves every exercise
def test_prove_and_list():
    result = cli("prove")
    assert result.returncode == 0, result.stdout + result.stderr
    count = len(list((Path(__file__).resolve().parents[2] / "exercises").glob("*/exercise.toml")))
    assert f"{count} exercises proved, 0 problems" in result.stdout
    listed = cli("list")
    assert listed.returncode == 0 and "mul-backward" in listed.stdout


def test_a_mistake_can_be_written_out_as_a_whole_file(tmp_path):
    exercise = load("mul-backward")
    out = cli("mistake", "mul-backward", exercise.mistakes[0].name)
    assert out.returncode == 0 and out.stdout == exercise.mistakes[0].code
    missing = cli("mistake", "mul-backward", "no-such-mistake")
    assert missing.returncode == 2 and "has no mistake" in missing.stderr


def test_unknown_exercise_and_unreadable_file_are_clear_errors(tmp_path):
    result = cli("grade", "no-such-thing", str(tmp_path / "x.py"))
    assert result.returncode == 2 and "unknown exercise 'no-such-thing'" in result.stderr
    result = cli("grade", "mul-backward", str(tmp_path / "missing.py"))
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_the_cli_says_when_its_python_is_older_than_the_browsers():
    result = cli("list")
    if sys.version_info < (3, 14):
        assert "the browser runs Python 3.14" in result.stderr
    else:
        assert "browser runs" not in result.stderr


WRONG = fill_blanks(load("mul-backward").starter, ["self.data * out.grad", "other.data * out.grad"])
RIGHT_OUTPUT_FAKE = ('{"status": "ran", "outputs": [], "summary": "", "stdout": "", '
                     '"stdout_truncated": false, "error": null}')

CLI_ATTACKS = {
    "exits 0 at once": "import os\nos._exit(0)\n",
    "exits 0 after the demo": WRONG + "\nimport os\nos._exit(0)\n",
    "atexit prints a passing verdict": ("import atexit\natexit.register(lambda: print("
                                        "'{\"status\": \"passed\", \"passed\": true}'))\n" + WRONG),
    "prints a fake report": f"print({RIGHT_OUTPUT_FAKE!r})\n" + WRONG,
    "writes a fake report to the real stdout and exits": (
        WRONG + f"\nimport os\nos.write(1, ({RIGHT_OUTPUT_FAKE!r} + '\\n').encode())\nos._exit(0)\n"),
    "raises SystemExit(0)": WRONG + "\nraise SystemExit(0)\n",
    "patches the child's collect": ("import runner.execute as e\n"
                                    "e.collect = lambda *a: {'status': 'ran', 'outputs': []}\n" + WRONG),
}


@pytest.mark.pyodide  # grades in Pyodide under Node
@pytest.mark.parametrize("name", sorted(CLI_ATTACKS))
def test_learner_code_cannot_make_the_cli_pass(tmp_path, name):
    result = grade_text(tmp_path, CLI_ATTACKS[name], "mul-backward", "--json")
    assert result.returncode == 1, (name, result.stdout[-500:], result.stderr[-500:])
    assert json.loads(result.stdout)["passed"] is False


@pytest.mark.parametrize("disarm", [
    "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n",
    "import threading\nthreading.main_thread = lambda: None\n",
    "import signal\nsignal.setitimer = lambda *a: None\n",
])
@pytest.mark.pyodide  # grades in Pyodide under Node
def test_the_time_limit_holds_even_when_the_child_disarms_its_own(tmp_path, disarm):
    result = grade_text(tmp_path, disarm + "while True:\n    pass\n", "mul-backward", "--json")
    assert result.returncode == 1
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "timeout" and "too long" in verdict["summary"]


@pytest.mark.pyodide  # grades in Pyodide under Node
def test_a_message_that_cannot_be_read_is_reported_not_a_crash(tmp_path):
    code = "class E(Exception):\n    def __str__(self):\n        raise ValueError\nraise E()\n"
    result = grade_text(tmp_path, code, "mul-backward", "--json")
    assert result.returncode == 1
    assert "could not be read" in json.loads(result.stdout)["error"]["message"]
    huge = grade_text(tmp_path, "raise ValueError('x' * 50_000_000)\n", "mul-backward", "--json")
    assert huge.returncode == 1 and len(huge.stdout) < 10_000


def _write_exercise(folder, toml):
    folder.mkdir()
    (folder / "exercise.toml").write_text(toml)
    (folder / "starter.py").write_text("x = ____\n")


GRADING = '[grading]\nprobe = "call"\nfunction = "gradients"\n'
BASE = 'title = "T"\nlevel = "l"\n[solution]\nfill = ["1"]\n' + GRADING


@pytest.mark.parametrize("toml,words", [
    ('title = "T"\n', "'level' must be a non-empty string"),
    ('title = "T"\nlevel = "l"\nhints = "one"\n[grading]\nprobe = "value"\n', "'hints' must be a list"),
    ('title = "T"\nlevel = "l"\ntimeout = 3\n', "exercise.toml:3: exercise 'broken': unknown key 'timeout' (did you mean 'timeout_seconds'?)"),
    ('title = "T\nlevel = "l"\n', "not valid TOML"),
    ('title = "T"\nlevel = "l"\n', "a [grading] table is required"),
    ('title = "T"\nlevel = "l"\n[grading]\nprobe = "vaule"\n', "exercise.toml:4: exercise 'broken': [grading] needs a "
     "probe, one of value, call, sgd, nn (did you mean 'value'?)"),
    ('title = "T"\nlevel = "l"\n' + GRADING, "a [solution] table is required"),
    ('title = "T"\nlevel = "l"\n[solution]\nfil = ["1"]\n' + GRADING,
     "exercise.toml:4: exercise 'broken': unknown key 'fil' in [solution] (did you mean 'fill'?)"),
    ('title = "T"\nlevel = "l"\n[solution]\nfill = ["1"]\nedit = []\n' + GRADING, "exactly one of fill or edit"),
    ('title = "T"\nlevel = "l"\n[solution]\nfill = ["1", "2"]\n' + GRADING,
     "exercise.toml:4: exercise 'broken': [solution]: `fill` gives 2 filling(s), but starter.py has 1 blank(s)"),
    ('title = "T"\nlevel = "l"\n[solution]\nedit = [["y = 2", "y = 3"]]\n' + GRADING, "occurs 0 times"),
    (BASE + '[[groups]]\nname = "g"\ncases = [{arg = [1]}]\n', "each case of [[groups]] 'g' is a table of args, repeat"),
    (BASE + '[[groups]]\nnmae = "g"\n', "unknown key 'nmae' in [[groups]] (did you mean 'name'?)"),
    (BASE.replace('"call"', '"sgd"') + '[[groups]]\nname = "g"\n', "each [[groups]] of a sgd exercise needs cases, name"),
    (BASE.replace('"call"', '"nn"'), "a 'nn' exercise lists its case groups, [[groups]]"),
    (BASE + '[[mistakes]]\nname = "m"\n', "needs a 'name'"),
    (BASE + '[[mistakes]]\nname = "m"\nmessage = "x"\n', "exactly one of fill, edit or file"),
    (BASE + '[[mistakes]]\nname = "m"\nmessage = "x"\nfill = ["1", "2"]\n', "`fill` gives 2 filling(s), but starter.py has 1 blank(s)"),
    (BASE + '[[mistakes]]\nname = "m"\nmessage = "x"\nedit = [["y = 2", "y = 3"]]\n', "occurs 0 times"),
    (BASE + '[[mistakes]]\nname = "m"\nmessage = "x"\nfile = "gone.py"\n', "missing gone.py"),
])
def test_malformed_metadata_is_reported(tmp_path, toml, words):
    _write_exercise(tmp_path / "broken", toml)
    with pytest.raises(ExerciseError) as error:
        load_exercise(tmp_path / "broken")
    assert words in str(error.value)


def test_fillings_indent_continuation_lines_to_the_blank():
    starter = "def f():\n    ____\n"
    assert fill_blanks(starter, ["a = 1\nreturn a"]) == "def f():\n    a = 1\n    return a\n"


def test_the_learners_lines_are_the_ones_the_fillings_and_edits_span():
    starter = "def f(x):\n    ____  # the start\n    y = 2\n    return ____    # the end\n"
    code, written = filled(starter, ["a = x\nb = a", "b * y"])
    assert code == "def f(x):\n    a = x\n    b = a\n    y = 2\n    return b * y  # the end\n"
    assert written == (1, 2, 4)  # a long filling drops the guiding comment, a one-line one keeps it
    code, written = edited("a = 1\nb = 2\nc = 3\n", [("c = 3", "c = 4\nd = 5"), ("a = 1", "a = 0")])
    assert code == "a = 0\nb = 2\nc = 4\nd = 5\n" and written == (0, 2, 3)
    assert load("diamond").written == (10, 11, 18, 19) and load("mul-backward").written == (20, 21)


def test_new_like_an_existing_exercise_starts_from_a_copy_that_proves(tmp_path):
    import shutil

    root = tmp_path / "exercises"
    shutil.copytree(ROOT / "exercises" / "chain-by-hand", root / "chain-by-hand")
    made = cli("--exercises", str(root), "new", "chain-again", "--like", "chain-by-hand", "--title", "Again")
    assert made.returncode == 0, made.stderr
    copy = load_exercise(root / "chain-again")
    original = load_exercise(root / "chain-by-hand")
    assert (copy.title, copy.level) == ("Again", original.level)
    assert copy.reference == original.reference and copy.mistakes == original.mistakes
    proved = cli("--exercises", str(root), "prove", "chain-again")
    assert proved.returncode == 0 and "1 exercises proved, 0 problems" in proved.stdout, proved.stdout
    unknown = cli("--exercises", str(root), "new", "other", "--like", "chain-by-hnad")
    assert unknown.returncode == 2 and "unknown exercise 'chain-by-hnad'" in unknown.stderr
    neither = cli("--exercises", str(root), "new", "other")
    assert neither.returncode == 2 and "--level" in neither.stderr and "--like" in neither.stderr
