"""Small helpers to drive the course's widgets the way a learner does."""

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Error, expect

from .conftest import wait_for_python

LEVEL = "/autograd/"
# the two window sizes every layout is checked at
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


# where and in which schema course_browser/progress.js keeps the learner's progress
STORAGE = json.loads((Path(__file__).resolve().parents[2] / "runner/facts.json").read_text())["storage"]


def progress(levels=None, code=None, **fields):
    """Saved progress as progress.js writes it: {level: {"items": ..., "cleared": ...}}, {slot: code}."""
    return {"version": STORAGE["schema_version"], "levels": levels or {}, "code": code or {}, **fields}


def solved(*items):
    """A level's entry with these items (questions, exercises) solved."""
    return {"items": {item: {"solved": True} for item in items}}


def seed_progress(page, data):
    """Make `data` the saved progress the page finds on its first load (before any script of
    the course runs). Once per tab: a reload or a later page keeps what the course saved since."""
    flag = "byoa-test-seeded"
    page.add_init_script(f"""if (!sessionStorage.getItem({flag!r})) {{
        localStorage.setItem({STORAGE["key"]!r}, {json.dumps(json.dumps(data))});
        sessionStorage.setItem({flag!r}, "1");
    }}""")


def saved_progress(page):
    """The progress the course has saved in this page's storage, or None."""
    text = page.evaluate("(key) => localStorage.getItem(key)", STORAGE["key"])
    return None if text is None else json.loads(text)


def open_skip_test(page):
    """The skip test is folded away until a learner asks for it: ask, as a learner would
    (a no-op where the page's scripts don't run, and where it is open already)."""
    try:
        page.wait_for_function("() => !document.querySelector('.course-quiz') || document.querySelector('.course-quiz[data-offer]')",
                               timeout=5000)
        page.evaluate("() => document.querySelector('.course-quiz[data-offer=\"folded\"] .course-quiz__toggle')?.click()")
    except Error:
        pass


def exercise(page, slot):
    if slot.startswith("quiz-"):
        open_skip_test(page)
    return page.locator(f'.course-exercise[data-slot="{slot}"]')


def question(page, qid):
    if qid.startswith("quiz-"):
        open_skip_test(page)
    return page.locator(f'.course-question[data-question="{qid}"]')


def fill_blanks(page, ex, *answers):
    """Find each ____ with the editor's own search (Ctrl+F, Enter, Esc) and type over it."""
    ex.locator(".cm-content").click()
    for answer in answers:
        page.keyboard.press("Control+Home")
        page.keyboard.press("Control+f")
        page.keyboard.press("Control+a")
        page.keyboard.type("____")  # typed: the search panel reads its field on keyup
        page.keyboard.press("Enter")
        page.keyboard.press("Escape")
        page.keyboard.insert_text(answer)


def replace_code(page, ex, code):
    ex.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)


def check(ex, timeout=30_000):
    ex.get_by_role("button", name="Check", exact=True).click()
    result = ex.locator(".course-result")
    expect(result).not_to_have_attribute("data-state", "running", timeout=timeout)
    return result


def answer(page, qid, value):
    q = question(page, qid)
    if q.get_attribute("data-kind") == "choice":
        q.get_by_role("radio", name=value, exact=True).check()
    else:
        q.get_by_label("Your answer").fill(value)
    q.get_by_role("button", name="Check answer").click()
    return q.locator(".course-feedback")


def vanish_task(page, qid, expression):
    """Type `expression` into a live-graph task (Enter checks it) and return its feedback."""
    task = question(page, qid)
    task.get_by_label("Your expression L").fill(expression)
    task.get_by_label("Your expression L").press("Enter")
    feedback = task.locator(".course-feedback")
    expect(feedback).not_to_be_empty(timeout=30_000)
    expect(feedback).not_to_contain_text("Checking once Python", timeout=30_000)
    return feedback


def clear_alive(page):
    """Everything the live-graph level asks, answered right, in page order."""
    expect(answer(page, "alive-predict-a", "-1.8485")).to_contain_text("Right")
    expect(answer(page, "alive-c-grad", "6.2916")).to_contain_text("Right")
    expect(vanish_task(page, "alive-flat-a", "a*a - 4*a")).to_contain_text("∂L/∂a = 0 ✓")
    expect(answer(page, "review-step", "1.7")).to_contain_text("Right")


def confirm(page, button):
    """Press `button` in the course's own confirmation dialog (a <dialog>, not the browser's)."""
    dialog = page.locator("dialog.course-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=button, exact=True).click()
    expect(dialog).to_have_count(0)


def reloaded(page, timeout=15):
    """Wait until the page marked with window.__beforeReload (set it first) has been replaced by a
    fully loaded one (a fixed navigation wait can catch Material's own history
    updates instead of the reload)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if page.evaluate("!window.__beforeReload && document.readyState === 'complete'"):
                return
        except Error:  # the context went away mid-reload: look again
            pass
        page.wait_for_timeout(50)
    raise TimeoutError("the page did not reload")


def open_level(page, site):
    page.goto(site + LEVEL)
    wait_for_python(page)


SUB_ANSWER = ("out = Value(self.data - other.data, (self, other))\n        def _backward():\n"
              "            self.grad += out.grad\n            other.grad -= out.grad\n"
              "        out._backward = _backward\n        return out",)
TOPO_ANSWER = ("if v not in seen:\n                seen.add(v)\n                for child in v._children:\n"
               "                    build(child)\n                topo.append(v)",)
TAIL_ANSWER = "self.grad = 1.0\n        for v in reversed(topo):\n            v._backward()"
TAIL_FORWARD = "self.grad = 1.0\n        for v in topo:\n            v._backward()"
MUL_ANSWER = ("other.data * out.grad", "self.data * out.grad")


def rendered(message):
    """An author's message as the page shows it (answer.js richText): `code` spans and
    *emphasis* outside code lose their marks."""
    parts = message.split("`")
    return "".join(part if i % 2 else re.sub(r"\*(?=\S)([^*]*?\S)\*", r"\1", part) for i, part in enumerate(parts))
