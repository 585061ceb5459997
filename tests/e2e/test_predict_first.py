"""Predict, then see, on every level: no number question's answer is on screen, above
it, before it is answered (a lab's status line, a table, a demo's printed output).

Small whole numbers (|answer| < 10) are left out: "2" or "6" turn up in any text for
other reasons. Every other answer, read off the visible text above the question the
way a learner reads it (a "−" is a minus), must not be there.
"""

import re

import pytest

from .conftest import wait_for_python, wait_until

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
    page.goto(f"{site}/{level}/")
    if page.locator(".course-exercise, .course-lab").count():
        wait_for_python(page)
        wait_until(page, "document.querySelectorAll('.course-lab:not([data-mounted])').length === 0")
        page.wait_for_timeout(1500)  # labs fill in their numbers from the worker
    given_away = []
    for q in page.evaluate(OPEN_QUESTIONS):
        if q["kind"] != "number":
            continue
        answer = float(q["answer"].replace("−", "-"))
        if answer.is_integer() and abs(answer) < 10:
            continue
        hits = [n for n in numbers(q["above"]) if abs(n - answer) <= q["tolerance"]]
        if hits:
            given_away.append(f"{q['id']}: {q['answer']} is on screen above it")
    assert given_away == []
