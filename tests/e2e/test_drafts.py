"""The plain-text editor in the HTML: it takes typing before any script has run,
shows the learner's saved code, and hands text, cursor and focus to CodeMirror."""

import re
from pathlib import Path

from playwright.sync_api import expect

from .pages import Level
from .saved import progress

SLOT = "quiz-sub-backward"
DRAFT = f'.course-exercise[data-slot="{SLOT}"] textarea.course-draft'


def test_typing_before_the_editor_loads_is_kept(page, site):
    held = []
    page.route("**/chunks/editor.*.js", lambda route: held.append(route))  # CodeMirror is slow today
    level = Level(page, site, "autograd").open(python=False)
    ex = level.exercise(SLOT)  # the skip test is folded until asked for: this opens it
    ex.root.locator("textarea.course-draft").click()
    page.keyboard.press("Control+Home")
    page.keyboard.type("# typed early\n")
    assert ex.editor.count() == 0
    assert held
    page.unroute("**/chunks/editor.*.js")  # the held requests go on to the server

    expect(ex.editor).to_contain_text("# typed early")
    # focus and cursor came along: the next keys land right after what was typed
    assert page.evaluate("!!document.activeElement.closest('.cm-editor')")
    page.keyboard.type("# and after")
    first_line = (Path(__file__).resolve().parents[2] / "exercises/sub-backward/starter.py").read_text().split("\n")[0]
    expect(ex.lines.nth(1)).to_have_text("# and after" + first_line)
    expect(ex.lines.first).to_have_text("# typed early")
    page.reload()
    expect(level.exercise(SLOT).lines.first).to_have_text("# typed early")


def test_saved_code_is_in_the_plain_text_editor_before_any_script_runs(browser, site):
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    saved = progress(code={SLOT: "# my own code\nclass Value:\n    pass\n"})
    # no course runtime and no theme bundle: only the inline restore runs
    page.route("**/assets/course/**/*.js", lambda route: route.abort())
    page.route("**/assets/javascripts/*.js", lambda route: route.abort())
    Level(page, site, "autograd").open(saved, python=False)
    expect(page.locator(DRAFT)).to_have_value(saved["code"][SLOT])
    # an exercise with nothing saved keeps its starter
    expect(page.locator('textarea.course-draft[data-slot="quiz-backward-tail"]')).to_have_value(
        re.compile(r"class Value:"))
    context.close()
