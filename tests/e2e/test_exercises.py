"""Graded code exercises in Chromium: the learner's view of issue 3."""

import re

from playwright.sync_api import expect

from .helpers import (SUB_ANSWER, TAIL_ANSWER, TAIL_FORWARD, check, exercise, fill_blanks,
                      open_level)


def test_right_answer_passes_and_code_survives_reload(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-sub-backward")
    fill_blanks(page, ex, *SUB_ANSWER)
    result = check(ex)
    expect(result).to_have_attribute("data-state", "passed")
    expect(result).to_contain_text("Passed")
    expect(result.locator("li.is-pass")).to_have_count(5)
    page.reload()
    ex = exercise(page, "quiz-sub-backward")
    # CodeMirror draws only the lines near the viewport: put the editor's top at the window's top
    ex.locator(".course-editor").evaluate("el => el.scrollIntoView({block: 'start'})")
    expect(ex.locator(".cm-content")).to_contain_text("other.grad -= out.grad")
    expect(ex.locator(".cm-blank")).to_have_count(0)


def test_known_mistake_shows_its_message(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-backward-tail")
    fill_blanks(page, ex, TAIL_FORWARD)
    result = check(ex)
    expect(result).to_contain_text("Not yet")
    expect(result).to_contain_text("a node ran before its gradient was complete")


def test_ctrl_enter_checks_and_blank_is_reported(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-backward-tail")
    ex.locator(".cm-content").click()
    page.keyboard.press("Control+Enter")
    result = ex.locator(".course-result")
    expect(result).to_contain_text(re.compile(r"Not yet.*Fill in the blank ____ on line \d+"))


def test_syntax_error_names_the_line(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-backward-tail")
    fill_blanks(page, ex, "self.grad = (1.0")
    result = check(ex)
    expect(result).to_contain_text("Python could not read line")
    expect(result.locator(".course-result__error")).to_contain_text("self.grad = (1.0")


def test_esc_then_tab_leaves_the_editor(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-sub-backward")
    content = ex.locator(".cm-content")
    content.click()
    page.keyboard.press("End")
    page.keyboard.press("Tab")  # Tab indents inside the editor
    expect(content).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(ex.get_by_role("button", name="Run", exact=True)).to_be_focused()


def test_editor_is_labelled_and_controls_are_buttons(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-sub-backward")
    expect(ex.get_by_role("textbox", name="Code editor: The backward rule of subtraction")).to_be_visible()
    for name in ("Run", "Check", "Reset", "Hint", "Show answer"):
        expect(ex.get_by_role("button", name=name, exact=True)).to_be_visible()


def test_reset_hint_and_show_answer(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-sub-backward")
    fill_blanks(page, ex, "self.grad += 7")
    ex.get_by_role("button", name="Reset", exact=True).click()  # the confirm dialog is accepted
    expect(ex.locator(".cm-blank")).to_have_count(2)
    ex.get_by_role("button", name="Hint", exact=True).click()
    expect(ex.get_by_role("list", name="Hints").locator("li")).to_have_count(1)
    expect(ex.get_by_role("button", name=re.compile("Hint \\(1 of 3\\)"))).to_be_visible()
    ex.get_by_role("button", name="Show answer").click()
    expect(ex.locator(".course-solution")).to_contain_text("other.grad -= out.grad")


def test_run_shows_output_as_text(page, site):
    open_level(page, site)
    ex = exercise(page, "quiz-backward-tail")
    fill_blanks(page, ex, TAIL_ANSWER + "\n        print('<b>bold?</b><script>alert(1)</script>')")
    ex.get_by_role("button", name="Run", exact=True).click()
    result = ex.locator(".course-result")
    expect(result).to_contain_text("Ran", timeout=30_000)
    expect(result).to_contain_text("[-6.0, -4.0, -2.0, 7.0]")
    expect(result).to_contain_text("<b>bold?</b><script>alert(1)</script>")
    expect(result.locator("b")).to_have_count(0)


def test_buttons_say_python_is_loading(page, site):
    release = []
    page.route("**/pyodide.asm.wasm", lambda route: release.append(route))
    page.goto(site + "/autograd/")
    ex = exercise(page, "quiz-sub-backward")
    expect(ex.get_by_role("button", name="Check (Python is loading)")).to_be_visible()
    expect(ex.locator(".course-python-status")).to_contain_text("Loading Python")
    fill_blanks(page, ex, *SUB_ANSWER)  # the editor works before Python is there
    ex.get_by_role("button", name="Check (Python is loading)").click()
    expect(ex.locator(".course-result")).to_contain_text("Waiting for Python")
    page.wait_for_function("1", timeout=1000)
    for route in release:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    expect(ex.locator(".course-result")).to_contain_text("Passed", timeout=60_000)
    expect(ex.get_by_role("button", name="Check", exact=True)).to_be_visible()
