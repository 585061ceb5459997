"""The skip-level test of "Build your own autograd" (issue 13), at desktop and phone size.

Predict, then see: each of the test's editors shows its blanks and what they need,
not the engine, and no line that answers another question of the level. And a
solved item whose answer the learner saw does not count: the test says so, in a
live region and under the item, instead of failing silently."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader import catalog

from .helpers import QUIZ_ANSWERS, SIZES, SUB_ANSWER, confirm
from .pages import Level

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
LEVEL_DOC = Path(__file__).resolve().parents[2] / "docs/autograd.md"
QUIZ = {"quiz-sub-backward": "sub-backward", "quiz-topo-order": "topo-order", "quiz-backward-tail": "backward-tail"}
MAX_CODE_LINES = 20  # non-blank lines on screen per editor (the whole file has about 45): the blanks' method, a little context
MAX_LINES = 30  # blank lines included
SUB_TITLE = "“A whole operation: subtraction”"


def solve_topo_and_tail(level):
    """The skip test's last two exercises, solved."""
    for slot in ("quiz-topo-order", "quiz-backward-tail"):
        level.exercise(slot).solve(*QUIZ_ANSWERS[slot])


def answer_lines(exercise_id):
    """The lines a learner writes in `exercise_id`: the ones its solution's fillings span."""
    exercise = catalog.load(exercise_id)
    lines = exercise.solution.split("\n")
    return {lines[i].strip() for i in exercise.written if lines[i].strip()}


def level_exercises():
    return sorted(set(re.findall(r"^/// exercise \| (\S+)", LEVEL_DOC.read_text(), re.M)))


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_tests_editors_show_what_each_question_needs_not_the_engine(page, site, size):
    page.set_viewport_size(SIZES[size])
    level = Level(page, site, "autograd").open(python=False)
    others = {ex_id: answer_lines(ex_id) for ex_id in level_exercises()}
    assert others["mul-backward"] and others["backward-tail"], "the level's exercises have answers to hide"
    for slot, exercise_id in QUIZ.items():
        ex = level.exercise(slot)
        ex.root.scroll_into_view_if_needed()
        expect(ex.editor).to_contain_text("____", timeout=20_000)  # the blanks are in view (the editor is built once opened)
        # every line of the editor is drawn (it is short), so what is drawn is what shows
        shown = [line.strip() for line in ex.lines.all_inner_texts()]
        code = [line for line in shown if line]
        assert len(code) <= MAX_CODE_LINES, f"{slot}: {len(code)} lines of code on screen"
        assert len(shown) <= MAX_LINES, f"{slot}: {len(shown)} lines on screen"
        height = ex.root.locator(".cm-editor").bounding_box()["height"]
        assert height <= MAX_LINES * 22, f"{slot}: the editor is {height:.0f} px tall"
        for other, lines in others.items():
            if other == exercise_id:
                continue
            leaked = sorted(line for line in lines if line in shown)
            assert not leaked, f"{slot} shows the answer to {other}: {leaked}"
        # what the blanks need is on screen: the method around them, the names they use
        needs = {"sub-backward": ["def __sub__(self, other):"],  # its body is the answer, written whole
                 "topo-order": ["def backward(self):", "def build(v):", "build(self)"],
                 # backward's first lines stay open: they say what topo holds, in which order
                 "backward-tail": ["def backward(self):", "topo = topological_order(self)"]}[exercise_id]
        for line in needs:
            assert line in shown, f"{slot} hides {line!r}"
    # the level's own editors, further down, show the whole file
    expect(level.exercise("mul-backward").root.locator(".cm-foldPlaceholder")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_a_seen_answer_in_the_skip_test_says_why_it_cannot_count(page, site, size):
    page.set_viewport_size(SIZES[size])
    level = Level(page, site, "autograd").open()
    status = page.locator(".course-quiz .course-quiz__status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_attribute("aria-live", "polite")

    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    expect(status).to_have_text("1 of 5 solved. Solve all five to clear the level.")

    ex = level.exercise("quiz-sub-backward")
    expect(ex.editor).to_have_count(1)  # built: the layout around the button has settled
    ex.button("Show answer").click()
    # asked first, with what it costs here
    expect(page.locator("dialog.course-dialog")).to_contain_text("the short test can't count this exercise then")
    confirm(page, "Show the answer")
    expect(ex.root.locator(".course-solution")).to_be_visible()
    # said at once, before any Check
    expect(status).to_contain_text(f"You saw the answer to {SUB_TITLE}, so the short test can't count it")

    # the learner solves everything anyway and checks: it passes, and the test says why it doesn't count
    expect(ex.fill_blanks(*SUB_ANSWER).check()).to_contain_text("Passed")
    note = ex.root.locator(".course-quiz__note")
    expect(note).to_have_text("You saw this answer, so the short test doesn't count it.")
    assert note.evaluate("n => n.previousElementSibling.classList.contains('course-result')"), "the note sits under the verdict"
    expect(level.question("quiz-dl-da").answer("-8")).to_contain_text("Right")
    solve_topo_and_tail(level)
    expect(level.exercise("quiz-backward-tail").root.locator(".course-quiz__note")).to_have_count(0)
    expect(status).to_have_text(
        f"You saw the answer to {SUB_TITLE}, so the short test can't count it, and can no longer clear the level. "
        "Solve it in the level instead: work through the sections below (an answer seen in the test costs no stars there).")
    status.scroll_into_view_if_needed()
    expect(status).to_be_visible()
    expect(level.stars).to_have_attribute("aria-label", "0 of 3 stars")

    # it holds after a reload; the question answered on its own gets no note
    page.reload()
    expect(status).to_contain_text(f"You saw the answer to {SUB_TITLE}, so")
    expect(level.question("quiz-dl-da").root.locator(".course-quiz__note")).to_have_count(0)


def test_a_question_whose_answer_was_shown_is_named_by_its_place(page, site):
    page.set_viewport_size(SIZES["phone"])
    q = Level(page, site, "autograd").open(python=False).question("quiz-square")
    q.root.get_by_role("button", name="Show answer").click()
    expect(page.locator("dialog.course-dialog")).to_contain_text("The short test can't count this question then")
    confirm(page, "Show the answer")
    status = page.locator(".course-quiz .course-quiz__status")
    expect(status).to_contain_text("You saw the answer to the second question, so the short test can't count it")
    expect(q.root.locator(".course-quiz__note")).to_be_visible()
    # not cleared yet: the level's own items are still the way
    expect(page.locator(".course-level")).not_to_contain_text("Level cleared")


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_test_is_an_offer_folded_at_the_top(page, site, size):
    page.set_viewport_size(SIZES[size])
    Level(page, site, "autograd").open(python=False)
    box = page.locator(".course-quiz")
    toggle = box.get_by_role("button", name="Take the short test")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(box.locator(".course-quiz__offer-line")).to_have_text(
        "Already know this? A 5-item test clears the level. Each item counts on its first try only.")
    expect(page.locator('.course-question[data-question="quiz-dl-da"]')).to_be_hidden()
    height = box.bounding_box()["height"]
    assert height < 300, f"the folded test is {height:.0f} px tall"  # 2,160 px before it folded
    # the teaching starts on the first screen
    teaching = page.get_by_text("In the chain rule level you pushed gradients backward by hand")
    assert teaching.bounding_box()["y"] < SIZES[size]["height"], teaching.bounding_box()
    page.screenshot(path=str(ROOT / "screenshots" / f"skip-test-folded-{size}.png"))
    toggle.click()
    expect(box.get_by_role("button", name="Hide the short test")).to_have_attribute("aria-expanded", "true")
    expect(page.locator('.course-question[data-question="quiz-dl-da"]')).to_be_visible()
    editor = page.locator('.course-exercise[data-slot="quiz-sub-backward"] .cm-editor')
    editor.scroll_into_view_if_needed()  # CodeMirror draws only the lines near the screen
    expect(editor.locator(".cm-content")).to_contain_text("____", timeout=20_000)


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_test_can_be_failed(page, site, size):
    page.set_viewport_size(SIZES[size])
    level = Level(page, site, "autograd").open()
    # a Check of the untouched starter is no try
    blank = level.exercise("quiz-sub-backward")
    expect(blank.editor).to_have_count(1)  # built: the layout around the button has settled
    expect(blank.check()).to_contain_text("Not yet")
    expect(blank.root.locator(".course-quiz__note")).to_have_count(0)
    # a wrong first answer, then the right one: right, but it can no longer count
    first = level.question("quiz-dl-da")
    expect(first.answer("5")).to_contain_text("Not yet")
    expect(first.answer("-8")).to_contain_text("Right")
    expect(first.root.locator(".course-quiz__note")).to_have_text(
        "Your first try was not right, so the short test doesn't count this one: it counts first tries only.")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    expect(blank.fill_blanks(*SUB_ANSWER).check()).to_contain_text("Passed")
    solve_topo_and_tail(level)
    status = page.locator(".course-quiz .course-quiz__status")
    expect(status).to_have_text(
        "You answered the first question wrong first, so the short test can't count it, and can no longer clear the "
        "level. Solve it in the level instead: work through the sections below (an answer seen in the test costs no stars there).")
    expect(level.stars).to_have_attribute("aria-label", "0 of 3 stars")
    expect(page.locator(".course-level")).not_to_contain_text("Level cleared")
    # folded after a reload, to its one-line result
    page.reload()
    box = page.locator(".course-quiz")
    expect(box.locator(".course-quiz__offer-line")).to_have_text(
        "Short test: 4 of 5 counted; 1 can no longer count, so work through the level below.")
    expect(box.get_by_role("button", name="Show the short test")).to_be_visible()
    expect(status).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ROOT / "screenshots" / f"skip-test-failed-{size}.png"))


def test_a_passed_skip_test_folds_to_its_result(page, site):
    level = Level(page, site, "autograd").open()
    expect(level.question("quiz-dl-da").answer("-8")).to_contain_text("Right")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    for slot, answers in QUIZ_ANSWERS.items():
        level.exercise(slot).solve(*answers)
    expect(page.locator(".course-level")).to_contain_text("through the short test")
    page.reload()
    expect(page.locator(".course-quiz__offer-line")).to_have_text(
        "Short test: all 5 right on the first try. It cleared the level.")
    expect(page.locator('.course-question[data-question="quiz-dl-da"]')).to_be_hidden()
