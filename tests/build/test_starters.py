"""Predict, then see: a starter on a level page shows no line that a later exercise
of the same page asks the learner to write. (The skip test's editors fold what they
give; tests/e2e/test_quiz_folding.py holds them to the same rule.)"""

import re
from pathlib import Path

import pytest

from grader.catalog import load_all
from grader.mutate import learner_lines

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXERCISES = load_all()
BLOCK = re.compile(r"^/+ exercise \| ([\w-]+)\n((?:    .*\n)*)", re.M)


def page_order(page):
    """The ids of the page's own exercises (not the skip test's slots), in page order."""
    return [m.group(1) for m in BLOCK.finditer(page.read_text()) if "slot: quiz-" not in m.group(2)]


def lines(code):
    return {line.strip() for line in code.split("\n")} - {""}


def answer_lines(exercise):
    """The lines the learner writes that their own starter doesn't already show
    elsewhere (sub-backward's `self.grad += out.grad` is also `__add__`'s line)."""
    solution = exercise.solution.split("\n")
    return {solution[n - 1].strip() for n in learner_lines(exercise)} - lines(exercise.starter) - {""}


PAGES = [p for p in sorted(DOCS.glob("*.md")) if len(page_order(p)) > 1]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_no_starter_shows_the_answer_of_a_later_exercise(page):
    order = page_order(page)
    for i, shown in enumerate(order):
        starter = lines(EXERCISES[shown].starter)
        for later in order[i + 1:]:
            given_away = sorted(answer_lines(EXERCISES[later]) & starter)
            assert not given_away, f"{shown}'s starter shows {later}'s answer: {given_away}"


def test_the_rule_catches_a_starter_that_spells_out_backward():
    """The autograd page's first starter once spelled out the end of backward."""
    tail = answer_lines(EXERCISES["backward-tail"])
    assert {"self.grad = 1.0", "for v in reversed(topo):", "v._backward()"} <= tail
    assert page_order(DOCS / "autograd.md") == ["value-init", "mul-backward", "sub-backward", "topo-order", "backward-tail"]
