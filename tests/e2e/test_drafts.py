"""The plain-text editor in the HTML: it takes typing before any script has run,
shows the learner's saved code, and hands text, cursor and focus to CodeMirror."""

import re
from pathlib import Path

from playwright.sync_api import expect

from .helpers import LEVEL, exercise, open_skip_test
from .saved import progress, seed_progress

SLOT = "quiz-sub-backward"
DRAFT = f'.course-exercise[data-slot="{SLOT}"] textarea.course-draft'


def test_typing_before_the_editor_loads_is_kept(page, site):
    held = []
    page.route("**/chunks/editor.*.js", lambda route: held.append(route))  # CodeMirror is slow today
    page.goto(site + LEVEL)
    open_skip_test(page)  # the skip test is folded until asked for
    draft = page.locator(DRAFT)
    draft.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type("# typed early\n")
    assert page.locator(f'.course-exercise[data-slot="{SLOT}"] .cm-content').count() == 0
    assert held
    page.unroute("**/chunks/editor.*.js")  # the held requests go on to the server

    ex = exercise(page, SLOT)
    content = ex.locator(".cm-content")
    expect(content).to_contain_text("# typed early")
    # focus and cursor came along: the next keys land right after what was typed
    assert page.evaluate("!!document.activeElement.closest('.cm-editor')")
    page.keyboard.type("# and after")
    first_line = (Path(__file__).resolve().parents[2] / "exercises/sub-backward/starter.py").read_text().split("\n")[0]
    expect(ex.locator(".cm-line").nth(1)).to_have_text("# and after" + first_line)
    expect(ex.locator(".cm-line").first).to_have_text("# typed early")
    page.reload()
    expect(exercise(page, SLOT).locator(".cm-line").first).to_have_text("# typed early")


def test_saved_code_is_in_the_plain_text_editor_before_any_script_runs(browser, site):
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    saved = progress(code={SLOT: "# my own code\nclass Value:\n    pass\n"})
    seed_progress(page, saved)
    # no course runtime and no theme bundle: only the inline restore runs
    page.route("**/assets/course/**/*.js", lambda route: route.abort())
    page.route("**/assets/javascripts/*.js", lambda route: route.abort())
    page.goto(site + LEVEL)
    expect(page.locator(DRAFT)).to_have_value(saved["code"][SLOT])
    # an exercise with nothing saved keeps its starter
    expect(page.locator('textarea.course-draft[data-slot="quiz-backward-tail"]')).to_have_value(
        re.compile(r"class Value:"))
    context.close()
