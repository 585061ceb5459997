"""Graded code exercises in Chromium: the learner's view of issue 3."""

import re

import pytest
from playwright.sync_api import expect

from grader import catalog
from grader.grading import data_for

from .helpers import SUB_ANSWER, TAIL_ANSWER, TAIL_FORWARD, confirm, rendered
from .pages import Level


def groups(exercise_id):
    return len(data_for(catalog.load(exercise_id))["groups"])


def mistake(exercise_id, name):
    return next(m for m in catalog.load(exercise_id).mistakes if m.name == name)


def open_exercise(page, site, slot, python=True):
    """Exercise `slot` of the autograd level, opened (by default once Python is ready)."""
    return Level(page, site, "autograd").open(python=python).exercise(slot)


@pytest.fixture
def on_level(shared_page, site):
    """The autograd level on the page that the tests below share, in file order: what they
    do is Run and Check (each in a fresh interpreter) and read the result."""
    return Level(shared_page, site, "autograd").visit()


def from_starter(level, slot):
    """Exercise `slot` with its starter code again, whatever an earlier test left in it."""
    ex = level.exercise(slot)
    return ex.replace_code(catalog.load(slot.removeprefix("quiz-")).starter)


def test_right_answer_passes_and_code_survives_reload(page, site):
    ex = open_exercise(page, site, "quiz-sub-backward")
    result = ex.fill_blanks(*SUB_ANSWER).check()
    expect(result).to_have_attribute("data-state", "passed")
    expect(result).to_contain_text("Passed")
    n = groups("sub-backward")
    expect(result.locator(".course-result__headline")).to_contain_text(f"All {n} checks pass")
    expect(result.locator("li.is-pass")).to_have_count(n)
    expect(result.locator("li.is-fail")).to_have_count(0)
    expect(result.locator(".course-result__diagnosis")).to_have_count(0)
    page.reload()
    ex = Level(page, site, "autograd").exercise("quiz-sub-backward").scroll_to_top()
    expect(ex.editor).to_contain_text("other.grad -= out.grad")
    expect(ex.root.locator(".cm-blank")).to_have_count(0)


def test_known_mistake_shows_its_message(on_level):
    ex = from_starter(on_level, "quiz-backward-tail")
    result = ex.fill_blanks(TAIL_FORWARD).check()
    expect(result).to_have_attribute("data-state", "failed")
    expect(result).to_contain_text("Not yet")
    expect(result.locator(".course-result__diagnosis")).to_contain_text(
        "Known mistake: " + rendered(mistake("backward-tail", "forward-order").message))
    # the diagnosis first, then the first failing check in full; the others behind a disclosure
    first = result.locator(".course-result__first")
    expect(first).to_contain_text(re.compile(r"should be .*, but it is .*On: .*L\.backward\(\)"))
    assert result.evaluate("r => r.querySelector('.course-result__diagnosis').compareDocumentPosition("
                           "r.querySelector('.course-result__first')) & 4") > 0
    all_checks = result.locator("details.course-result__all")
    expect(all_checks).not_to_have_attribute("open", "")
    expect(result.locator("li.is-fail").first).not_to_be_visible()
    all_checks.locator("summary").click()
    expect(result.locator("li.is-fail").first).to_be_visible()
    expect(result).not_to_contain_text(re.compile(r"seed|case \d"))


def test_wrong_answer_shows_a_counterexample(on_level):
    ex = from_starter(on_level, "quiz-sub-backward")
    wrong = SUB_ANSWER[0].replace("other.grad -= out.grad", "other.grad += 2 * out.grad")  # no known mistake
    result = ex.fill_blanks(wrong).check()
    expect(result).to_have_attribute("data-state", "failed")
    expect(result.locator(".course-result__headline")).to_contain_text("Not yet")
    expect(result.locator(".course-result__diagnosis")).to_have_count(0)
    first = result.locator(".course-result__first")
    expect(first.locator(".course-result__message")).to_have_text(re.compile(r"^b\.grad should be \S+, but it is \S+\.$"))
    expect(first.locator(".course-result__inputs")).to_contain_text("out._backward()")  # the case it differs on
    expect(result).not_to_contain_text(re.compile(r"seed|case \d"))


def test_a_reversed_list_gets_plain_words(on_level):
    """`topo.reverse()` returns None: the verdict says so in words, not only as a TypeError."""
    ex = on_level.exercise("quiz-backward-tail")
    tail = catalog.load("backward-tail")
    ex.replace_code(catalog.fill_blanks(tail.starter, ["self.grad = 1.0\nfor v in topo.reverse():\n    v._backward()"]))
    expect(ex.check().locator(".course-result__headline")).to_contain_text(
        "topo.reverse() and topo.sort() change the list in place and give back None")


# Every Python worker of the page, as learner code that owned one could make it: the
# answer to a "check" call is, while window.__forgedCheck is set, that report (an init
# script: early.js starts the first worker before any other script runs).
FORGING_WORKERS = """
window.__forgedCheck = null;
window.Worker = class extends Worker {
  checks = new Set();
  postMessage(message, ...rest) {
    if (message?.type === "call" && message.fn === "check") this.checks.add(message.id);
    return super.postMessage(message, ...rest);
  }
  set onmessage(handler) {
    super.onmessage = (event) => {
      const data = event.data;
      const forged = window.__forgedCheck;
      if (!forged || data?.type !== "result" || !this.checks.has(data.id)) return handler(event);
      return handler({ data: { ...data, ok: true, result: structuredClone(forged) } });
    };
  }
  get onmessage() { return super.onmessage; }
};"""


def test_a_forged_worker_report_cannot_pass(page, site):
    page.add_init_script(FORGING_WORKERS)
    ex = open_exercise(page, site, "quiz-sub-backward")
    ex.fill_blanks(*SUB_ANSWER)
    data = data_for(catalog.load("sub-backward"))
    forged_verdict = {"status": "passed", "passed": True, "headline": "Passed", "summary": "All checks pass.",
                      "tests": [{"name": "forged", "passed": True, "message": ""}], "diagnosis": None,
                      "stdout": "", "stdout_truncated": False, "error": None}
    wrong_numbers = {"status": "ran", "summary": "", "stdout": "", "stdout_truncated": False, "error": None,
                     "outputs": [[x + 1.0 for x in c["expected"]] for c in data["cases"]]}
    for report, says in ((forged_verdict, "something unreadable"), ({"status": "ran", "passed": True}, "something unreadable"),
                         (wrong_numbers, f"0 of {len(data['groups'])} checks pass")):
        page.evaluate("report => { window.__forgedCheck = report; }", report)
        result = ex.check()
        expect(result).to_have_attribute("data-state", "failed")
        expect(result.locator(".course-result__headline")).to_contain_text("Not yet")
        expect(result).to_contain_text(says)
    # the worker's report read honestly: the same code passes
    page.evaluate("window.__forgedCheck = null")
    expect(ex.check()).to_have_attribute("data-state", "passed")


def test_learner_code_that_patches_the_grader_cannot_pass(on_level):
    ex = from_starter(on_level, "quiz-sub-backward")
    n = len(data_for(catalog.load("sub-backward"))["cases"])
    ex.replace_code("print('Passed: all checks pass')\n"
                    "import runner.probes as probes\n"
                    f"probes.run_cases = lambda *args: [[1.0, 1.0]] * {n}\n")
    result = ex.check()
    expect(result).to_have_attribute("data-state", "failed")
    expect(result.locator(".course-result__headline")).to_contain_text("Not yet")
    expect(result.locator(".course-result__output")).to_contain_text("Passed: all checks pass")


def test_ctrl_enter_checks_and_blank_is_reported(on_level):
    ex = from_starter(on_level, "quiz-backward-tail")
    ex.editor.click()
    ex.page.keyboard.press("Control+Enter")
    expect(ex.result).to_contain_text(re.compile(r"Not yet.*Fill in the blank ____ on line \d+"))


def test_syntax_error_names_the_line(on_level):
    ex = from_starter(on_level, "quiz-backward-tail")
    result = ex.fill_blanks("self.grad = (1.0").check()
    expect(result).to_contain_text("Python could not read line")
    expect(result.locator(".course-result__error")).to_contain_text("self.grad = (1.0")


def test_esc_then_tab_leaves_the_editor(on_level):
    ex, page = from_starter(on_level, "quiz-sub-backward"), on_level.page
    content = ex.editor
    content.click()
    page.keyboard.press("End")
    page.keyboard.press("Tab")  # Tab indents inside the editor
    expect(content).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(ex.button("Run")).to_be_focused()


def test_editor_is_labelled_and_controls_are_buttons(on_level):
    ex = from_starter(on_level, "quiz-sub-backward")
    expect(ex.root.get_by_role("textbox", name="Code editor: A whole operation: subtraction")).to_be_visible()
    for name in ("Run", "Check", "Reset", "Hint", "Show answer"):
        expect(ex.button(name)).to_be_visible()


def test_reset_hint_and_show_answer(page, site):
    ex = open_exercise(page, site, "quiz-sub-backward")
    ex.fill_blanks("self.grad += 7")
    ex.button("Reset").click()
    confirm(page, "Reset the code")
    expect(ex.root.locator(".cm-blank")).to_have_count(1)
    hint = ex.button(re.compile("^(Hint|Next hint)"))
    hints = ex.hints
    hint.click()
    expect(hints).to_have_count(1)
    expect(ex.button("Next hint (2 of 3)")).to_be_visible()  # what the next press does
    hint.click()
    expect(hints).to_have_count(2)
    # the last hint is the answer: it asks first, and cancelling shows nothing
    hint.click()
    confirm(page, "Cancel")
    expect(hints).to_have_count(2)
    # hints seen before a reload are on screen again after it
    page.reload()
    ex = Level(page, site, "autograd").exercise("quiz-sub-backward")
    hint = ex.button(re.compile("^(Hint|Next hint)"))
    hints = ex.hints
    expect(hints).to_have_count(2)
    expect(ex.button("Next hint (3 of 3)")).to_be_visible()
    hint.click()
    confirm(page, "Show the last hint")
    expect(hints).to_have_count(3)
    expect(hints.nth(2).locator("code").first).to_have_text("out = Value(self.data - other.data, (self, other))")  # backticks become code
    expect(hints.nth(2)).not_to_contain_text("`")
    shown = ex.show_answer()
    marked = shown.locator(".is-written")
    expect(marked).to_have_count(6)  # the whole operation is the learner's
    expect(marked.nth(3)).to_contain_text("other.grad -= out.grad")
    expect(shown).to_contain_text("def __sub__")  # the whole file, as code


def test_run_shows_output_as_text(on_level):
    ex = from_starter(on_level, "quiz-backward-tail")
    result = ex.fill_blanks(TAIL_ANSWER + "\n        print('<b>bold?</b><script>alert(1)</script>')").run()
    expect(result).to_contain_text("Ran", timeout=30_000)
    expect(result).to_contain_text("[-6.0, -4.0, -2.0, 7.0]")
    expect(result).to_contain_text("<b>bold?</b><script>alert(1)</script>")
    expect(result.locator("b")).to_have_count(0)


def test_buttons_say_python_is_loading(page, site):
    held, released = [], []
    page.route("**/pyodide.asm.wasm", lambda route: route.continue_() if released else held.append(route))
    ex = open_exercise(page, site, "quiz-sub-backward", python=False)
    expect(ex.button("Check (Python is loading)")).to_be_visible()
    expect(ex.root.locator(".course-python-status")).to_contain_text("Loading Python")
    ex.fill_blanks(*SUB_ANSWER)  # the editor works before Python is there
    ex.button("Check (Python is loading)").click()
    expect(ex.result).to_contain_text("Waiting for Python")
    released.append(True)  # from now on the wasm goes through, the one held so far too
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    expect(ex.result).to_contain_text("Passed", timeout=60_000)
    ex.ready()
