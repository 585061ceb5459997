"""Number and choice feedback: a copied number is named, a near miss is told what
is near, and a wrong choice gets its reason (issue 25, item 6)."""


import pytest
from playwright.sync_api import expect

from .helpers import SIZES
from .pages import Level


@pytest.fixture(params=[("desktop", "light"), ("phone", "dark")], ids=["desktop-light", "phone-dark"])
def learner(request, browser):
    size, scheme = request.param
    context = browser.new_context(viewport=SIZES[size], color_scheme=scheme, service_workers="block")
    yield context.new_page()
    context.close()


def test_a_number_the_page_shows_is_a_recognised_slip(learner, site):
    feedback = Level(learner, site, "nudges").open_unlocked().question("slope-at-3").answer("20")  # f(3), which the lab shows next to the question
    expect(feedback).to_have_text("Not yet: 20 is f(3), the height of the curve at x = 3: "
                                  "the slope is how much f moves per unit that x moves.")


def test_a_near_miss_is_told_what_is_near(learner, site):
    q = Level(learner, site, "pytorch").open_unlocked().question("bridge-d-grad")
    expect(q.answer("0.24")).to_have_text("Not yet, but close: 0.24 is the answer rounded. Give four decimals.")
    expect(q.answer("0.2460")).to_have_text("Not yet, but close: 0.2460 is within 2 % of the answer, but not it.")
    expect(q.answer("0.7")).to_contain_text("Not yet: 0.7 is not it.")  # far: where to look
    expect(q.answer("0.2449")).to_contain_text("Right")


def test_a_near_miss_on_a_whole_number_is_not_told_in_percent(learner, site):
    q = Level(learner, site, "train").open_unlocked().question("parameter-count")
    expect(q.answer("104")).to_have_text("Not yet, but close: 104 is near the answer, but not it.")


def test_each_wrong_choice_gets_its_reason(learner, site):
    q = Level(learner, site, "autograd").open_unlocked().question("assign-square")
    feedback = q.answer("9")
    expect(feedback).to_have_text("Not yet. That is y's value, x · x, not a gradient.")
    expect(feedback).to_have_attribute("data-state", "wrong")
    expect(q.answer("3")).to_contain_text("Right")
