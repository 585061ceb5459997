"""Predict, then see, in the skip test: its editors show the blanks and what they
need, with the rest of the engine folded away (its methods answer other questions),
at desktop and phone size. The folded code is still there: it is graded, and the
learner can open it on purpose."""

import pytest
from playwright.sync_api import expect

from .conftest import wait_for_python
from .helpers import SUB_ANSWER, check, exercise, fill_blanks

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# lines that answer another exercise of the level (backward's tail, __mul__'s rule)
ANSWERS = ["for v in reversed(topo):", "self.grad += other.data * out.grad"]


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_tests_editors_show_the_blanks_not_the_engine(page, site, size):
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/autograd/")
    for slot in ("quiz-sub-backward", "quiz-backward-tail"):
        ex = exercise(page, slot)
        ex.scroll_into_view_if_needed()
        content = ex.locator(".cm-content")
        expect(content).to_contain_text("____")
        expect(ex.locator(".cm-foldPlaceholder").first).to_be_visible()
        shown = content.inner_text()
        for line in ANSWERS:
            if slot == "quiz-backward-tail" and line.startswith("for v"):
                continue  # that is this exercise's own blank
            assert line not in shown, f"{slot} shows {line!r}"
        lines = ex.locator(".cm-line").count()
        assert lines <= 30, f"{slot}: {lines} lines on screen"
    # in the level itself, editors show the whole file
    assert exercise(page, "mul-backward").locator(".cm-foldPlaceholder").count() == 0


def test_folded_code_is_still_graded_and_opens_on_purpose(page, site):
    page.goto(site + "/autograd/")
    wait_for_python(page)
    ex = exercise(page, "quiz-sub-backward")
    fill_blanks(page, ex, *SUB_ANSWER)
    expect(check(ex)).to_contain_text("Passed")  # the folded methods ran
    page.reload()
    ex = exercise(page, "quiz-sub-backward")
    ex.scroll_into_view_if_needed()
    # after a reload the learner's own lines stay open; the given code is folded again
    expect(ex.locator(".cm-content")).to_contain_text("other.grad -= out.grad")
    expect(ex.locator(".cm-foldPlaceholder")).to_have_count(4)
    before = ex.locator(".cm-line").count()
    ex.locator(".cm-foldPlaceholder").first.click()
    expect(ex.locator(".cm-line")).not_to_have_count(before)
