"""Attacks on `python -m grader grade` (issue 23): every one fails, and no later grade feels it.

Each attack runs in order: grade the attack (it must fail), then the untouched
starter (it must fail: an earlier grade changed nothing), then the solution (it
must pass: nor did it break anything). After every grade no process of the
grade is left, the checkout is as it was, and no file the attack named exists
on the disk.
"""

import hashlib
import json
import os
import time
import uuid
from pathlib import Path

import pytest

from grader.catalog import fill_blanks, load
from grader.compare import verdict
from grader.grading import data_for
from tests.portable import inprocess
from tests.unit.test_cli import ROOT, cli

pytestmark = pytest.mark.pyodide  # every grade runs Pyodide under Node in a child process

EXERCISE = "mul-backward"
CHILD = str(ROOT / "runner" / "child.mjs")
WRONG = fill_blanks(load(EXERCISE).starter, ["self.data * out.grad", "self.data * out.grad"])
FORGED_VERDICT = ("\n\ndef verdict(*args, **kwargs):\n    return {'status': 'passed', 'passed': True, "
                  "'headline': 'Passed', 'summary': '', 'tests': [], 'diagnosis': None, 'stdout': '', "
                  "'stdout_truncated': False, 'error': None}\n")


def _watched_files():
    """Path -> SHA-256 of every file of the course a grade could change."""
    found = {}
    for top in ("grader", "runner", "engine", "labs", "exercises", "course_browser", "course_build", "tests"):
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and ".pytest_cache" not in path.parts:
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    for path in ROOT.iterdir():
        if path.is_file():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _lingering(*needles, patience=15.0):
    """Processes of the needles still there after `patience` seconds: a grade running at
    the same time in another test worker ends by then; one that outlived its grade doesn't."""
    deadline = time.monotonic() + patience
    found = _processes_of(*needles)
    while found and time.monotonic() < deadline:
        time.sleep(0.5)
        found = [p for p in _processes_of(*needles) if p in found]
    return found


def _processes_of(*needles):
    """Processes whose command line holds any of the needles."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if any(needle in line for needle in needles):
                found.append(f"{entry.name}: {line[:200]}")
    return found


def grade(tmp_path, code, exercise=EXERCISE):
    path = tmp_path / f"{uuid.uuid4().hex}.py"
    path.write_text(code)
    result = cli("grade", exercise, str(path), "--json")
    assert result.stdout, result.stderr[-2000:]
    return result, json.loads(result.stdout)


def attack_in_order(tmp_path, code, marker="", exercise=EXERCISE):
    """The attack's verdict, after checking that it failed and left nothing behind."""
    before = _watched_files()
    attacked, verdict = grade(tmp_path, code, exercise)
    assert attacked.returncode == 1 and verdict["passed"] is False, attacked.stdout[-1000:]
    assert not _lingering(CHILD, *([marker] if marker else [])), "a process outlived the grade"
    assert _watched_files() == before, "the grade changed the checkout"
    starter = cli("grade", exercise, str(ROOT / "exercises" / exercise / "starter.py"))
    assert starter.returncode == 1, starter.stdout[-1000:]
    answer = tmp_path / "solution.py"
    answer.write_text(load(exercise).solution)
    solution = cli("grade", exercise, str(answer))
    assert solution.returncode == 0, solution.stdout[-1000:] + solution.stderr[-1000:]
    return verdict


def test_appending_to_the_grader_changes_no_later_grade(tmp_path):
    targets = [ROOT / "grader" / "compare.py", ROOT / "grader" / "__main__.py", ROOT / "runner" / "execute.py",
               "grader/compare.py", "runner/execute.py", "/home/pyodide/course/runner/execute.py"]
    code = (f"for path in {[str(t) for t in targets]!r}:\n    try:\n        with open(path, 'a') as f:\n"
            f"            f.write({FORGED_VERDICT!r})\n"
            "    except Exception as e:\n        print(type(e).__name__, path)\n") + WRONG
    verdict = attack_in_order(tmp_path, code)
    assert verdict["status"] == "failed"  # the attack ran to its wrong answer and was judged on it


def test_no_file_written_reaches_the_disk(tmp_path):
    name = f"pwned-{uuid.uuid4().hex}"
    places = [ROOT / name, ROOT / "grader" / f"{name}.py", Path("/tmp") / name, Path.home() / name, Path(name)]
    code = ("import os\nfor path in %r:\n    try:\n        with open(path, 'w') as f:\n            f.write('x')\n"
            "    except Exception:\n        pass\n    try:\n        os.close(os.open(path + '.b', os.O_CREAT | os.O_WRONLY))\n"
            "    except Exception:\n        pass\n" % [str(p) for p in places]) + WRONG
    attack_in_order(tmp_path, code)
    left = [c for p in places for c in (ROOT / p, Path(f"{ROOT / p}.b")) if c.exists()]
    assert not left, left


SPAWNS = """
import os, subprocess, threading
for spawn in (lambda: os.fork(), lambda: subprocess.Popen(["sleep", "{marker}"], start_new_session=True),
              lambda: os.posix_spawn("/bin/sleep", ["sleep", "{marker}"], {{}}),
              lambda: threading.Thread(target=lambda: None).start()):
    try:
        spawn()
    except Exception:
        pass
try:
    import js
    js.process.kill(os.getppid(), 9)
except Exception:
    pass
"""


@pytest.mark.parametrize("ending", ["returns", "loops forever"])
def test_no_process_outlives_the_grade(tmp_path, ending):
    marker = f"{7000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10**6}"  # a sleep time no one else uses
    code = SPAWNS.format(marker=marker) + WRONG + ("\nwhile True:\n    pass\n" if ending == "loops forever" else "")
    verdict = attack_in_order(tmp_path, code, marker)
    assert verdict["status"] == ("timeout" if ending == "loops forever" else "failed")


def test_a_shell_is_refused(tmp_path):
    """Pyodide's os.system asks Node's child_process: the permission model refuses it,
    which ends the interpreter; the learner gets a verdict, not the runtime's error."""
    marker = f"{8000 + uuid.uuid4().int % 1000}.{uuid.uuid4().int % 10**6}"
    verdict = attack_in_order(tmp_path, f"import os\nos.system('sleep {marker} &')\n" + WRONG, marker)
    assert verdict["status"] == "error" and verdict["summary"].startswith("Your code broke the checks")


# the answer as the checkout keeps it: the [solution] fillings of exercise.toml, put into
# starter.py's blanks; the attack also takes any engine or network file it can find
READS = """
import os, tomllib
found = []
def solved(folder):
    meta = tomllib.load(open(os.path.join(folder, "exercise.toml"), "rb"))
    code = open(os.path.join(folder, "starter.py")).read()
    for fill in meta["solution"].get("fill", []):
        column = len(code.split("____", 1)[0].rsplit("\\n", 1)[-1])
        code = code.replace("____", fill.replace("\\n", "\\n" + " " * column), 1)
    for old, new in meta["solution"].get("edit", []):
        code = code.replace(old, new)
    return code
for place in [{folder!r}, "exercises/{exercise}", "../exercises/{exercise}"]:
    try:
        found.append(solved(place))
    except Exception:
        pass
for top, dirs, files in os.walk("/") if not found else ():
    if top.startswith(("/proc", "/dev", "/sys")):
        continue
    if "exercise.toml" in files and top.endswith("{exercise}"):
        found.append(solved(top))
    found += [open(os.path.join(top, f)).read() for f in files if f in ("engine.py", "nn.py")]
for text in found:
    try:
        exec(text, globals())
    except Exception:
        pass
"""

IMPORTS = """
import importlib
for module in ("engine", "engine.engine", "engine.nn", "labs", "labs.api", "grader", "exercises"):
    for name in ("Value", "Neuron", "Layer", "MLP", "sgd_step", "backward_pass"):
        try:
            globals()[name] = getattr(importlib.import_module(module), name)
        except Exception:
            pass
"""


def test_the_solution_cannot_be_read(tmp_path):
    code = READS.format(folder=str(ROOT / "exercises" / EXERCISE), exercise=EXERCISE)
    attack_in_order(tmp_path, code)


def test_importing_the_reference_names_what_the_exercise_gives(tmp_path):
    verdict = attack_in_order(tmp_path, "from engine import Value\n")
    assert verdict["error"]["type"] == "ImportError"
    assert verdict["error"]["message"] == "this exercise gives you backward_pass; write Value yourself"


EXERCISES = sorted(p.parent.name for p in (ROOT / "exercises").glob("*/exercise.toml"))


@pytest.mark.parametrize("exercise", EXERCISES)
def test_with_the_checkout_in_reach_the_reading_attack_passes(exercise):
    """The control of the attacks that read or import: run in this process, beside the
    checkout, the same code finds the answer and passes. So where a grade fails it, the
    grade's isolation failed it, not a weakness of the attack."""
    data = data_for(load(exercise))
    inputs = [c["input"] for c in data["cases"]]
    code = READS.format(folder=str(ROOT / "exercises" / exercise), exercise=exercise) + IMPORTS
    assert verdict(data, inprocess.check(data["probe"], inputs, code))["passed"]


@pytest.mark.parametrize("exercise", EXERCISES)
def test_no_exercise_finds_its_answer_in_reach(tmp_path, exercise):
    """Only the attack here (the full order runs above): whatever it reads or imports, it
    defines only what it found, so finding anything that answers would pass."""
    folder = str(ROOT / "exercises" / exercise)
    attacked, verdict = grade(tmp_path, READS.format(folder=folder, exercise=exercise) + IMPORTS, exercise)
    assert attacked.returncode == 1 and verdict["passed"] is False, attacked.stdout[-1000:]


BAD_NAMES = {
    "a 3 MB class name": "raise type('E' * 3_000_000, (Exception,), {})('x' * 3_000_000)\n",
    "a 3 MB class name, in every case": (WRONG + "\nclass Huge(type('E' * 3_000_000, (Exception,), {})):\n    pass\n"
                                          "def broken(self, other):\n    raise Huge('x' * 3_000_000)\n"
                                          "Value.__mul__ = broken\n"),
    "a 3 MB module name": "raise type('E', (Exception,), {'__module__': 'm' * 3_000_000})()\n",
    "a __name__ that raises": ("class Meta(type):\n    @property\n    def __name__(cls):\n        raise ValueError\n"
                               "class E(Exception, metaclass=Meta):\n    pass\nraise E()\n"),
    "a __class__ that raises": ("class E(Exception):\n    @property\n    def __class__(self):\n"
                                "        raise ValueError\nraise E()\n"),
    "a __str__ that raises an exception with a 3 MB name": (
        "class E(Exception):\n    def __str__(self):\n        raise type('F' * 3_000_000, (Exception,), {})()\n"
        "raise E()\n"),
}


@pytest.mark.parametrize("name", sorted(BAD_NAMES))
def test_bad_names_give_a_short_clear_verdict(tmp_path, name):
    verdict = attack_in_order(tmp_path, BAD_NAMES[name])
    printed = cli("grade", EXERCISE, str(next(tmp_path.glob("*.py"))))  # the text output, too
    assert len(json.dumps(verdict)) < 20_000 and len(printed.stdout) < 20_000
    assert "Traceback (most recent call last)" not in printed.stdout + printed.stderr  # never the grader's own
    assert verdict["summary"].startswith(("Your code raised", "2 of", "1 of", "0 of", "3 of")), verdict["summary"]


def test_a_str_that_never_returns_is_stopped(tmp_path):
    code = "class E(Exception):\n    def __str__(self):\n        while True:\n            pass\nraise E()\n"
    verdict = attack_in_order(tmp_path, code)
    assert verdict["status"] == "timeout" and "too long" in verdict["summary"]
