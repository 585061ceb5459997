"""No run can change another's verdict: every Run and Check in Chromium gets a fresh
interpreter that holds only what its exercise gives (issue 23's attack suite).

Each attack is pasted code that tries to outlive its run: it changes a module's type,
leaves gc callbacks, finalizers, threads, tasks or signal handlers behind, plants
attributes and base classes, and stashes a correct Value where a later run might pick
it up. For each, in order, on one page that every test here shares: a Run of the
attack, then a Check of the untouched starter (must be "Not yet"), then a Check of
the solution (must be "Passed"). The same attacks once made every later Check pass,
or every correct one fail, when one interpreter served the whole visit; on a shared
page, each attack also meets what every earlier one left behind.
"""

import pytest
from playwright.sync_api import expect

from grader import catalog
from tools.marks import SPARE_BOOTED, marks, runners

from .conftest import wait_until
from .helpers import open_skip_test
from .pages import Level

SUB = catalog.load("sub-backward")
SLOT = "quiz-sub-backward"

# A correct Value, which an attack would like later runs to use instead of the learner's.
STASH = SUB.solution.split("\na, b")[0] + "\n"

ATTACKS = {
    "a module's type": STASH + """
import sys, types
Right = Value
class Forged(types.ModuleType):
    def __getattribute__(self, name):
        if name == "Value":
            return Right
        return types.ModuleType.__getattribute__(self, name)
for name, module in list(sys.modules.items()):
    try:
        module.__class__ = Forged
    except TypeError:
        pass
sys.modules["__main__"].__class__ = Forged
""",
    "gc callbacks and thresholds": STASH + """
import gc, sys
Right = Value
def hook(phase, info):
    main = sys.modules.get("__main__")
    if main is not None:
        main.__dict__["Value"] = Right
gc.callbacks.append(hook)
gc.set_threshold(1, 1, 1)
""",
    "attributes on a standard module's objects": STASH + """
import json, builtins
json._default_encoder.Value = Value
builtins.Value = Value
builtins.__build_class__ = (lambda original: lambda f, name, *a, **k:
    Value if name == "Value" else original(f, name, *a, **k))(builtins.__build_class__)
""",
    "a planted base class": STASH + """
import sys
Right = Value
for module in list(sys.modules.values()):
    for value in list(getattr(module, "__dict__", {}).values()):
        if isinstance(value, type) and value.__module__.startswith("runner"):
            try:
                value.__bases__ = (Right,) + value.__bases__
            except TypeError:
                pass
""",
    "a signal handler": STASH + """
import signal
Right = Value
signal.signal(signal.SIGINT, lambda *a: None)
""",
    "a finalizer that runs later": STASH + """
import sys
Right = Value
class Later:
    def __del__(self):
        sys.modules["__main__"].__dict__["Value"] = Right
        import builtins
        builtins.Value = Right
sys.later = Later()
sys.modules["runner.probes"].later = Later()
""",
    "a thread left running": STASH + """
import threading
Right = Value
def forever():
    import sys
    while True:
        sys.modules["__main__"].__dict__["Value"] = Right
try:
    threading.Thread(target=forever, daemon=True).start()
except RuntimeError:
    pass
""",
    "an asyncio task left running": STASH + """
import asyncio, sys
Right = Value
async def later():
    while True:
        for name in ("__main__", "runner.probes"):
            module = sys.modules.get(name)
            if module is not None:
                module.__dict__["Value"] = Right
        await asyncio.sleep(0)
try:
    asyncio.get_event_loop().create_task(later())
except Exception:
    pass
""",
    "a file that a later import finds": """
import os
for folder in ("/home/pyodide/course", "/home/pyodide", "."):
    try:
        with open(os.path.join(folder, "sitecustomize.py"), "w") as f:
            f.write("import builtins\\nbuiltins.forged = True\\n")
    except OSError:
        pass
""",
}


# What an attack's Run ends with: the line printed after the attack (it got there, so
# whatever it plants is planted), or what stopped it, where that is the attack's own doing.
PLANTED = "attack planted"
ENDS = {
    "a module's type": "RecursionError",  # every module forged, the run's own print included
    "a file that a later import finds": "not available in exercises",  # the guard refuses the write
}


@pytest.fixture
def ex(shared_page, site):
    return Level(shared_page, site, "autograd").visit().exercise(SLOT)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_an_attack_run_changes_no_later_verdict(ex, name):
    ex.replace_code(ATTACKS[name] + f"\nprint({PLANTED!r})\n")
    expect(ex.run()).to_contain_text(ENDS.get(name, PLANTED))
    ex.replace_code(SUB.starter.replace("____", "pass", 1).replace("____", "pass", 1))
    expect(ex.check()).to_have_attribute("data-state", "failed")
    ex.replace_code(SUB.starter)
    expect(ex.check()).not_to_have_attribute("data-state", "passed")
    ex.replace_code(SUB.solution)
    expect(ex.check()).to_have_attribute("data-state", "passed")


def test_every_run_gets_an_interpreter_of_its_own(ex):
    """Each Run and Check takes a fresh interpreter: what one run sets, the next can't see."""
    page = ex.page
    before = len(marks(page, "course:interpreter-ended", role="runner", reason="done"))
    ex.replace_code("import sys\nsys.marker = 1\nprint('set')")
    expect(ex.run()).to_contain_text("set")
    ex.replace_code("import sys\nprint('marker' if hasattr(sys, 'marker') else 'fresh')")
    expect(ex.run()).to_contain_text("fresh")
    assert len(marks(page, "course:interpreter-ended", role="runner", reason="done")) == before + 2  # one each


def test_the_reference_engine_is_out_of_reach(ex):
    """`from engine import Value` finds no reference rules in a Value exercise: the
    grading interpreter holds only what the exercise gives, and says so."""
    ex.replace_code("from engine import Value\n")
    result = ex.check()
    expect(result).to_have_attribute("data-state", "failed")
    expect(result).to_contain_text("this exercise gives you")
    ex.replace_code("import engine.engine\n")
    expect(ex.check()).to_have_attribute("data-state", "failed")


def test_a_second_check_right_after_the_first_passes(ex):
    """The next spare boots once a verdict shows, so Checks in a row each get a fresh one."""
    ex.replace_code(SUB.solution)
    for _ in range(3):
        expect(ex.check()).to_have_attribute("data-state", "passed")
    # and one more is booted, touched by none of them
    wait_until(ex.page, SPARE_BOOTED)


def test_the_second_spare_waits_for_an_exercise_near_view(page, site):
    """A reader at the top of a level boots one spare; the second, which lets Checks in a
    row each start at once, boots when an exercise comes near view (course.js)."""
    Level(page, site, "autograd").open()
    assert not page.locator(".course-exercise:visible").count()  # the skip test is folded, the rest locked
    page.wait_for_timeout(1500)  # nothing must happen: a second spare would boot within this
    assert page.evaluate(runners("ready")) == 1
    open_skip_test(page)  # its exercises come into view
    wait_until(page, f"{runners('ready')} >= 2")
