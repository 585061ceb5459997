"""The skip-level test of "Build your own autograd" (issue 13), at desktop and phone size.

Predict, then see: each of the test's editors shows its blanks and what they need,
not the engine, and no line that answers another question of the level. And a
solved item whose answer the learner saw does not count: the test says so, in a
live region and under the item, instead of failing silently."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .helpers import (
    LEVEL,
    SIZES,
    SUB_ANSWER,
    TAIL_ANSWER,
    answer,
    check,
    confirm,
    exercise,
    fill_blanks,
    open_level,
    question,
)

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
LEVEL_DOC = Path(__file__).resolve().parents[2] / "docs/autograd.md"
QUIZ = {"quiz-sub-backward": "sub-backward", "quiz-backward-tail": "backward-tail"}
MAX_CODE_LINES = 20  # non-blank lines on screen per editor (the whole file has about 45): the blanks' method, a little context
MAX_LINES = 30  # blank lines included
SUB_TITLE = "“The backward rule of subtraction”"


def answer_lines(exercise_id):
    """The lines a learner writes in `exercise_id`: its solution's lines that are not in its starter."""
    folder = EXERCISES / exercise_id
    given = {line.strip() for line in (folder / "starter.py").read_text().splitlines()}
    return {line.strip() for line in (folder / "solution.py").read_text().splitlines()
            if line.strip() and line.strip() not in given}


def level_exercises():
    return sorted(set(re.findall(r"^/// exercise \| (\S+)", LEVEL_DOC.read_text(), re.M)))


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_tests_editors_show_what_each_question_needs_not_the_engine(page, site, size):
    page.set_viewport_size(SIZES[size])
    page.goto(site + LEVEL)
    others = {ex_id: answer_lines(ex_id) for ex_id in level_exercises()}
    assert others["mul-backward"] and others["backward-tail"], "the level's exercises have answers to hide"
    for slot, exercise_id in QUIZ.items():
        ex = exercise(page, slot)
        ex.scroll_into_view_if_needed()
        content = ex.locator(".cm-content")
        expect(content).to_contain_text("____")  # the blanks are in view
        # every line of the editor is drawn (it is short), so what is drawn is what shows
        shown = [line.strip() for line in ex.locator(".cm-line").all_inner_texts()]
        code = [line for line in shown if line]
        assert len(code) <= MAX_CODE_LINES, f"{slot}: {len(code)} lines of code on screen"
        assert len(shown) <= MAX_LINES, f"{slot}: {len(shown)} lines on screen"
        height = ex.locator(".cm-editor").bounding_box()["height"]
        assert height <= MAX_LINES * 22, f"{slot}: the editor is {height:.0f} px tall"
        for other, lines in others.items():
            if other == exercise_id:
                continue
            leaked = sorted(line for line in lines if line in shown)
            assert not leaked, f"{slot} shows the answer to {other}: {leaked}"
        # what the blanks need is on screen: the method around them, the names they use
        needs = {"sub-backward": ["def __sub__(self, other):", "out = Value(self.data - other.data, (self, other))"],
                 # backward's build stays open: it says what topo holds, in which order
                 "backward-tail": ["def backward(self):", "topo.append(v)      # a node goes in after all of its inputs",
                                   "build(self)"]}[exercise_id]
        for line in needs:
            assert line in shown, f"{slot} hides {line!r}"
    # the level's own editors, further down, show the whole file
    expect(exercise(page, "mul-backward").locator(".cm-foldPlaceholder")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_a_seen_answer_in_the_skip_test_says_why_it_cannot_count(page, site, size):
    page.set_viewport_size(SIZES[size])
    open_level(page, site)
    status = page.locator(".course-quiz .course-quiz__status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_attribute("aria-live", "polite")

    expect(answer(page, "quiz-square", "6")).to_contain_text("Right")
    expect(status).to_have_text("1 of 4 solved. Solve all four to clear the level.")

    ex = exercise(page, "quiz-sub-backward")
    ex.get_by_role("button", name="Show answer").click()
    # asked first, with what it costs here
    expect(page.locator("dialog.course-dialog")).to_contain_text("the short test can't count this exercise then")
    confirm(page, "Show the answer")
    expect(ex.locator(".course-solution")).to_be_visible()
    # said at once, before any Check
    expect(status).to_contain_text(f"You saw the answer to {SUB_TITLE}, so the short test can't count it")

    # the learner solves everything anyway and checks: it passes, and the test says why it doesn't count
    fill_blanks(page, ex, *SUB_ANSWER)
    expect(check(ex)).to_contain_text("Passed")
    note = ex.locator(".course-quiz__note")
    expect(note).to_have_text("You saw this answer, so the short test doesn't count it.")
    assert note.evaluate("n => n.previousElementSibling.classList.contains('course-result')"), "the note sits under the verdict"
    expect(answer(page, "quiz-dl-da", "-6")).to_contain_text("Right")
    tail = exercise(page, "quiz-backward-tail")
    fill_blanks(page, tail, TAIL_ANSWER)
    expect(check(tail)).to_contain_text("Passed")
    expect(tail.locator(".course-quiz__note")).to_have_count(0)
    expect(status).to_have_text(
        f"You saw the answer to {SUB_TITLE}, so the short test can't count it, and can no longer clear the level. "
        "Solve it in the level instead: work through the sections below (an answer seen in the test costs no stars there).")
    status.scroll_into_view_if_needed()
    expect(status).to_be_visible()
    expect(page.locator(".course-level .course-stars")).to_have_attribute("aria-label", "0 of 3 stars")

    # it holds after a reload; the question answered on its own gets no note
    page.reload()
    expect(status).to_contain_text(f"You saw the answer to {SUB_TITLE}, so")
    expect(question(page, "quiz-dl-da").locator(".course-quiz__note")).to_have_count(0)


def test_a_question_whose_answer_was_shown_is_named_by_its_place(page, site):
    page.set_viewport_size(SIZES["phone"])
    page.goto(site + LEVEL)
    q = question(page, "quiz-square")
    q.get_by_role("button", name="Show answer").click()
    expect(page.locator("dialog.course-dialog")).to_contain_text("The short test can't count this question then")
    confirm(page, "Show the answer")
    status = page.locator(".course-quiz .course-quiz__status")
    expect(status).to_contain_text("You saw the answer to the second question, so the short test can't count it")
    expect(q.locator(".course-quiz__note")).to_be_visible()
    # not cleared yet: the level's own items are still the way
    expect(page.locator(".course-level")).not_to_contain_text("Level cleared")
