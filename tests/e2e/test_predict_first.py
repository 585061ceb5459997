"""Predict, then see, on every level: no number question's answer is on screen, above
it, before it is answered (a lab's status line, a table, a demo's printed output), even
with the scripts off or before they run; with them, see test_every_page.py.

Small whole numbers (|answer| < 10) are left out: "2" or "6" turn up in any text for
other reasons. Every other answer, read off the visible text above the question the
way a learner reads it (a "−" is a minus), must not be there.
"""

import re

import pytest

from .helpers import answers_above
from .pages import Level

PAGES = ["nudges", "chain-rule", "autograd", "accumulate", "more-ops", "alive", "train", "pytorch", "capstone"]


@pytest.mark.parametrize("level", PAGES)
def test_read_with_no_javascript_no_answer_is_above_its_question(browser, site, level):
    """With scripts off every section shows (the page reads as a text): still no answer
    stands above the question that asks for it."""
    context = browser.new_context(java_script_enabled=False)
    page = Level(context.new_page(), site, level).open(python=False).page
    assert page.locator(".course-locked").count() == 0 or page.locator(".course-locked > *").first.is_visible()
    assert answers_above(page) == []
    context.close()


def test_before_the_scripts_have_run_no_locked_part_shows(browser, site):
    """The first paint comes before the course's scripts read the learner's progress:
    a locked part must not flash its answers meanwhile."""
    context = browser.new_context()
    page = context.new_page()
    page.route(re.compile(r"/assets/course/course\.[^/]*\.js$"), lambda route: route.abort())
    Level(page, site, "autograd").open(python=False)
    assert page.locator(".course-locked").count() > 3
    shown = page.evaluate("[...document.querySelectorAll('.course-locked > *, .course-recap > *')]"
                          ".filter((n) => n.checkVisibility()).map((n) => n.textContent.slice(0, 60))")
    assert shown == []
    context.close()
