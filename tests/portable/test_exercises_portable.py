"""Exercise and grader checks that run under CPython (pytest) and inside Pyodide.

Every exercise is proven (solution passes, starter fails, each known mistake
fails with its own message), correct alternatives pass, and learner code
cannot forge a pass.
"""

from exercises.catalog import load, load_all
from exercises.grader import grade, run
from exercises.proof import prove


def _with(exercise_id, old, new):
    exercise = load(exercise_id)
    assert old in exercise.starter
    return exercise, exercise.starter.replace(old, new)


def test_every_exercise_is_proven():
    exercises = load_all()
    assert {"mul-backward", "sub-backward", "backward-tail"} <= set(exercises)
    for exercise in exercises.values():
        assert prove(exercise) == [], exercise.id
        assert exercise.mistakes, f"{exercise.id} has no known mistakes"
        assert exercise.hints, f"{exercise.id} has no hints"


CORRECT_ALTERNATIVES = [
    ("mul-backward", "self.grad += ____", "self.grad += out.grad * other.data"),
    ("mul-backward", "self.grad += ____", "self.grad = self.grad + other.data * out.grad"),
    ("sub-backward", "            ____\n            ____\n",
     "            self.grad += 1 * out.grad\n            other.grad += -1 * out.grad\n"),
    ("sub-backward", "            ____\n            ____\n",
     "            other.grad = other.grad - out.grad\n            self.grad = self.grad + out.grad\n"),
    ("backward-tail", "        ____\n",
     "        self.grad = 1\n        for node in topo[::-1]:\n            node._backward()\n"),
    ("backward-tail", "        ____\n",
     "        self.grad = 1.0\n        for i in range(len(topo) - 1, -1, -1):\n            topo[i]._backward()\n"),
    ("backward-tail", "        ____\n",
     "        self.grad = 1.0\n        while topo:\n            topo.pop()._backward()\n"),
]


def test_correct_alternatives_pass():
    for exercise_id, old, new in CORRECT_ALTERNATIVES:
        exercise, code = _with(exercise_id, old, new)
        verdict = grade(exercise, code)
        assert verdict["passed"], (exercise_id, new, verdict["tests"])


def test_answers_that_fit_only_the_page_numbers_fail():
    for exercise_id, old, new in [
        ("mul-backward", "self.grad += ____", "self.grad += 3.0 * out.grad"),
        ("sub-backward", "            ____\n            ____\n",
         "            self.grad += 1.0\n            other.grad -= 1.0\n"),
        ("backward-tail", "        ____\n",
         "        for v, g in zip(topo, [-6.0, -4.0, -12.0, -2.0, -2.0, -2.0, 7.0, 1.0]):\n            v.grad = g\n"),
    ]:
        exercise, code = _with(exercise_id, old, new)
        assert not grade(exercise, code)["passed"], (exercise_id, new)


def test_blank_left_names_its_line():
    exercise = load("mul-backward")
    verdict = grade(exercise, exercise.starter)
    line = exercise.starter.splitlines().index("            self.grad += ____") + 1
    assert verdict["status"] == "blank" and verdict["headline"] == "Not yet"
    assert f"line {line}" in verdict["summary"]


def test_syntax_error_names_the_learners_line():
    exercise, code = _with("mul-backward", "self.grad += ____", "self.grad += other.data *")
    verdict = grade(exercise, code)
    line = code.splitlines().index("            self.grad += other.data *") + 1
    assert verdict["status"] == "syntax" and verdict["error"]["line"] == line
    assert f"line {line}" in verdict["error"]["traceback"]


def test_exception_traceback_uses_the_learners_line_numbers():
    exercise, code = _with("mul-backward", "self.grad += ____", "self.grad += other.dta * out.grad")
    verdict = grade(exercise, code)
    line = code.splitlines().index("            self.grad += other.dta * out.grad") + 1
    assert not verdict["passed"]
    # the demo at the bottom of the starter calls backward, so the error surfaces before the tests
    assert verdict["status"] == "error"
    assert verdict["error"]["type"] == "AttributeError" and verdict["error"]["line"] == line
    assert f"line {line}, in _backward" in verdict["error"]["traceback"]
    assert "grader" not in verdict["error"]["traceback"] and "sandbox" not in verdict["error"]["traceback"]


def test_errors_inside_tests_point_at_the_learners_line():
    solution = load("mul-backward").solution
    code = solution[: solution.index("\n\na, b, c, d =")].replace(  # without the demo at the bottom
        "other.grad += self.data * out.grad", "other.grad += self.data * out.grad\n            if out.grad != 1.0: 1 / 0")
    verdict = grade(load("mul-backward"), code)
    line = code.splitlines().index("            if out.grad != 1.0: 1 / 0") + 1
    failing = [t["message"] for t in verdict["tests"] if not t["passed"]]
    assert failing and f"ZeroDivisionError on line {line}" in failing[0]


def test_output_is_captured_and_capped():
    verdict = run("for i in range(100000):\n    print('line', i)\n")
    assert verdict["status"] == "ok" and verdict["stdout_truncated"]
    assert verdict["stdout"].startswith("line 0\n") and len(verdict["stdout"]) <= 20_000


def test_exit_and_input_are_reported_not_fatal():
    for code, words in [("import sys\nsys.exit()", "exit()"), ("raise SystemExit(3)", "exit()"),
                        ("name = input('name? ')", "EOFError")]:
        verdict = run(code)
        assert verdict["status"] == "error", code
        assert words in verdict["summary"] + verdict["error"]["traceback"], verdict
    assert run("print('still alive')")["stdout"] == "still alive\n"


def test_each_run_gets_a_fresh_namespace():
    run("leftover = 42")
    verdict = run("print(leftover)")
    assert verdict["status"] == "error" and verdict["error"]["type"] == "NameError"


FORGERIES = {
    "prints passed": "print('Passed: All 4 tests pass.')\nprint('PASS')\n",
    "redefines print and builtins": (
        "import builtins\nbuiltins.print = lambda *a, **k: None\nbuiltins.abs = lambda x: 0\n"
        "builtins.isinstance = lambda *a: True\nbuiltins.len = lambda x: 0\n"),
    "rigs __eq__": (
        "class Anything(float):\n    def __eq__(self, other): return True\n"
        "    def __ne__(self, other): return False\n"),
    "patches the checks": (
        "import exercises.checks as c\nc.close = lambda *a, **k: True\nc.expect = lambda *a, **k: None\n"
        "c.TestFailure = type('Nope', (Exception,), {})\n"),
    "patches the grader": (
        "import exercises.grader as g\n"
        "g._run_one_test = lambda *a, **k: (True, '')\n"
        "g._verdict.__defaults__ = None\n"),
    "patches the reference engine": (
        "import engine, engine.engine\n"
        "engine.Value.__add__ = lambda s, o: s\nengine.engine.Value.backward = lambda s: None\n"),
    "patches math and random": (
        "import math, random\nmath.isclose = lambda *a, **k: True\nmath.isfinite = lambda x: True\n"
        "random.Random.uniform = lambda self, a, b: 3.0\n"),
    "installs a trace hook": "import sys\nsys.settrace(lambda *a: None)\nsys.setprofile(lambda *a: None)\n",
    "rewrites the checks' code": (
        "import exercises.checks as c\nc.close.__code__ = (lambda *a, **k: True).__code__\n"
        "c.expect.__code__ = (lambda *a, **k: None).__code__\n"),
    "blinds the restore, then rewrites the checks": (
        "import builtins, operator\nimport exercises.checks as c\n"
        "c.close.__code__ = (lambda *a, **k: True).__code__\n"
        "builtins.all = lambda *a: True\nbuiltins.len = lambda x: 0\nbuiltins.map = lambda *a: []\n"
        "builtins.list = lambda *a: []\noperator.is_ = lambda a, b: True\n"),
    "swaps math in sys.modules": (
        "import sys, types\nfake = types.ModuleType('math')\nfake.isclose = lambda *a, **k: True\n"
        "fake.isfinite = lambda x: True\nsys.modules['math'] = fake\n"),
    "swallows the tests' exceptions": (
        "import builtins\n_orig = builtins.AssertionError\n"
        "class Swallow(_orig): pass\nbuiltins.AssertionError = Swallow\n"),
}


def test_learner_code_cannot_forge_a_pass():
    exercise = load("mul-backward")
    wrong = exercise.starter.replace("self.grad += ____", "self.grad += self.data * out.grad")
    for name, attack in FORGERIES.items():
        # `Anything` would only matter if the learner's grads were objects; make them so.
        code = attack + wrong
        if name == "rigs __eq__":
            code = code.replace("self.grad = 0.0", "self.grad = Anything(0.0)")
        verdict = grade(exercise, code)
        assert not verdict["passed"], name
    assert grade(exercise, exercise.solution)["passed"]


def test_grader_state_survives_a_hostile_run():
    exercise = load("mul-backward")
    grade(exercise, FORGERIES["patches the grader"] + FORGERIES["redefines print and builtins"] + exercise.solution)
    assert len([1, 2, 3]) == 3 and abs(-2) == 2
    assert grade(exercise, exercise.solution)["passed"]
    assert not grade(exercise, exercise.starter)["passed"]


def test_the_browser_grades_from_what_it_ships():
    """course.zip carries exercise.json, starter.py and tests.py only."""
    import tempfile
    from pathlib import Path

    from exercises.catalog import load_exercise, shipped_files

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sub-backward"
        folder.mkdir()
        for name, text in shipped_files(load("sub-backward")).items():
            (folder / name).write_text(text, encoding="utf-8")
        exercise = load_exercise(folder, complete=False)
        assert exercise.solution == "" and exercise.mistakes == ()
        full = load("sub-backward")
        assert (exercise.title, exercise.hints, exercise.timeout_seconds) == (full.title, full.hints, full.timeout_seconds)
        assert grade(exercise, load("sub-backward").solution)["passed"]


def test_warm_up_grades_the_reference_engine_through_the_check_path():
    """The worker primes the grader after boot by sending the reference engine
    through check(); that is only a true rehearsal if the reference passes."""
    import json

    from exercises import worker_api

    for exercise_id in worker_api.WARM_UP_EXERCISES:
        assert worker_api.check(exercise_id, worker_api.REFERENCE_ANSWER)["passed"], exercise_id
    step, more = 0, True
    while more:
        more = json.loads(worker_api.call("warm_up", json.dumps([step])))
        step += 1
    assert step == len(worker_api.WARM_UP_EXERCISES) + 1
    # a warm grader still tells right from wrong
    assert worker_api.check("mul-backward", load("mul-backward").solution)["passed"]
    assert not worker_api.check("mul-backward", load("mul-backward").starter)["passed"]
