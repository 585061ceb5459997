"""The level "Build your own autograd" end to end: issue 4's learner journeys."""

import re
from pathlib import Path

from playwright.sync_api import expect

from grader import catalog

from .conftest import wait_until
from .helpers import MUL_ANSWER, QUIZ_ANSWERS, SUB_ANSWER, TAIL_ANSWER, confirm
from .pages import Level
from .saved import KEY, saved_progress

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"


def solution(exercise_id):
    return catalog.load(exercise_id).solution


def mistake_code(exercise_id, name):
    """A known mistake as the whole file a learner would have written."""
    from grader.catalog import load
    return next(m.code for m in load(exercise_id).mistakes if m.name == name)


def mistake_then_solution(level, slot, mistake, says):
    """A known mistake gets its own message (`says`); the solution then passes."""
    ex = level.exercise(slot)
    expect(ex.replace_code(mistake_code(slot, mistake)).check()).to_contain_text(says)
    expect(ex.replace_code(solution(slot)).check()).to_contain_text("Passed")


def tab_to(page, target, limit=200):
    """Press Tab until `target` has the focus, like a keyboard-only learner."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"could not reach {target} with Tab")


def expect_cleared(page, stars=3):
    header = page.locator(".course-level")
    expect(header.locator(".course-stars")).to_have_attribute("aria-label", f"{stars} of 3 stars")
    expect(header).to_contain_text("Level cleared")
    expect(page.locator(".course-recap")).to_contain_text("You can now")
    expect(page.locator(".course-recap").get_by_text("Common mistakes")).to_be_visible()
    expect(page.locator(".course-lock-notice")).to_have_count(0)


def test_keyboard_only_learner_clears_the_level_with_the_skip_quiz(page, site):
    level = Level(page, site, "autograd").open()
    expect(page.locator(".course-recap").get_by_text("Common mistakes")).to_be_hidden()
    expect(level.exercise("mul-backward").root).to_be_hidden()

    for qid, typed in [("quiz-dl-da", "−8"), ("quiz-square", " 10.0 ")]:
        q = level.question(qid)
        tab_to(page, q.field)
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        expect(q.feedback).to_contain_text("Right")

    for slot, exercise_id in [("quiz-sub-backward", "sub-backward"), ("quiz-topo-order", "topo-order"),
                              ("quiz-backward-tail", "backward-tail")]:
        ex = level.exercise(slot)
        tab_to(page, ex.editor)
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(solution(exercise_id))
        page.keyboard.press("Control+Enter")
        expect(ex.result).to_contain_text("Passed", timeout=30_000)
        # Esc closes a completion popup if one is open; the next Esc arms Tab to leave the editor
        page.keyboard.press("Escape")
        page.keyboard.press("Escape")

    expect_cleared(page)
    expect(page.locator(".course-level")).to_contain_text("through the short test")
    expect(level.exercise("mul-backward").root).to_be_visible()
    page.reload()
    expect_cleared(page)

    page.goto(site + "/")
    badge = page.locator(".course-map a[data-level='autograd'] + .course-map__state")
    expect(badge).to_have_text("Cleared ★★★")
    # the level is cleared: the map offers the next one, and marks where the learner was
    expect(page.locator(".course-resume a")).to_have_text("Next: When gradients add up")
    expect(page.locator(".course-map a[aria-current='step']")).to_have_attribute("data-level", "autograd")


def step_until_done(main):
    """Press the lab's main button until it offers to start over; the labels it showed."""
    labels = []
    while main.inner_text() != "Start over":
        labels.append(main.inner_text())
        main.click()
    return labels


def step_forward(main):
    """Press the main button while it is enabled: the forward pass, before its question is answered."""
    labels = []
    while main.is_enabled():
        labels.append(main.inner_text())
        main.click()
    return labels


def expect_waiting_for_the_question(lab):
    """After the forward pass, backward waits: a disabled "Backward ▸" that the status explains."""
    main = lab.locator(".course-lab__main")
    expect(main).to_have_text("Backward ▸")
    expect(main).to_be_disabled()
    status = lab.get_by_role("status")
    expect(status).to_contain_text("Backward waits for your answer")
    assert main.get_attribute("aria-describedby") == status.get_attribute("id")


def test_learner_works_through_lab_questions_and_exercises(page, site):
    level = Level(page, site, "autograd").open()
    lab = page.locator(".course-lab").first
    main = lab.locator(".course-lab__main")
    expect(main).to_have_text("Compute e = a · b")
    # predict first: before the questions are answered, the lab steps forward only
    assert step_forward(main) == ["Compute e = a · b", "Compute f = e + c", "Compute L = f · k"]
    expect_waiting_for_the_question(lab)
    assert "grad" not in lab.locator("svg").get_attribute("aria-label")

    expect(level.question("dl-da").root).to_be_hidden()
    expect(page.get_by_text("Answer the question above to open the next section.").first).to_be_visible()
    expect(level.question("dl-dd").answer("")).to_contain_text("Type a number first")
    expect(level.question("dl-dd").answer("-2")).to_contain_text("Not yet")
    expect(level.question("dl-dd").answer("7")).to_contain_text("Right")
    expect(level.question("dl-da").answer("−6")).to_contain_text("Right")

    # answered: the backward pass opens, right where the forward pass ended
    expect(main).to_have_text("Start backward: ∂L/∂L = 1")
    assert step_until_done(main) == ["Start backward: ∂L/∂L = 1", "Send L's gradient back to f and k",
                                     "Send f's gradient back to e and c", "Send e's gradient back to a and b"]
    expect(lab.get_by_role("status")).to_contain_text("∂L/∂a = −6, ∂L/∂b = −4")
    expect(lab.locator("svg")).to_have_attribute("aria-label", re.compile(r"k: data −2, grad 7"))

    lab.get_by_label("Input c").fill("10")  # recomputed by the engine in the worker
    expect(lab.locator("svg")).to_have_attribute("aria-label", re.compile(r"L: data −32, grad 1"), timeout=20_000)
    expect(lab.locator("svg")).to_have_attribute("aria-label", re.compile(r"a: data 2, grad −6"))
    expect(lab.locator("svg")).to_have_attribute("aria-label", re.compile(r"k: data −2, grad 16"))

    expect(level.question("dl-dd-c10").answer("7")).to_contain_text("Not yet")
    expect(level.question("dl-dd-c10").answer("16")).to_contain_text("Right")

    mistake_then_solution(level, "value-init", "grad-starts-at-one", "Your grad starts at 1.0")
    level.exercise("mul-backward").solve(*MUL_ANSWER)

    expect(level.question("square").answer("6")).to_contain_text("Right")
    expect(level.question("assign-square").answer("6")).to_contain_text("Not yet")
    expect(level.question("assign-square").answer("3")).to_contain_text("Right")

    # measure, then code: subtraction's local factors come before its exercise
    expect(level.exercise("sub-backward").root).to_be_hidden()
    expect(level.question("sub-rate-self").answer("1")).to_contain_text("Right")
    expect(level.question("sub-rate-other").answer("1")).to_contain_text("out went down")
    expect(level.question("sub-rate-other").answer("-1")).to_contain_text("Right")
    level.exercise("sub-backward").solve(*SUB_ANSWER)  # the whole operation
    expect(page.locator(".course-recap").get_by_text("Common mistakes")).to_be_hidden()

    # the shared-node graph: the wrong order gives a wrong ∂L/∂a
    shared = page.locator(".course-lab").nth(1)
    main = shared.locator(".course-lab__main")
    wrong = shared.get_by_role("button", name="Visit in the wrong order")
    assert step_forward(main) == ["Compute e = a · b", "Compute f = e + c", "Compute L = e · f"]
    expect_waiting_for_the_question(shared)
    expect(wrong).to_be_disabled()  # it would show the gradients before the question
    expect(level.question("shared-dl-da").answer("21")).to_contain_text("only the part that comes straight from L")
    expect(level.question("shared-dl-da").answer("39")).to_contain_text("Right")
    assert step_until_done(main) == ["Start backward: ∂L/∂L = 1", "Send L's gradient back to e and f",
                                     "Send f's gradient back to e and c", "Send e's gradient back to a and b"]
    expect(shared.get_by_role("status")).to_contain_text("∂L/∂a = 39, ∂L/∂b = 26. Done: every gradient is in.")
    wrong.click()
    expect(shared.get_by_role("button", name="Visit in the right order")).to_have_attribute("aria-pressed", "true")
    assert step_until_done(main) == ["Start backward: ∂L/∂L = 1", "Send L's gradient back to e and f",
                                     "Send e's gradient back to a and b", "Send f's gradient back to e and c"]
    expect(shared.get_by_role("status")).to_contain_text("∂L/∂a came out 21, not 39")
    expect(shared.locator("svg")).to_have_attribute("aria-label", re.compile(r"a: data 2, grad 21"))
    expect(level.question("too-early").answer("f")).to_contain_text("Not yet")
    expect(level.question("too-early").answer("e")).to_contain_text("Right")

    # build: a breadth-first order is a known mistake with its own message
    mistake_then_solution(level, "topo-order", "breadth-first", "Your order is breadth-first")
    level.exercise("backward-tail").solve(TAIL_ANSWER)
    expect_cleared(page)
    expect(page.get_by_text("Go deeper: this is what loss.backward() does")).to_be_visible()

    page.reload()
    expect_cleared(page)
    expect(level.question("dl-dd").field).to_have_value("7")
    expect(level.question("assign-square").root.get_by_role("radio", name="3")).to_be_checked()


def test_shown_answers_do_not_count_for_the_quiz(page, site):
    level = Level(page, site, "autograd").open()
    q = level.question("quiz-dl-da").show_answer()
    expect(q.field).to_have_value("-8")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    for slot, answers in QUIZ_ANSWERS.items():
        level.exercise(slot).solve(*answers)
    expect(level.stars).to_have_attribute("aria-label", "0 of 3 stars")
    expect(page.locator(".course-recap").get_by_text("Common mistakes")).to_be_hidden()


def test_shortcuts_dialog_opens_with_question_mark(shared_page, site):
    page = shared_page
    Level(page, site, "autograd").visit(python=False)
    page.locator("h1").click()
    page.keyboard.press("Shift+?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Esc, then Tab")
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    # themed: inside Material's container, in the page's palette, not the browser's default white box
    assert dialog.evaluate("d => !!d.closest('.md-container') && d.classList.contains('md-typeset')")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    assert page.evaluate("() => document.activeElement === document.body || !!document.activeElement.closest('.md-content, body')")


def test_level_reset_is_confirmed_in_a_dialog_and_forgets_the_code(page, site):
    level = Level(page, site, "autograd").open()
    level.exercise("quiz-sub-backward").fill_blanks("self.grad += 7")
    wait_until(page, f"localStorage.getItem({KEY!r})?.includes('self.grad += 7')")  # saved as typed
    page.get_by_role("button", name="Reset my progress").click()
    confirm(page, "Cancel")
    page.reload()
    # CodeMirror draws only the lines near the screen; the reload kept the scroll position
    ex = level.exercise("quiz-sub-backward")
    ex.root.locator(".cm-editor").scroll_into_view_if_needed()
    expect(ex.editor).to_contain_text("self.grad += 7")
    level.reset()
    # the page's unload handler must not save the old code back
    ex = level.exercise("quiz-sub-backward")
    ex.root.locator(".cm-editor").scroll_into_view_if_needed()
    expect(ex.root.locator(".cm-blank")).to_have_count(1)
    expect(ex.editor).not_to_contain_text("self.grad += 7")


def test_tabbing_through_the_page_never_gets_trapped_in_an_editor(page, site):
    ex = Level(page, site, "autograd").open().exercise("quiz-sub-backward")
    editor = ex.editor
    tab_to(page, editor)
    page.keyboard.press("Tab")  # arrived by Tab: Tab moves on, no indent typed
    expect(editor).not_to_be_focused()
    # No state to wait on: nothing must happen. The editor saves 300 ms after an edit
    # (exercise-editor.js), so an indent typed by that Tab would be saved by now.
    page.wait_for_timeout(500)
    assert "quiz-sub-backward" not in (saved_progress(page) or {"code": {}})["code"]
    page.keyboard.press("Shift+Tab")
    expect(editor).to_be_focused()
    page.keyboard.press("End")  # typing something: now Tab indents
    page.keyboard.press("Tab")
    expect(editor).to_be_focused()
    # the keys help sits above the editor, in view when the editor is reached
    assert ex.root.locator(".course-keys").evaluate("(k) => k.compareDocumentPosition(k.nextElementSibling) & 4") > 0


def test_enter_is_a_new_line_even_with_a_suggestion_open(shared_page, site):
    page = shared_page
    ex = Level(page, site, "autograd").visit().exercise("quiz-backward-tail")
    ex.editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.type("topo")  # a name the editor offers to complete
    expect(page.locator(".cm-tooltip-autocomplete")).to_be_visible()
    lines = ex.lines
    before = lines.count()
    page.keyboard.press("Enter")
    expect(lines).to_have_count(before + 1)
    expect(lines.nth(before - 1)).to_have_text("topo")  # not completed to a longer name


def test_without_javascript_every_text_still_reads(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    Level(page, site, "autograd").open(python=False)
    expect(page.get_by_text("Common mistakes")).to_be_visible()
    expect(page.get_by_text("A node may be visited only after every node")).to_be_visible()
    expect(page.get_by_role("textbox", name="Code editor: A whole operation: subtraction").first).to_have_value(
        re.compile(r"^from engine.given import backward_pass.*\nclass Value:", re.S))
    expect(page.locator(".arithmatex .katex-html").first).to_be_visible()  # math, rendered at build time
    context.close()


def test_corrupt_progress_is_reset_with_a_notice(page, site):
    level = Level(page, site, "autograd").open("{not json", python=False)
    expect(page.locator(".course-notices")).to_contain_text("could not be read, so it has been reset")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    page.reload()
    expect(page.locator(".course-notices")).to_have_count(0)
    expect(level.question("quiz-square").feedback).to_contain_text("Right")


def test_a_wrong_number_that_matches_a_known_slip_says_which(shared_page, site):
    q = Level(shared_page, site, "autograd").visit().question("quiz-dl-da")
    expect(q.answer("8")).to_have_text(
        "Not yet: 8 is the right size with the wrong sign: k = −2 is one of the factors on the way back.")
    expect(q.answer("−6")).to_contain_text("a product sends each input the other input's value")
    # no slip gives 5: no guess about the learner's mind, a pointer at the graph instead
    expect(q.answer("5")).to_have_text(
        "Not yet: 5 is not it. Follow the path L → f → e → a and multiply the local factor at each node.")
