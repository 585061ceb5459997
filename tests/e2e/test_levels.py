"""Every level of the course: it loads, its questions and exercises grade right
and wrong answers in page order (each one opens the next section), and its
labs draw what the engine computes in the worker."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader import catalog
from grader.grading import grade

from .helpers import confirm, rendered
from .pages import Level, clear_alive

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"

# (page, [("q", id, wrong, right) | ("x", exercise id) | ("t", live-graph task id, wrong, right)], in page order)
LEVELS = {
    "nudges": [("q", "slope-at-3", "12", "14"), ("x", "central-difference"), ("q", "descent-first-step", "1.2", "0.8"),
               ("q", "descent-runaway", "0.3", "0.4")],
    "chain-rule": [("q", "pesos", "5", "6"), ("q", "dl-dd-square", "4", "8"),
                   ("q", "dl-da-square", "24", "−24"), ("q", "predict-small-nudge", "16.24", "15.76"),
                   ("q", "predict-big-nudge", "-8", "1"), ("x", "chain-by-hand")],
    "accumulate": [("q", "diamond-grad", "1", "2"), ("x", "diamond"), ("q", "grad-two-passes", "-6", "−12"),
                   ("q", "why-zero-grad", "Zero: the old graphs are gone", "The sum of the gradients of steps 1, 2 and 3"),
                   ("q", "backward-twice", "-12", "−24"), ("q", "review-square", "-2.5", "−5")],
    "more-ops": [("q", "tanh-rate", "0.4621", "0.7864"), ("x", "tanh-backward"),
                 ("q", "exp-rate", "1", "2.7183"), ("x", "exp-backward"),
                 ("q", "log-rate", "1.3863", "0.25"), ("x", "log-backward"), ("q", "log-at-quarter", "0.25", "4"),
                 ("q", "relu-rate", "1", "0"), ("x", "relu-backward"),
                 ("q", "pow-at-2", "8", "12.006"), ("x", "pow-backward"),
                 ("q", "div-rate", "1.5", "−0.7496"), ("x", "div-backward"),
                 ("q", "rsub", "a.__sub__(2)", "a.__rsub__(2)"), ("q", "graph-size", "5", "6"),
                 ("q", "review-diamond", "1", "3")],
    "alive": [("q", "alive-predict-a", "-3", "-1.8485"), ("q", "alive-c-grad", "3.6969", "6.2916"),
              ("t", "alive-flat-a", "(a-2)*b", "a*a - 4*a"), ("q", "review-step", "1.3", "1.7")],
    "pytorch": [("q", "bridge-d-grad", "0.4898", "0.2449"), ("q", "bridge-grad-fn", "grad", "grad_fn")],
    "capstone": [("q", "capstone-params", "100", "105"), ("q", "softplus-rate", "7.3891", "0.8808"), ("x", "softplus")],
}


def _solution(exercise_id):
    return catalog.load(exercise_id).solution


def _first_mistake(exercise_id):
    """The exercise's first known mistake, as code, and what the CLI's verdict on it says."""
    exercise = catalog.load(exercise_id)
    code = exercise.mistakes[0].code
    return code, grade(exercise, code, isolated=False)


@pytest.mark.parametrize("level", LEVELS)
def test_level_grades_right_and_wrong_answers_and_clears(page, site, level):
    page_level = Level(page, site, level).open()
    for step in LEVELS[level]:
        if step[0] == "q":
            _, qid, wrong, right = step
            q = page_level.question(qid)
            expect(q.answer(wrong)).to_contain_text("Not yet")
            expect(q.answer(right)).to_contain_text("Right")
        elif step[0] == "t":
            _, qid, wrong, right = step
            task = page_level.question(qid)
            expect(task.check_expression(wrong)).not_to_contain_text("✓")
            expect(task.check_expression(right)).to_contain_text("∂L/∂a = 0 ✓")
        else:
            ex = page_level.exercise(step[1])
            code, cli = _first_mistake(step[1])
            assert cli["diagnosis"], f"{step[1]}: its first known mistake is not diagnosed"
            result = ex.replace_code(code).check()
            expect(result).to_have_attribute("data-state", "failed")
            expect(result.locator(".course-result__headline")).to_contain_text(f"Not yet — {cli['summary']}")
            expect(result.locator(".course-result__diagnosis")).to_have_text(
                "Known mistake: " + rendered(cli["diagnosis"]["message"]))
            expect(ex.replace_code(_solution(step[1])).check()).to_contain_text("Passed")
    expect(page_level.stars).to_have_attribute("aria-label", "3 of 3 stars")
    expect(page.locator(".course-recap")).to_contain_text("Recap")
    expect(page.locator(".course-lock-notice")).to_have_count(0)


def test_train_level_grades_the_learners_network(page, site):
    """Neuron, then Layer, then MLP, each its own exercise with its own Check: each
    known mistake diagnosed, the solution passes, and passing opens the next step."""
    level = Level(page, site, "train").open()
    steps = ["neuron", "layer", "mlp"]
    for i, exercise_id in enumerate(steps):
        for later in steps[i + 1:]:
            expect(level.exercise(later).root).to_be_hidden()
        ex = level.exercise(exercise_id)
        for mistake in catalog.load(exercise_id).mistakes:
            result = ex.replace_code(mistake.code).check()
            expect(result).to_have_attribute("data-state", "failed")
            expect(result.locator(".course-result__diagnosis")).to_have_text("Known mistake: " + rendered(mistake.message))
        expect(ex.replace_code(_solution(exercise_id)).check()).to_contain_text("Passed")


def test_tangent_lab_measures_in_the_worker(page, site):
    level = Level(page, site, "nudges").open(python=False)
    lab = level.lab("tangent").root
    # it starts away from x = 3, whose slope the question below asks the learner to measure
    expect(lab.get_by_role("status")).to_contain_text(
        "At x₀ = 1 with h = 0.1: central 2.000000 (error 0), one-sided 2.300000 (error 0.3), the engine's gradient 2.")
    level.python_ready()
    lab.get_by_label("x₀, where to measure the slope").fill("3")
    # the labs' own interpreter boots apart from the grading one (python_ready): on a busy
    # machine it can take longer than expect's default 5 s
    expect(lab.get_by_role("status")).to_contain_text(
        "At x₀ = 3 with h = 0.1: central 14.000000 (error 0), one-sided 14.300000 (error 0.3), the engine's gradient 14.",
        timeout=60_000)
    lab.get_by_label("Nudge size h").select_option("1")
    lab.get_by_label("x₀, where to measure the slope").fill("1")
    expect(lab.get_by_role("status")).to_contain_text("At x₀ = 1 with h = 1: central 2.000000 (error 0), one-sided 5.000000 (error 3)")
    lab.get_by_label("Function").select_option("cubic")
    expect(lab.get_by_role("status")).to_contain_text("one-sided 7.000000 (error 4), the engine's gradient 3.")
    rows = lab.locator("table tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(1)).to_have_text(re.compile(r"0\.1\s*0\.01\s*0\.31"))
    # the tangent line stays inside the plot at the left edge (the parabola falls steeply there)
    lab.get_by_label("Function").select_option("quadratic")
    lab.get_by_label("x₀, where to measure the slope").fill("-1")
    expect(lab.get_by_role("status")).to_contain_text("At x₀ = −1 with h = 1: central −10.000000")
    box = lab.locator("svg.course-plot").bounding_box()
    line = lab.locator(".course-plot__tangent").bounding_box()
    assert line["x"] >= box["x"] - 1 and line["y"] >= box["y"] - 1
    assert line["x"] + line["width"] <= box["x"] + box["width"] + 1 and line["y"] + line["height"] <= box["y"] + box["height"] + 1


def test_expression_lab_draws_any_expression(page, site):
    level = Level(page, site, "alive").open()
    expression = level.lab("expression")
    lab = expression.root
    # predict first: no gradient until the question is answered, or revealed (which counts as shown)
    expect(lab.locator("table")).to_be_hidden()
    assert "grad" not in lab.locator("svg").get_attribute("aria-label")
    reveal = lab.get_by_role("button", name="Show the gradients now (counts as a shown answer)")
    reveal.click()
    confirm(page, "Cancel")  # it asks first, like Show answer: nothing shown yet
    expect(lab.locator("table")).to_be_hidden()
    reveal.click()
    confirm(page, "Show the gradients")
    assert page.evaluate("document.activeElement.classList.contains('course-lab__status')")  # focus stays in the lab
    expect(lab.locator("table")).to_contain_text("6.29158")
    clear_alive(level)
    expect(level.stars).to_have_attribute("aria-label", "2 of 3 stars")
    expression.draw("(x + y).exp() * x")
    expect(lab.get_by_label("Input y")).to_be_visible()
    expect(lab.locator("svg")).to_have_attribute("aria-label", re.compile(r"exp"))
    expect(lab.locator("table tbody tr")).to_have_count(2)
    expect(lab.locator("table")).not_to_contain_text("✗")
    expression.draw("__import__('os')")
    expect(lab.locator(".course-lab__status")).to_contain_text("Only tanh, exp, log, relu and sigmoid can be called")


def test_training_level_trains_and_draws(page, site):
    level = Level(page, site, "train").open()
    lab = level.lab("training").root
    expect(lab).to_be_hidden()  # its parameter count would answer a question: it opens in section 3
    expect(level.question("neuron-w1").answer("0.9610")).to_contain_text("w₁ was multiplied by x₁ = 2")
    expect(level.question("neuron-w1").answer("1.9221")).to_contain_text("Right")
    for step in ("neuron", "layer", "mlp"):  # the level's stars count them too
        expect(level.exercise(step).replace_code(_solution(step)).check()).to_contain_text("Passed")
    count = level.question("parameter-count")
    expect(count.answer("104")).to_contain_text("Not yet")
    expect(count.answer("88")).to_contain_text("the weights alone")
    expect(count.answer("105")).to_contain_text("Right")
    expect(level.exercise("sgd-step").replace_code(_solution("sgd-step")).check()).to_contain_text("Passed")
    expect(lab).to_be_visible()
    expect(lab.locator("table")).to_contain_text("105")
    lab.get_by_role("button", name=re.compile("^Train")).click()
    expect(lab.get_by_role("status").first).to_contain_text(
        re.compile(r"Trained with learning rate 0.05: loss .* in 120 steps"), timeout=120_000)
    expect(lab.locator("progress")).to_have_attribute("value", "120")
    expect(lab.locator(".course-training__loss .uplot canvas")).to_have_count(1)
    expect(lab.locator(".course-training__cells rect")).to_have_count(36 * 30)
    expect(lab.locator("rect.course-training__point")).to_have_count(4 + 1)  # the class −1 points, and the legend's
    expect(lab.locator(".course-training__network line")).to_have_count(2 * 8 + 8 * 8 + 8)
    lab.locator(".course-training__boundary").scroll_into_view_if_needed()
    box = lab.locator(".course-training__boundary").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.2)
    expect(lab.locator(".course-lab__status").last).to_contain_text("class +1")
    page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.8)  # XOR: x > 0, y < 0
    expect(lab.locator(".course-lab__status").last).to_contain_text("class −1")
    expect(level.question("trained-class").answer("−1")).to_contain_text("Not yet")
    expect(level.question("trained-class").answer("+1")).to_contain_text("Right")
    # too large a learning rate overshoots, then the saturated network sticks at a loss of 1
    lab.get_by_label("Learning rate").select_option("2")
    lab.get_by_role("button", name=re.compile("^Train")).click()
    expect(lab.get_by_role("status").first).to_contain_text(
        re.compile(r"Trained with learning rate 2: loss 1\.13\d*\s→\s(1|0\.99\d*) in 120 steps"), timeout=120_000)
    expect(level.question("review-tanh").answer("0.75")).to_contain_text("Right")
    expect(level.stars).to_have_attribute("aria-label", "3 of 3 stars")


def test_chain_rule_sliders_reach_the_values_the_page_asks_for(page, site):
    lab = Level(page, site, "chain-rule").open(python=False).lab("expression").root
    slider = lab.get_by_label("Input c")
    expect(slider).to_have_value("10")
    assert float(slider.get_attribute("max")) >= 10
    expect(lab.locator(".course-lab__status")).to_contain_text("= 16")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_the_tangent_plot_is_readable_at_any_width(page, site, size):
    """Axis text of at least 11 CSS px (the drawing is not shrunk to fit a phone), and
    ticks at round numbers."""
    page.set_viewport_size(size)
    lab = Level(page, site, "nudges").open(python=False).lab("tangent").root
    texts = lab.locator(".course-plot__axes text")
    expect(texts.first).to_be_visible()
    sizes = texts.evaluate_all("ts => ts.map(t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize))")
    assert min(sizes) >= 11, sizes
    ticks = [t for t in texts.evaluate_all("ts => ts.map(t => t.textContent)") if t not in ("x", "f(x)")]
    for tick in ticks:
        value = float(tick.replace("−", "-"))
        assert any(abs(value / step - round(value / step)) < 1e-9 for step in (1, 2, 5, 10, 20, 50, 0.5)), ticks
    box = lab.locator("svg.course-plot").bounding_box()
    assert box["x"] + box["width"] <= size["width"], "the plot fits the screen"
