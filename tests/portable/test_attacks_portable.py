"""Attacks on the worker's Python, run under CPython (pytest) and inside Pyodide
(tests/pyodide arms runner.guard and wraps every test function in hide(),
restore() and unhide(), as the worker wraps every call). Each test asserts the
attack FAILS: learner code reaches no JavaScript object, a later run computes
what it would have computed anyway, and the interpreter keeps answering.

Some attacks plant something in one test and look for its effect in the next:
in Pyodide an unhide() and a hide() run between two test functions, as between
two calls of the worker (tests/pyodide runs them in name order, pytest in file
order: the same order here).
"""

import json
import sys

from grader.catalog import fill_blanks, load
from grader.compare import verdict
from grader.grading import data_for
from labs import LABS
from tests.portable import inprocess as worker_api

IN_PYODIDE = sys.platform == "emscripten"

# Learner code that looks for what earlier attacks stashed in __main__ (which no
# restore touches) and reports any JS object, bridge module or guard state in it.
LOOK = r'''
import sys
BRIDGE = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")
main = sys.modules["__main__"].__dict__
found, seen, queue = [], set(), [(v, k) for k, v in list(main.items()) if str(k).startswith("STASH")]
while queue:
    o, path = queue.pop()
    if id(o) in seen or len(seen) > 20000:
        continue
    seen.add(id(o))
    n = type(o).__name__
    if not isinstance(o, type) and "Js" in n and n != "JsNull":
        found.append(("a JS object", n, path))
    if n == "module" and str(getattr(o, "__name__", "")).split(".")[0] in BRIDGE:
        found.append(("a bridge module", o.__name__, path))
    if isinstance(o, dict):
        if "_state" in o or "pristine" in o or "_args" in o:
            found.append(("guard or restore state", path, sorted(map(str, o))[:8]))
        queue += [(v, f"{path}[{k!r}]") for k, v in list(o.items())]
    elif isinstance(o, (list, tuple, set)):
        queue += [(v, path + "[]") for v in list(o)]
print("looked at", len(seen))
for item in found[:10]:
    print("FOUND", item)
'''


def _pyodide_only(why):
    """Under CPython a test of the browser's guard has nothing to attack: skipped, not
    passed (pytest is CPython's only: the Pyodide runner never gets here)."""
    import pytest
    pytest.skip(why)


def _clean_stash():
    worker_api.run("import sys\nm = sys.modules['__main__'].__dict__\n"
                   "for k in [k for k in list(m) if str(k).startswith('STASH')]:\n    del m[k]\n")


def _nothing_found():
    report = worker_api.run(LOOK)
    assert report["status"] == "ok", report
    assert "looked at" in report["stdout"] and "FOUND" not in report["stdout"], report["stdout"]


def _ok(code):
    report = worker_api.run(code)
    assert report["status"] == "ok", (code[:60], report["error"])
    return report["stdout"]


# A spy: whatever calls it, it keeps every frame's locals of the stack above it, and
# whatever bridge modules sys.modules holds right then.
SPY = r'''
import sys
busy = []
def spy(*args, **kwargs):
    if busy:
        return None
    busy.append(1)
    try:
        look()
    finally:
        busy.clear()
def look():
    main = sys.modules["__main__"].__dict__
    stash = main.setdefault("STASH_SPY", [])
    for name in ("js", "pyodide_js", "_pyodide_core", "pyodide.ffi", "pyodide"):
        module = sys.modules.get(name)
        if module is not None and type(module).__name__ != "Planted":
            stash.append([module])
    try:
        frame = sys._getframe(2)
    except Exception:
        frame = None
    while frame is not None:
        stash.append(dict(frame.f_locals))
        frame = frame.f_back
    return None
'''

PLANTS_BEFORE_UNHIDE = {
    # objects whose __del__ runs when unhide() puts the bridge back over them
    "bridge names in sys.modules": SPY + (
        "class Planted:\n    def __del__(self):\n        spy()\n"
        "for name in ('js', 'pyodide_js', '_pyodide_core', 'pyodide.ffi', 'pyodide'):\n"
        "    sys.modules[name] = Planted()\n"),
    # code that runs after the run's own restore (an exception's __str__), patching what
    # hide() and unhide() used to look up at call time
    "patched gc and builtins after the restore": SPY + (
        "import gc, builtins\nclass E(Exception):\n    def __str__(self):\n"
        "        gc.enable = gc.disable = spy\n"
        "        builtins.getattr = lambda *a: spy()\n"
        "        return 'boom'\nraise E()\n"),
    # a learner finder whose metaclass answers __module__, and a __main__ value whose
    # metaclass answers __name__: hide() reads both
    "metaclass properties read by hide()": SPY + (
        "class Meta(type):\n    @property\n    def __module__(cls):\n        spy()\n        return 'x'\n"
        "    @property\n    def __name__(cls):\n        spy()\n        return 'x'\n"
        "class Finder(metaclass=Meta):\n    def find_spec(self, *a):\n        return None\n"
        "class E(Exception):\n    def __str__(self):\n"
        "        sys.meta_path.append(Finder())\n"
        "        sys.modules['__main__'].__dict__['planted_value'] = Finder()\n"
        "        return 'boom'\nraise E()\n"),
    # a key of sys.modules that answers __eq__ for the bridge's names (same hash)
    "a colliding key in sys.modules": SPY + (
        "class Key(str):\n    def __eq__(self, other):\n        spy()\n        return False\n"
        "    __hash__ = str.__hash__\n"
        "class E(Exception):\n    def __str__(self):\n"
        "        for name in ('pyodide_js', 'pyodide', 'pyodide.ffi', '_pyodide_core', 'json'):\n"
        "            sys.modules[Key(name)] = None\n"
        "            sys.modules['__main__'].__dict__[Key(name)] = None\n"
        "        return 'boom'\nraise E()\n"),
    # finalizers in a reference cycle, for whatever collection runs next
    "cyclic garbage with finalizers": SPY + (
        "class Cycle:\n    def __del__(self):\n        spy()\n"
        "for _ in range(2000):\n    a = Cycle()\n    a.me = a\n"
        "class E(Exception):\n    def __str__(self):\n"
        "        for _ in range(200):\n            c = Cycle()\n            c.me = c\n"
        "        return 'boom'\nraise E()\n"),
}


# A test that looks for what an earlier one planted calls `_after(plant)` first: run in
# file order (tests/pyodide always runs them so), the plant has run in an earlier call, with
# the worker's unhide() and hide() between; run alone, it plants here first, so the look
# never passes for want of anything to find.
_PLANTED = set()


def _after(plant):
    if plant.__name__ not in _PLANTED:
        plant()
    _PLANTED.discard(plant.__name__)


def test_attack_01_plant_what_runs_inside_hide_and_unhide():
    _clean_stash()
    for name, code in PLANTS_BEFORE_UNHIDE.items():
        worker_api.run(code)
        assert worker_api.run("print('alive')")["stdout"] == "alive\n", name
    _PLANTED.add(test_attack_01_plant_what_runs_inside_hide_and_unhide.__name__)


def test_attack_02_nothing_planted_reached_the_bridge_or_the_guard():
    _after(test_attack_01_plant_what_runs_inside_hide_and_unhide)
    _nothing_found()
    _clean_stash()


def test_attack_03_plant_in_the_bridge_namespaces_and_classes():
    """While hidden, the bridge's namespaces are empty dicts learner code can still
    reach (through `__globals__` of a bridge class's methods), and the bridge's
    classes are reachable through `object.__subclasses__()`."""
    _clean_stash()
    _ok(SPY + r'''
class Planted:
    def __del__(self):
        spy()
BRIDGE = ("js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core")
classes, stack = set(), [object]
while stack:
    for sub in type.__subclasses__(stack.pop()):
        if sub not in classes:
            classes.add(sub)
            stack.append(sub)
for cls in classes:
    if str(vars(cls).get("__module__", "")).split(".")[0] not in BRIDGE:
        continue
    for key, value in list(vars(cls).items()):
        if type(value).__name__ == "function":
            namespace = value.__globals__
            namespace["__name__"] = Planted()        # put back by unhide(): freed then
            namespace["isinstance"] = lambda *a: spy()  # would shadow a builtin for Pyodide's own code
            try:
                setattr(cls, key, lambda *a, **k: spy())
            except Exception:
                pass
    try:
        cls.planted = Planted()
    except Exception:
        pass
''')
    _PLANTED.add(test_attack_03_plant_in_the_bridge_namespaces_and_classes.__name__)


def test_attack_04_the_bridge_came_back_as_it_was():
    _after(test_attack_03_plant_in_the_bridge_namespaces_and_classes)
    _nothing_found()
    if IN_PYODIDE:  # the planted methods were taken out again by unhide()
        report = _ok("BRIDGE = ('js', 'pyodide', 'pyodide_js', '_pyodide', '_pyodide_core')\n"
                     "classes, stack = set(), [object]\nwhile stack:\n"
                     "    for sub in type.__subclasses__(stack.pop()):\n"
                     "        if sub not in classes:\n            classes.add(sub)\n            stack.append(sub)\n"
                     "for cls in classes:\n"
                     "    if str(vars(cls).get('__module__', '')).split('.')[0] in BRIDGE:\n"
                     "        for key, value in vars(cls).items():\n"
                     "            if key == 'planted' or getattr(value, '__module__', '') == '__main__':\n"
                     "                print('PLANTED', cls.__name__, key)\n")
        assert "PLANTED" not in report, report
    _clean_stash()


def test_attack_05_plant_a_key_that_breaks_hide():
    """A key of sys.modules that is not a str made every later call fail in hide()."""
    worker_api.run("class E(Exception):\n    def __str__(self):\n        import sys\n"
                   "        sys.modules[12345] = 1\n        sys.modules[b'js'] = 2\n        return 'x'\nraise E()\n")
    assert _ok("print('alive')") == "alive\n"
    _PLANTED.add(test_attack_05_plant_a_key_that_breaks_hide.__name__)


def test_attack_06_later_calls_still_run():
    _after(test_attack_05_plant_a_key_that_breaks_hide)
    assert _ok("import sys\nprint(12345 in sys.modules, b'js' in sys.modules)") == "False False\n"


def test_frames_of_the_restore_hold_nothing_to_poison():
    """A learner finalizer or a patched `sys.gettrace` used to run inside the restore,
    read its frame's `pristine` snapshot and change it: every later restore then put
    the change back, for good."""
    _clean_stash()
    poison = r'''
def poison(frame):
    while frame is not None:
        for name in ("pristine", "_args", "_pristine"):
            found = frame.f_locals.get(name)
            state = found[0] if name == "_args" and found else found
            if type(state) is dict:
                for live, saved, keys, values in state["namespaces"]:
                    if saved.get("__name__") == "math":
                        saved["sqrt"] = lambda x: 42.0
        frame = frame.f_back
'''
    attacks = [
        poison + "import sys, math\nsys.gettrace = lambda: poison(sys._getframe(1))\nmath.touched = 1\n",
        poison + "import sys, math\nclass Planted:\n    def __del__(self):\n        poison(sys._getframe(1))\n"
                 "math.planted = Planted()\n",
        poison + "import sys, math\nclass Key(str):\n    def __eq__(self, other):\n"
                 "        poison(sys._getframe(1))\n        return False\n    __hash__ = str.__hash__\n"
                 "sys.modules[Key('math')] = None\nmath.touched = 1\n",
    ]
    for attack in attacks:
        worker_api.run(attack)
        assert _ok("import math\nprint(math.sqrt(4))") == "2.0\n", attack[-80:]
        assert _ok("import math\nprint(math.sqrt(4))") == "2.0\n", attack[-80:]
    _nothing_found()


def test_trace_profile_and_monitoring_callbacks():
    """In Pyodide they would see hide()'s and unhide()'s frames: refused. Elsewhere
    the restore takes them out."""
    tracing = sys.gettrace()  # a debugger's or a coverage tool's, if any: the restore keeps it
    worker_api.run("import threading\nthreading.settrace(lambda *a: None)\n")  # new threads only
    for code in ("import sys\nsys.settrace(lambda *a: None)\n", "import sys\nsys.setprofile(lambda *a: None)\n",
                 "import sys\nm = sys.monitoring\nm.use_tool_id(4, 'x')\n"
                 "m.register_callback(4, m.events.PY_START, lambda *a: None)\nm.set_events(4, m.events.PY_START)\n"):
        report = worker_api.run(code)
        if IN_PYODIDE:
            assert report["status"] == "error" and "not available" in report["error"]["message"], code
        assert sys.gettrace() is tracing, code
        assert _ok("import sys\nprint(sys.getprofile() is None)") == "True\n", code
    if hasattr(sys, "monitoring"):
        worker_api.run("import sys\ntry:\n    sys.monitoring.free_tool_id(4)\nexcept Exception:\n    pass\n")


def test_files_a_later_import_would_load():
    """The current directory is on sys.path: a `statistics.py` written there was
    imported by a later run instead of the standard one."""
    if not IN_PYODIDE:
        _pyodide_only("no guard outside the browser's worker (each CLI check is its own process)")
    for code in ("open('statistics.py', 'w').write('def mean(xs):\\n    return 42\\n')\n",
                 "import os\nos.close(os.open('/home/pyodide/fractions.py', os.O_WRONLY | os.O_CREAT))\n",
                 "import pathlib\npathlib.Path('decimal.pyc').write_bytes(b'x')\n",
                 "open('notes.txt', 'w').write('x')\nimport os\nos.rename('notes.txt', 'statistics.py')\n",
                 "import os\nos.remove('/lib/python314.zip')\n",
                 "import os\nos.symlink('/tmp', '/home/pyodide/statistics')\n"):
        report = worker_api.run(code)
        assert report["status"] == "error" and "not available" in report["error"]["message"], (code, report)
    assert _ok("open('/tmp/notes.txt', 'w').write('x')\nprint(open('/tmp/notes.txt').read())") == "x\n"
    assert _ok("import statistics\nprint(statistics.mean([1, 2, 3]))") == "2\n"


def test_state_outside_module_namespaces_is_restored():
    for attack, check, expected in [
        ("import warnings\nwarnings.simplefilter('error')\n",
         "import warnings\nwarnings.warn('just a warning')\nprint('ok')", "ok\n"),
        ("import os\nos.chdir('/tmp')\n", "import os\nprint(os.getcwd() != '/tmp')", "True\n"),
        ("import sys\nsys.path = ['/nowhere']\nsys.modules = {}\nsys.meta_path = []\n",
         "import sys\nprint(len(sys.path) > 1, 'math' in sys.modules, len(sys.meta_path) > 1)", "True True True\n"),
        ("import sys\nsys.set_int_max_str_digits(640)\n", "print(len(str(10 ** 1000)))", "1001\n"),
        ("import sys\nsys.excepthook = sys.unraisablehook = sys.displayhook = print\nsys.exc_info = None\n",
         "import sys\nprint(print in (sys.excepthook, sys.unraisablehook, sys.displayhook), callable(sys.exc_info))",
         "False True\n"),
        ("import sys\nclass F:\n    def find_spec(self, *a):\n        raise ImportError('planted')\n"
         "for path in list(sys.path_importer_cache):\n    sys.path_importer_cache[path] = F()\n",
         "import sys\nsys.modules.pop('statistics', None)\nimport statistics\nprint(statistics.mean([1, 2, 3]))",
         "2\n"),
        ("import labs.training as t, labs\nt.XS[:] = []\nlabs.LABS.clear()\n",
         f"import labs.training as t, labs\nprint(len(t.XS) == 8, len(labs.LABS) == {len(LABS)})", "True True\n"),
    ]:
        worker_api.run(attack)
        assert _ok(check).endswith(expected), attack


def test_containers_of_the_probes_cannot_pass_a_later_wrong_answer():
    """`runner.probes.PROBES`, `OPS`, `FUNCTIONS` are dicts inside a module namespace:
    a patch of their entries used to outlive its run, and a later wrong answer
    then reported the reference engine's numbers and passed."""
    exercise = load("mul-backward")
    data = data_for(exercise)
    inputs = [c["input"] for c in data["cases"]]
    wrong = fill_blanks(exercise.starter, ["self.data * out.grad", "other.data * out.grad"])
    cheat = ("import runner.probes as p\nfrom engine import Value as Right\nreal = p.value_case\n"
             "p.PROBES['value'] = lambda ns, case: real({'Value': Right}, case)\n"
             "p.OPS['mul'] = lambda a, b: a * b\np.FUNCTIONS.clear()\n")
    worker_api.check("value", inputs, cheat + exercise.solution)
    assert not verdict(data, json.loads(json.dumps(worker_api.check("value", inputs, wrong))))["passed"]
    assert verdict(data, worker_api.check("value", inputs, exercise.solution))["passed"]


def test_a_run_that_breaks_its_own_report():
    """A str subclass printed by the code used to make `run()` itself raise (open:
    runner.execute); the exception reaches the worker's JavaScript as a PythonError
    (not fatal), and nothing of it outlives the call."""
    code = ("import sys\nclass S(str):\n    def __getitem__(self, i):\n        return object()\n"
            "sys.stdout.write(S('hello'))\n")
    try:
        report = worker_api.run(code)
        assert report["status"] in ("ok", "error")
    except TypeError:
        pass
    assert _ok("print('alive')") == "alive\n"


def test_the_bridge_stays_out_of_reach_by_other_doors():
    if not IN_PYODIDE:
        _pyodide_only("no bridge to JavaScript outside Pyodide")
    report = _ok(r'''
import importlib, importlib.util, importlib.machinery, sys, _imp
tries = []
def attempt(name, fn):
    try:
        value = fn()
        tries.append((name, type(value).__name__))
    except BaseException as e:
        tries.append((name, "refused"))
attempt("builtin_from_name", lambda: importlib._bootstrap._builtin_from_name("_pyodide_core"))
attempt("BuiltinImporter", lambda: importlib.machinery.BuiltinImporter.create_module(
    importlib.machinery.ModuleSpec("_pyodide_core", importlib.machinery.BuiltinImporter)))
attempt("__import__ fromlist", lambda: __import__("pyodide", fromlist=["ffi"]))
attempt("create_builtin __globals__", lambda: _imp.create_builtin.__globals__["ORIGINAL_CREATE_BUILTIN"])
attempt("create_builtin defaults", lambda: _imp.create_builtin.__defaults__)
for path in ("/lib/python3.14/site-packages/pyodide/ffi/__init__.py", "/lib/python314.zip/pyodide/ffi/__init__.py"):
    spec = importlib.util.spec_from_file_location("copy_of_ffi", path)
    if spec is not None:
        attempt("file " + path, lambda: spec.loader.exec_module(importlib.util.module_from_spec(spec)))
import copyreg, pickle
attempt("reduce create_builtin", lambda: _imp.create_builtin.__reduce_ex__(2))
attempt("gc", lambda: __import__("gc").get_objects())
for name, kind in tries:
    if kind not in ("refused", "NoneType"):
        print("REACHED", name, kind)
print("done")
''')
    assert report.endswith("done\n") and "REACHED" not in report, report
