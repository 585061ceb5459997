"""The grader, run under CPython (pytest) and inside Pyodide (tests/pyodide), the
way the browser runs it: learner code and the probes in this interpreter, the
verdict from grader.compare on the outputs alone.

Every exercise is proved, correct rewrites pass, real misconceptions fail,
bad input gets a clear verdict, and learner code can neither forge a pass nor
change what a later run computes. In Pyodide it also finds no path to the
JavaScript bridge (tests/pyodide arms runner.guard, as the worker does).
"""

import json
import sys
from pathlib import Path

from grader.catalog import apply_edits, fill_blanks, load, load_all
from grader.compare import verdict
from grader.grading import data_for
from grader.proof import prove
from runner.execute import collect, run
from tests.grading.answers import RIGHT, WRONG
from tests.portable import inprocess as worker_api

IN_PYODIDE = sys.platform == "emscripten"
# seconds under CPython, so left out of `make test-fast` (tests/conftest.py); the Pyodide
# run, which is where a path to JavaScript exists, is in `make test`
SLOW = {"test_learner_code_finds_no_path_to_javascript"}


def grade(exercise, code):
    """The browser's Check: outputs from this interpreter, the verdict from the data."""
    data = data_for(exercise)
    report = collect(code, data["probe"], [c["input"] for c in data["cases"]], exercise.timeout_seconds)
    return verdict(data, json.loads(json.dumps(report)))


def _code(exercise, how):
    return apply_edits(exercise.solution, how[1]) if isinstance(how, tuple) else fill_blanks(exercise.starter, how)


def test_every_exercise_is_proven():
    exercises = load_all()
    folders = {p.parent.name for p in Path(__file__).resolve().parents[2].glob("exercises/*/exercise.toml")}
    assert set(exercises) == folders and len(folders) >= 13
    for exercise in exercises.values():
        assert prove(exercise) == [], exercise.id
        assert exercise.mistakes and exercise.hints, exercise.id


def test_correct_rewrites_pass():
    for exercise_id, how, note in RIGHT:
        exercise = load(exercise_id)
        result = grade(exercise, _code(exercise, how))
        assert result["passed"], (exercise_id, note, result["summary"], result["tests"])


def test_real_misconceptions_fail():
    for exercise_id, how, note in WRONG:
        exercise = load(exercise_id)
        result = grade(exercise, _code(exercise, how))
        assert not result["passed"], (exercise_id, note)
        assert result["status"] == "failed", (exercise_id, note, result["status"], result["summary"])


def test_answers_that_fit_only_the_page_numbers_fail():
    for exercise_id, fills in [
        ("mul-backward", ["3.0 * out.grad", "2.0 * out.grad"]),
        ("sub-backward", ["out = Value(self.data - other.data, (self, other))\ndef _backward():\n    self.grad += 1.0\n    other.grad -= 1.0\nout._backward = _backward\nreturn out"]),
        ("backward-tail", ["for v, g in zip(topo, [-6.0, -4.0, -12.0, -2.0, -2.0, -2.0, 7.0, 1.0]):\n    v.grad = g"]),
    ]:
        exercise = load(exercise_id)
        assert not grade(exercise, fill_blanks(exercise.starter, fills))["passed"], exercise_id


def test_a_wrong_answer_gets_a_counterexample_and_the_cli_its_seed():
    """The learner reads what differs and on which inputs; the seed and the case number
    are for the command line (`where`), never in the learner's text."""
    exercise = load("mul-backward")
    result = grade(exercise, fill_blanks(exercise.starter, ["other.data * out.grad + 0.001", "self.data * out.grad"]))
    failing = [t for t in result["tests"] if not t["passed"]]
    assert result["diagnosis"] is None  # no known mistake computes this
    assert failing and "should be" in failing[0]["message"] and "but it is" in failing[0]["message"]
    assert "seed" not in failing[0]["message"] and "case" not in failing[0]["message"]
    assert "seed 1" in failing[0]["where"]


def test_only_a_check_speaks_of_checks():
    """Code that raises on Run says what it raised; on Check, also that the checks
    could not run (a Run grades nothing)."""
    ran = run("x = 1\n1 / 0\n")
    assert ran["status"] == "error" and ran["summary"] == "Your code raised ZeroDivisionError on line 2."
    exercise = load("mul-backward")
    checked = grade(exercise, fill_blanks(exercise.starter, ["other.data * out.grad", "self.data * out.grad"]) + "\n1 / 0\n")
    assert checked["summary"].startswith("Your code raised ZeroDivisionError on line ")
    assert ", so the checks could not run." in checked["summary"]
    assert checked["summary"].endswith("Something you divide by is 0 here.")  # plain words (compare.py)
    assert run("exit()")["summary"] == "Your code called exit()."


def test_blank_left_names_its_line():
    exercise = load("mul-backward")
    result = grade(exercise, exercise.starter)
    line = exercise.starter.splitlines().index("            self.grad += ____") + 1
    assert result["status"] == "blank" and result["headline"] == "Not yet"
    assert f"line {line}" in result["summary"]


def test_syntax_error_names_the_learners_line():
    exercise = load("mul-backward")
    code = fill_blanks(exercise.starter, ["other.data *", "self.data * out.grad"])
    result = grade(exercise, code)
    line = code.splitlines().index("            self.grad += other.data *") + 1
    assert result["status"] == "syntax" and result["error"]["line"] == line
    assert f"line {line}" in result["error"]["traceback"]


def test_exception_traceback_uses_the_learners_line_numbers():
    exercise = load("mul-backward")
    code = fill_blanks(exercise.starter, ["other.dta * out.grad", "self.data * out.grad"])
    result = grade(exercise, code)
    line = code.splitlines().index("            self.grad += other.dta * out.grad") + 1
    assert result["status"] == "error"  # the demo at the bottom calls backward first
    assert result["error"]["type"] == "AttributeError" and result["error"]["line"] == line
    assert f"line {line}, in _backward" in result["error"]["traceback"]
    assert "grader" not in result["error"]["traceback"]


def test_an_error_inside_a_case_points_at_the_learners_line():
    exercise = load("mul-backward")
    code = fill_blanks(exercise.starter, ["out.data / self.data * out.grad", "self.data * out.grad"])
    result = grade(exercise, code)
    line = code.splitlines().index("            self.grad += out.data / self.data * out.grad") + 1
    failing = [t["message"] for t in result["tests"] if not t["passed"]]
    assert not result["passed"] and failing
    assert any("ZeroDivisionError" in m and f"on line {line}" in m for m in failing), failing


def test_messages_are_capped_and_never_crash_the_grader():
    exercise = load("mul-backward")
    for raiser in ("class E(Exception):\n    def __str__(self):\n        raise ValueError('no')\nraise E()\n",
                   "raise ValueError('x' * 50_000_000)\n",
                   "class E(Exception):\n    def __str__(self):\n        return 5\nraise E()\n"):
        result = grade(exercise, raiser + exercise.solution)
        assert result["status"] == "error" and len(result["error"]["traceback"]) < 3000, raiser[:40]
        assert len(result["summary"]) < 400
    result = grade(exercise, "class E(Exception):\n    def __str__(self):\n        raise ValueError\nraise E()\n")
    assert "could not be read" in result["error"]["message"]


def test_output_is_captured_and_capped():
    report = run("for i in range(100000):\n    print('line', i)\n")
    assert report["status"] == "ok" and report["stdout_truncated"]
    assert report["stdout"].startswith("line 0\n") and len(report["stdout"]) <= 20_000


def test_exit_and_input_are_reported_not_fatal():
    for code, words in [("import sys\nsys.exit()", "exit()"), ("raise SystemExit(3)", "exit()"),
                        ("name = input('name? ')", "EOFError")]:
        report = run(code)
        assert report["status"] == "error", code
        assert words in report["summary"] + report["error"]["traceback"], report
    assert run("print('still alive')")["stdout"] == "still alive\n"


def test_each_run_gets_a_fresh_namespace():
    run("leftover = 42")
    report = run("print(leftover)")
    assert report["status"] == "error" and report["error"]["type"] == "NameError"


# Code pasted in front of a wrong answer, trying to turn it into "Passed".
FORGERIES = {
    "prints passed": "print('Passed: All 4 checks pass.')\n",
    "redefines builtins": ("import builtins\nbuiltins.print = lambda *a, **k: None\nbuiltins.abs = lambda x: 0\n"
                           "builtins.isinstance = lambda *a: True\nbuiltins.len = lambda x: 0\n"),
    "rigs __eq__ on its grads": ("class Anything(float):\n    def __eq__(self, other): return True\n"
                                 "    def __ne__(self, other): return False\n"),
    "patches the comparison": ("import grader.compare as c\nc.close = lambda *a, **k: True\n"
                               "c.case_passes = lambda *a: True\n"),
    "patches the probes": ("import runner.probes as p\np.number = lambda x: 0.0\n"
                           "p.OPS = {}\n"),
    "patches the reference engine": ("import engine, engine.engine\n"
                                     "engine.Value.__add__ = lambda s, o: s\nengine.engine.Value.backward = lambda s: None\n"),
    "patches math": "import math\nmath.isclose = lambda *a, **k: True\nmath.isfinite = lambda x: True\n",
    "installs a trace hook": "import sys\nsys.settrace(lambda *a: None)\nsys.setprofile(lambda *a: None)\n",
    "breaks io": "import io\nio.StringIO = None\n",
    "swaps math in sys.modules": ("import sys, types\nfake = types.ModuleType('math')\n"
                                  "fake.isclose = lambda *a, **k: True\nsys.modules['math'] = fake\n"),
    "poisons the sandbox": ("import runner.sandbox as s\ns.new_restore = lambda *a: (lambda: None)\n"
                            "s.Sandbox = type('S', (), {'restore': lambda self: None})\n"),
    "poisons the worker API": ("import runner.api as w\nw.API['check'] = lambda *a: {'status': 'ran'}\n"
                               "w.check = lambda *a: {'status': 'ran'}\n"),
    "adds a meta path finder": ("import sys\nclass F:\n    def find_spec(self, *a):\n        raise ImportError('x')\n"
                                "sys.meta_path.insert(0, F())\nsys.path.insert(0, '/nowhere')\n"),
}


def test_learner_code_cannot_forge_a_pass():
    exercise = load("mul-backward")
    wrong = fill_blanks(exercise.starter, ["self.data * out.grad", "other.data * out.grad"])
    for name, attack in FORGERIES.items():
        code = attack + wrong
        if name == "rigs __eq__ on its grads":
            code = code.replace("self.grad = 0.0", "self.grad = Anything(0.0)")
        assert not grade(exercise, code)["passed"], name
    assert grade(exercise, exercise.solution)["passed"]


def test_nothing_a_run_does_outlives_it():
    """Each forgery runs with a correct answer; the next Check of a wrong answer
    still fails and of the right one still passes, through the worker's API."""
    exercise = load("mul-backward")
    data = data_for(exercise)
    inputs = [c["input"] for c in data["cases"]]
    wrong = fill_blanks(exercise.starter, ["self.data * out.grad", "other.data * out.grad"])
    for name, attack in FORGERIES.items():
        worker_api.check("value", inputs, attack + exercise.solution)
        assert len([1, 2, 3]) == 3 and abs(-2) == 2, name
        import io
        assert io.StringIO is not None, name
        assert not verdict(data, worker_api.check("value", inputs, wrong))["passed"], name
        assert verdict(data, worker_api.check("value", inputs, exercise.solution))["passed"], name


def test_warm_up_runs_the_check_path():
    """The warm-up walks a Check on a Value that holds no exercise's rule: each input
    gets out.grad unchanged, so no product or other local rate passes."""
    from runner import api

    assert json.loads(api.call("warm_up", "[]")) is True
    report = worker_api.check("value", api.WARM_UP_CASES, api.WARM_UP_CODE)
    assert report["status"] == "ran" and all(isinstance(o, list) for o in report["outputs"])
    exercise = load("mul-backward")
    assert not grade(exercise, api.WARM_UP_CODE)["passed"]


ESCAPE_SCAN = r'''
import sys, builtins
BRIDGE = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")
STRICT = sys.platform == "emscripten"  # CPython has no bridge, and no guard to test
found, seen = [], set()

def flag(o, path):
    t = type(o)
    n = getattr(t, "__name__", "")
    if not isinstance(o, type) and "Js" in n and n != "JsNull":
        found.append(("a JS object", n, path))
    if n == "module" and str(getattr(o, "__name__", "")).split(".")[0] in BRIDGE:
        found.append(("a bridge module", o.__name__, path))
    if STRICT and n == "builtin_function_or_method" and getattr(o, "__name__", "") == "create_builtin":
        found.append(("the unguarded create_builtin", path))

queue = [(m, f"sys.modules[{k!r}]") for k, m in list(sys.modules.items())] + [(builtins, "builtins")]
frame = sys._getframe()
while frame:
    queue += [(frame.f_locals, f"frame {frame.f_code.co_name}"), (frame.f_globals, f"globals of {frame.f_code.co_name}")]
    frame = frame.f_back
try:
    raise ValueError
except ValueError as e:
    tb_frame = e.__traceback__.tb_frame
    while tb_frame:
        queue.append((tb_frame.f_locals, "traceback frame"))
        tb_frame = tb_frame.f_back
stack = [object]
while stack:
    for sub in type.__subclasses__(stack.pop()):
        if id(sub) not in seen:
            seen.add(id(sub))
            queue.append((sub, f"subclass {sub.__name__}"))
            stack.append(sub)
seen.clear()
count = 0
while queue and count < 400000:
    o, path = queue.pop()
    if id(o) in seen:
        continue
    seen.add(id(o))
    count += 1
    flag(o, path)
    try:
        if isinstance(o, dict):
            queue += [(v, f"{path}[{k!r}]"[:160]) for k, v in list(o.items())]
        elif isinstance(o, (list, tuple, set, frozenset)):
            queue += [(v, path + "[]") for v in list(o)]
        else:
            d = getattr(o, "__dict__", None)
            if isinstance(d, dict) or type(d).__name__ == "mappingproxy":
                queue.append((dict(d), path + ".__dict__"))
            for a in ("__globals__", "__closure__", "__self__", "__func__", "__wrapped__", "cell_contents",
                      "__mro__", "fget", "fset", "__objclass__", "__defaults__", "__kwdefaults__"):
                try:
                    queue.append((getattr(o, a), f"{path}.{a}"[:160]))
                except Exception:
                    pass
    except Exception:
        pass

import importlib, importlib.machinery
for name in BRIDGE + ("_imp", "gc"):
    try:
        __import__("_imp").create_builtin(importlib.machinery.ModuleSpec(name, None, origin="built-in"))
        if STRICT and name != "gc":
            found.append(("_imp.create_builtin rebuilt", name))
    except Exception:
        pass
for name in ("js", "pyodide.ffi", "pyodide_js", "_pyodide_core", "pyodide"):
    for load in (__import__, importlib.import_module):
        try:
            load(name)
            found.append(("imported", name))
        except Exception:
            pass
import gc
for walk in (gc.get_objects, lambda: gc.get_referrers(sys), lambda: gc.get_referents(sys)):
    try:
        walk()
        if sys.platform == "emscripten":
            found.append(("gc walks objects",))
    except Exception:
        pass
print("scanned", count, "objects")
for item in found[:20]:
    print("FOUND", item)
'''


def test_learner_code_finds_no_path_to_javascript():
    """From learner code: frames, tracebacks, gc, sys.modules, object.__subclasses__(),
    function globals and closures, _imp and importlib reach no JS object, no js,
    no pyodide_js, no pyodide.ffi (in Pyodide, with the guard armed as in the worker)."""
    report = worker_api.run(ESCAPE_SCAN, 120)
    assert report["status"] == "ok", report
    assert "scanned" in report["stdout"], report["stdout"]
    assert "FOUND" not in report["stdout"], report["stdout"]
    if IN_PYODIDE:
        assert int(report["stdout"].split("scanned ")[1].split()[0]) > 10_000
        blocked = worker_api.run("import js\n")
        assert blocked["status"] == "error" and "not available" in blocked["error"]["message"]


def test_every_invalid_visiting_order_fails_backward_tail():
    """Walks in a random order (a fresh shuffle on every backward()) are not valid
    reverse topological orders on some case with a reused inner node: each fails."""
    exercise = load("backward-tail")
    for seed in range(8):
        walk = (f"import random\norder = list(reversed(topo))\nrandom.Random({seed} + len(topo)).shuffle(order)\n"
                "self.grad = 1.0\nfor v in order:\n    v._backward()")
        assert not grade(exercise, fill_blanks(exercise.starter, [walk]))["passed"], seed


def test_the_standard_library_still_works_beside_the_guard():
    """Pyodide wraps time.sleep in its event-loop module; with the bridge hidden
    during runs, the guard puts the standard one back."""
    report = worker_api.run("import time, math, json, random, itertools, statistics\ntime.sleep(0.01)\n"
                            "print(statistics.mean([1, 2, 3]), json.dumps({'a': math.tau > 6}))\n")
    assert report["status"] == "ok", report["error"]
    assert report["stdout"] == "2 {\"a\": true}\n"
