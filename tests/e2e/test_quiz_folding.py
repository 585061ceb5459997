"""Predict, then see, in the skip test: its editors show the blanks and what they
need, with the rest of the engine folded away (its methods answer other questions),
at desktop and phone size. The folded code is still there: it is graded, and the
learner can open it on purpose."""

import pytest
from playwright.sync_api import expect

from .helpers import SIZES, SUB_ANSWER
from .pages import Level

# lines that answer another exercise of the level (backward's tail, __mul__'s rule)
ANSWERS = ["for v in reversed(topo):", "self.grad += other.data * out.grad", "other.grad += self.data * out.grad"]


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_tests_editors_show_the_blanks_not_the_engine(page, site, size):
    page.set_viewport_size(SIZES[size])
    level = Level(page, site, "autograd").open(python=False)
    for slot in ("quiz-sub-backward", "quiz-backward-tail"):
        ex = level.exercise(slot)
        ex.root.scroll_into_view_if_needed()
        expect(ex.editor).to_contain_text("____", timeout=20_000)  # built once the test is opened
        expect(ex.root.locator(".cm-foldPlaceholder").first).to_be_visible()
        shown = ex.editor.inner_text()
        for line in ANSWERS:
            if slot == "quiz-backward-tail" and line.startswith("for v"):
                continue  # that is this exercise's own blank
            assert line not in shown, f"{slot} shows {line!r}"
        lines = ex.lines.count()
        assert lines <= 30, f"{slot}: {lines} lines on screen"
    # in the level itself, editors show the whole file
    assert level.exercise("mul-backward").root.locator(".cm-foldPlaceholder").count() == 0


def test_folded_code_is_still_graded_and_opens_on_purpose(page, site):
    level = Level(page, site, "autograd").open()
    expect(level.exercise("quiz-sub-backward").fill_blanks(*SUB_ANSWER).check()).to_contain_text("Passed")  # the folded methods ran
    page.reload()
    ex = level.exercise("quiz-sub-backward")
    ex.root.scroll_into_view_if_needed()
    # after a reload the learner's own lines stay open; the given code is folded again
    expect(ex.editor).to_contain_text("other.grad -= out.grad")
    folds = ex.root.locator(".cm-foldPlaceholder")
    expect(folds).to_have_count(5)  # __init__, __add__, __mul__, backward, the "Try it" lines
    before = ex.lines.count()
    folds.first.click()
    expect(ex.lines).not_to_have_count(before)


# The lines of a plain-text editor (before CodeMirror) that are in view: no wrapping,
# so a line is one line-height; scrollTop says which come first.
IN_VIEW = """(t) => { const h = parseFloat(getComputedStyle(t).lineHeight), lines = t.value.split('\\n');
  const first = Math.round(t.scrollTop / h);
  return lines.slice(first, first + Math.floor((t.clientHeight - 8) / h)); }"""


def _answers_in_view(level):
    found = {}
    for slot in ("quiz-sub-backward", "quiz-backward-tail"):
        draft = level.exercise(slot).root.locator("textarea.course-draft")
        shown = "\n".join(draft.evaluate(IN_VIEW))
        found[slot] = shown
        for line in ANSWERS:
            if not (slot == "quiz-backward-tail" and line.startswith("for v")):
                assert line not in shown, f"{slot}'s plain-text editor shows {line!r}"
    return found


@pytest.mark.parametrize("size", SIZES)
def test_before_codemirror_the_skip_tests_editors_show_the_blank_not_the_engine(page, site, size):
    """The plain-text editors that take typing before any script (here the course's
    scripts never load) scroll to the blank's function and show 16 lines."""
    page.set_viewport_size(SIZES[size])
    page.route("**/assets/course/**/*.js", lambda route: route.abort())
    level = Level(page, site, "autograd").open(python=False)
    shown = _answers_in_view(level)
    assert shown["quiz-sub-backward"].lstrip().startswith("def __sub__(self, other):")
    assert "____" in shown["quiz-sub-backward"]
    assert shown["quiz-backward-tail"].lstrip().startswith("def backward(self):")
    assert "____" in shown["quiz-backward-tail"]
    assert level.exercise("quiz-sub-backward").editor.count() == 0  # still the plain text


def test_without_javascript_the_skip_tests_editors_show_no_other_answer(browser, site):
    context = browser.new_context(java_script_enabled=False)
    _answers_in_view(Level(context.new_page(), site, "autograd").open(python=False))
    context.close()
