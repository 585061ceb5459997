"""The live-graph level's graded work, at desktop and phone size: predict a gradient
before the lab shows it (a known slip gets its own reply), and write an expression
whose ∂L/∂a is 0 at a point (the engine differentiates it in the worker).

Every expected number is the engine's, recomputed here with labs/expression.py."""

import math
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from labs.expression import expression_graph, gradient_facts

from .helpers import SIZES, confirm
from .pages import Level

START = expression_graph("(a*b + b**2) * c.tanh()", {"a": 2, "b": -4, "c": 0.5})["predict"]
POINT = {"a": 2, "b": -4}


def typed(x, places=4):
    return f"{x:.{places}f}"


def slip(qid, value):
    """The message the engine's slips give for `value` (they are the page's own data)."""
    wrt = {"alive-predict-a": "a", "alive-c-grad": "c"}[qid]
    return next(m for v, m in START[wrt]["slips"] if math.isclose(v, value, abs_tol=1e-3))


@pytest.fixture(params=list(SIZES))
def sized(request, browser):
    context = browser.new_context(viewport=SIZES[request.param])
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_predict_then_check_keeps_the_numbers_back_until_answered(sized, site):
    page = sized
    level = Level(page, site, "alive").open(python=False)
    lab = level.lab("expression").root
    a, c = START["a"], START["c"]
    # before answering: no gradient anywhere, and no way to step to one
    expect(lab.get_by_role("button", name="Step backward")).to_be_disabled()
    expect(lab.locator("table")).to_be_hidden()
    expect(lab.locator(".course-lab__grad").first).to_have_text("grad —")
    assert "grad" not in lab.locator("svg.course-lab__graph").get_attribute("aria-label")
    for number in (a["answer"], c["answer"]):  # (L itself is 3.697)
        for shown in (typed(number), typed(number, 3)):
            assert shown.replace("-", "−") not in lab.inner_text()
    q = level.question("alive-predict-a")
    expect(q.field).to_be_visible()
    expect(q.feedback).to_be_empty()
    assert typed(a["answer"], 3) not in q.root.inner_text()
    q_c = level.question("alive-c-grad")
    expect(q_c.root).to_be_hidden()  # locked until ∂L/∂a is answered

    # each known slip gets its own reply, computed from the engine's numbers
    b = POINT["b"]
    upstream = math.tanh(0.5)  # what reaches a·b from L: 1 through the sum, tanh(c) at the product
    for wrong, says in ((b, "the local factor at a·b alone"), (upstream, "one step to go"),
                        (upstream * POINT["a"], "a's own value"), (-a["answer"], "wrong sign")):
        feedback = q.answer(typed(wrong))
        expect(feedback).to_have_attribute("data-state", "wrong")
        expect(feedback).to_contain_text(says)
        expect(feedback).to_contain_text(slip("alive-predict-a", wrong))
    # any other wrong number gets where to look, not a guess
    expect(q.answer("5")).to_contain_text("walk back to a")
    expect(lab.locator("table")).to_be_hidden()

    expect(q.answer(typed(a["answer"], 3))).to_contain_text(f"Right: {typed(a['answer']).replace('-', '−')}")
    expect(q.feedback).to_contain_text("0.4621 × 1 × (−4)")
    expect(lab.locator("table")).to_be_hidden()  # one prediction to go
    expect(q_c.root).to_be_visible()
    feedback = q_c.answer(typed(8 * math.tanh(0.5)))  # (a·b + b²)·tanh(c), which is L
    expect(feedback).to_contain_text("tanh(c) itself in place of its slope")
    expect(q_c.answer(typed(c["answer"]))).to_contain_text("Right")

    # answered: the lab shows every gradient, the engine's
    expect(lab.locator("table")).to_be_visible()
    expect(lab.locator("table")).to_contain_text(f"{a['answer']:.5f}".replace("-", "−"))
    expect(lab.locator("table")).to_contain_text(f"{c['answer']:.5f}")
    expect(lab.get_by_role("button", name="Step backward")).to_be_enabled()
    page.reload()
    expect(q.feedback).to_contain_text("Right")
    expect(page.locator(".course-lab[data-lab='expression'] table")).to_be_visible()


def predict_both(level):
    """The two predictions the flat-spot task is locked behind, answered right."""
    for qid, wrt in (("alive-predict-a", "a"), ("alive-c-grad", "c")):
        expect(level.question(qid).answer(typed(START[wrt]["answer"]))).to_contain_text("Right")


def test_make_the_gradient_vanish(sized, site):
    page = sized
    level = Level(page, site, "alive").open(python=False)
    status = level.status
    expect(status).to_contain_text("0 of 4")
    flat = level.question("alive-flat-a")
    expect(flat.root).to_be_hidden()  # locked behind the predictions
    predict_both(level)
    expect(status).to_contain_text("2 of 4")
    level.python_ready()
    task, check = flat.root, flat.check_expression  # keyboard only: Enter in the field checks
    expect(task).to_be_visible()
    expect(task.get_by_role("button", name="Check expression")).to_be_visible()

    # a wrong one: the actual gradient, from the engine, and a hint
    wrong = gradient_facts("(a-2)*b", POINT, "a")["grad"]
    feedback = check("(a-2)*b")
    expect(feedback).to_have_attribute("data-state", "wrong")
    expect(feedback).to_contain_text(f"∂L/∂a = {wrong:g}, not 0".replace("-", "−"))
    expect(feedback).to_contain_text("Hint: each use of a sends back its own part")
    # uses of a whose parts do not cancel: each part is named
    parts = gradient_facts("a*a - a*b", POINT, "a")
    expect(check("a*a - a*b")).to_contain_text(
        f"∂L/∂a = {parts['grad']:g}, not 0 (a's uses send back {parts['parts'][0]['part']:g} through a·a, "
        f"{parts['parts'][1]['part']:g} through a·b)".replace("-", "−"))
    # no a at all: true everywhere, so it says nothing about the point
    expect(check("b*b")).to_contain_text("does not use a")
    expect(check("b*b")).to_have_attribute("data-state", "wrong")
    # a in it, but cancelling for every a
    for vacuous in ("a - a", "a*b + 4*a"):
        assert gradient_facts(vacuous, POINT, "a")["varies"] is False
        expect(check(vacuous)).to_contain_text("L is the same for every a")
    expect(check("a*c")).to_contain_text("c has none")
    # a kink: the engine's relu rule gives 0 at exactly 0, the nudges show a corner
    kink = gradient_facts("relu(a-2)", POINT, "a")
    assert kink["grad"] == 0 and kink["kink"]
    feedback = check("relu(a-2)")
    expect(feedback).to_have_attribute("data-state", "wrong")
    expect(feedback).to_contain_text("L has a kink at a = 2, b = −4, not a flat spot. "
                                     "Nudging a down, L moves at 0 per unit; nudging it up, at 1 per unit")
    # the engine's 0 where L is a line: the nudge oracle measures 1
    expect(check("relu(a-2) - relu(2-a)")).to_contain_text("the nudge oracle measures 1: L does move with a")
    expect(check("__import__('os')")).to_contain_text("Only tanh, exp, log, relu and sigmoid can be called")
    expect(status).to_contain_text("2 of 4")
    # everything open and a verdict shown: no serious accessibility problem, no sideways scroll
    violations = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert violations == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")

    # a right one: accepted, with the parts that cancel, and counted
    good = gradient_facts("a*a - 4*a", POINT, "a")
    assert good["grad"] == 0 and good["varies"]
    feedback = check("a*a - 4*a")
    expect(feedback).to_have_attribute("data-state", "right")
    expect(feedback).to_contain_text("∂L/∂a = 0 ✓ at a = 2, b = −4: a's uses send back 4 through a·a and −4 through 4·a")
    expect(task).to_have_class(re.compile("is-solved"))
    expect(status).to_contain_text("3 of 4")
    expect(level.question("review-step").answer("1.7")).to_contain_text("Right")
    expect(level.stars).to_have_attribute("aria-label", "3 of 3 stars")
    page.reload()
    expect(flat.feedback).to_contain_text("∂L/∂a = 0 ✓ for a*a - 4*a")


def test_an_example_counts_as_shown_and_a_flat_point_of_a_square_passes(page, site):
    level = Level(page, site, "alive").open(python=False)
    predict_both(level)
    level.python_ready()
    flat = level.question("alive-flat-a")
    task, check = flat.root, flat.check_expression
    task.get_by_role("button", name="Show an example").click()
    confirm(page, "Show an example")
    example = task.get_attribute("data-example")
    assert gradient_facts(example, POINT, "a")["grad"] == 0
    expect(flat.feedback).to_contain_text(f"An example: {example}. ∂L/∂a = 0 ✓")
    expect(task.get_by_label("Your expression L")).to_have_value(example)
    for source in ("(a - 2)**2 * b", "relu(a - 10) + (a-2)**3"):
        facts = gradient_facts(source, POINT, "a")
        assert facts["grad"] == 0 and facts["varies"], source
        expect(check(source)).to_have_attribute("data-state", "right")
    expect(level.question("review-step").answer("1.7")).to_contain_text("Right")
    # an example shown: the level clears, with a star fewer
    expect(level.stars).to_have_attribute("aria-label", "2 of 3 stars")
