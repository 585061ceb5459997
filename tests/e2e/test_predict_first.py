"""Predict, then see, on every level: no number question's answer is on screen, above
it, before it is answered (a lab's status line, a table, a demo's printed output).

Small whole numbers (|answer| < 10) are left out: "2" or "6" turn up in any text for
other reasons. Every other answer, read off the visible text above the question the
way a learner reads it (a "−" is a minus), must not be there.
"""

import re

import pytest

from .pages import Level

PAGES = ["nudges", "chain-rule", "autograd", "accumulate", "more-ops", "alive", "train", "pytorch", "capstone"]

# Each open number question: its answer, its tolerance, and the visible text above it
# (text nodes that come before it in the article, whose element is rendered).
OPEN_QUESTIONS = """() => {
  const article = document.querySelector('article');
  const shown = (node) => node.parentElement && node.parentElement.checkVisibility({ visibilityProperty: true });
  return [...article.querySelectorAll('.course-question[data-answer]')]
    .filter((q) => q.checkVisibility() && !q.closest('.course-quiz'))
    .map((q) => {
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      const above = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!(n.compareDocumentPosition(q) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
        if (!q.contains(n) && shown(n)) above.push(n.textContent);
      }
      return { id: q.dataset.question, kind: q.dataset.kind, answer: q.dataset.answer,
               tolerance: Number(q.dataset.tolerance || 0.001), above: above.join(' ') };
    });
}"""
NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?")


def numbers(text):
    return [float(m.replace("−", "-")) for m in NUMBER.findall(text)]


@pytest.mark.parametrize("level", PAGES)
def test_no_answer_is_on_screen_above_its_question(page, site, level):
    page_level = Level(page, site, level).open(python=False)
    if page.locator(".course-exercise, .course-lab").count():
        page_level.python_ready().labs_mounted()
        # Nothing must happen: no answer may show up above its question once the labs have
        # their worker's numbers, and a lab says nothing when those replace the ones it was
        # built with. Waiting lets more numbers onto the screen, never fewer.
        page.wait_for_timeout(1500)
    assert given_away(page.evaluate(OPEN_QUESTIONS)) == []


def given_away(questions):
    found = []
    for q in questions:
        if q["kind"] != "number":
            continue
        answer = float(q["answer"].replace("−", "-"))
        if answer.is_integer() and abs(answer) < 10:
            continue
        if [n for n in numbers(q["above"]) if abs(n - answer) <= q["tolerance"]]:
            found.append(f"{q['id']}: {q['answer']} is on screen above it")
    return found


@pytest.mark.parametrize("level", PAGES)
def test_read_with_no_javascript_no_answer_is_above_its_question(browser, site, level):
    """With scripts off every section shows (the page reads as a text): still no answer
    stands above the question that asks for it."""
    context = browser.new_context(java_script_enabled=False)
    page = Level(context.new_page(), site, level).open(python=False).page
    assert page.locator(".course-locked").count() == 0 or page.locator(".course-locked > *").first.is_visible()
    assert given_away(page.evaluate(OPEN_QUESTIONS)) == []
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
