"""The capstone: the learner's own engine, from their saved code, trains a network
next to the reference, and a broken piece is pinned on its blank."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader import catalog
from labs.capstone import PIECES

from .conftest import wait_for_python
from .helpers import SIZES

ROOT = Path(__file__).resolve().parents[2]


def seed_progress(page, site, codes):
    """What a learner's progress holds after solving these exercises: each marked
    solved on its level, with the code last saved in its editor."""
    levels = {}
    for exercise, level, *_ in PIECES:
        if exercise in codes:
            levels.setdefault(level, {"items": {}})["items"][exercise] = {"solved": True}
    data = {"version": 1, "levels": levels, "code": codes}
    page.goto(site + "/")
    page.evaluate("(d) => localStorage.setItem('byoa-progress', d)", json.dumps(data))
    page.goto(site + "/capstone/")
    wait_for_python(page)


def solution(exercise):
    return (ROOT / "exercises" / exercise / "solution.py").read_text()


def train(page):
    lab = page.locator(".course-lab[data-lab='capstone']")
    lab.get_by_role("button", name="Train your engine (60 steps)").click()
    expect(lab.locator(".course-lab__status")).to_contain_text("Trained on your engine", timeout=90_000)
    expect(lab.locator(".course-capstone__verdict p").first).to_be_visible()
    return lab


def test_every_blank_solved_the_learners_engine_trains_like_the_reference(page, site):
    seed_progress(page, site, {exercise: solution(exercise) for exercise, *_ in PIECES})
    lab = page.locator(".course-lab[data-lab='capstone']")
    expect(lab.locator("tbody tr").filter(has_text="yours")).to_have_count(len(PIECES))
    lab = train(page)
    status = lab.locator(".course-lab__status").inner_text()
    first, last = (float(x.replace("−", "-")) for x in status.split("loss ")[1].split(" in ")[0].split(" → "))
    assert last < first / 10, status  # the loss falls
    expect(lab.locator(".course-capstone__verdict")).to_have_attribute("data-state", "same")
    expect(lab.locator("tbody tr[data-state='ok']")).to_have_count(len(PIECES))
    expect(lab.locator(".course-lossplot")).to_have_attribute("aria-label", re.compile(
        r"^Loss curve: 60 steps, from 8\.75 to [0-9.]+; reference engine: from 8\.75 to [0-9.]+\.$"))
    # the decision boundary of the learner's own trained network
    boundary = lab.locator(".course-capstone__boundary")
    expect(boundary).to_be_visible()
    expect(boundary.locator("svg.course-training__boundary")).to_have_attribute(
        "aria-label", "Decision boundary of your trained network: 8 of 8 training points on their own side.")
    expect(boundary.locator(".course-training__legend li")).to_have_count(3)  # no test point here


def test_a_wrong_op_blank_is_pinned_on_its_exercise(page, site):
    codes = {exercise: solution(exercise) for exercise, *_ in PIECES}
    codes["mul-backward"] = next(m for m in catalog.load("mul-backward").mistakes if m.name == "uses-own-data").code
    seed_progress(page, site, codes)
    lab = train(page)
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "differs")
    expect(lab.locator("tbody tr[data-state='wrong']")).to_have_count(1)
    link = verdict.get_by_role("link", name="multiplication (__mul__, exercise mul-backward)")
    expect(link).to_have_attribute("href", "../autograd/#ex-mul-backward")
    expect(verdict.locator("li")).to_have_count(1)
    link.click()
    expect(page.locator("#ex-mul-backward")).to_be_attached()


def test_pieces_not_solved_come_from_the_reference(page, site):
    seed_progress(page, site, {"mul-backward": solution("mul-backward")})
    lab = page.locator(".course-lab[data-lab='capstone']")
    expect(lab.locator("tbody tr").filter(has_text="yours")).to_have_count(1)
    expect(lab.locator("tbody tr").filter(has_text="reference")).to_have_count(len(PIECES) - 1)




@pytest.mark.parametrize("size", SIZES)
def test_the_loss_chart_shows_once_trained_with_labelled_axes_and_a_legend(page, site, size):
    page.set_viewport_size(SIZES[size])
    seed_progress(page, site, {"mul-backward": solution("mul-backward")})
    lab = page.locator(".course-lab[data-lab='capstone']")
    # the pieces table is a Material table: its wrappers, no class of its own
    expect(lab.locator(".md-typeset__scrollwrap > .md-typeset__table > table:not([class])")).to_have_count(1)
    plot = lab.locator(".course-lossplot")
    expect(plot).to_be_hidden()  # no empty box before training
    expect(lab.locator(".course-capstone__boundary")).to_be_hidden()
    lab = train(page)
    expect(plot).to_be_visible()
    expect(plot.locator(".uplot canvas")).to_have_count(1)
    expect(plot.locator(".course-lossplot__x")).to_have_text("step")
    expect(plot.locator(".course-lossplot__y")).to_have_text("loss (log scale)")
    legend = plot.locator(".u-legend .u-series")
    expect(legend).to_have_count(2)
    expect(legend.nth(0)).to_have_text("your engine")
    expect(legend.nth(1)).to_have_text("reference engine")
    expect(lab.locator(".course-capstone__boundary text.course-plot__label")).to_have_text(["x₁", "x₂"])
    box = plot.bounding_box()
    assert box["x"] + box["width"] <= SIZES[size]["width"], box
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"the page scrolls sideways ({width} px wide)"
