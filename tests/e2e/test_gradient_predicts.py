"""The chain rule level's "a gradient predicts" questions, checked in the lab the way
the page tells a learner to: one press of → on the a slider for a = 2.01, then a = 3."""

from playwright.sync_api import expect

from engine import Value

from .pages import Level


def square(a):
    """L = (a·b + c)² at b = −3, c = 10: L and ∂L/∂a, by the engine."""
    a = Value(a)
    loss = (a * -3.0 + 10.0) ** 2
    loss.backward()
    return loss.data, a.grad


def test_a_small_nudge_matches_the_prediction_and_a_big_one_does_not(page, site):
    level = Level(page, site, "chain-rule").open(python=False)
    for qid, right in (("pesos", "6"), ("dl-dd-square", "8"), ("dl-da-square", "−24")):
        expect(level.question(qid).answer(right)).to_contain_text("Right")
    lab = level.lab("expression")
    status = lab.status
    slider = lab.field("Input a")
    # the prediction first: L + ∂L/∂a × 0.01
    expect(level.question("predict-small-nudge").answer("15.76")).to_contain_text("Right")
    slider.focus()
    page.keyboard.press("ArrowRight")  # "press → once"
    expect(slider).to_have_value("2.01")
    small, _ = square(2.01)
    assert round(small, 2) == 15.76
    expect(status).to_contain_text("= 15.76")
    # a big nudge: the straight line says 16 − 24 = −8; the lab, and the page's answer, 1
    slider.fill("3")
    big, slope = square(3.0)
    expect(status).to_contain_text(f"= {big:g}")
    expect(lab.locator("table")).to_contain_text(f"{slope:.5f}".replace("-", "−"))
    big_nudge = level.question("predict-big-nudge")
    expect(big_nudge.answer("-8")).to_contain_text("the straight-line prediction")
    expect(big_nudge.answer(f"{big:g}")).to_contain_text("Right")
    expect(page.locator("article")).to_contain_text("The prediction is off by 9")
