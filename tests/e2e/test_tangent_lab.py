"""The tangent lab as a learner uses it: the nudge drawn with its values, then gradient
descent from x₀ that settles at the parabola's minimum at rate 0.1, and runs away at 0.4.
Every number the lab shows is labs/tangent.py's (the descent recomputed here)."""

import re

from playwright.sync_api import expect

from labs.tangent import descent

from .pages import Level


def _lab(page, site):
    return Level(page, site, "nudges").open().lab("tangent")


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _js_number(v):
    """The page's fmt(v, { digits: 6, powers: true }) (course_browser/numbers.js) for the
    descent's numbers: far from 1 (below 10⁻⁴, from 10⁶), a power of ten."""
    mantissa, _, exponent = f"{abs(v):.6g}".partition("e")
    text = mantissa
    if exponent and not -4 <= int(exponent) < 6:
        power = "10" + str(int(exponent)).translate(SUPERSCRIPT)
        text = power if mantissa == "1" else f"{mantissa} × {power}"
    return "−" + text if v < 0 else text


def test_the_nudge_is_drawn_with_its_values(page, site):
    lab = _lab(page, site)
    slider = lab.field("x₀, where to measure the slope")
    slider.fill("3")
    expect(lab.locator(".course-lab__value")).to_have_text("3")
    lab.field("Nudge size h").select_option("1")
    # the lab interpreter boots once the lab is in view, after the grading one data-python
    # waits for: seconds on a busy machine
    expect(lab.root.get_by_role("status")).to_contain_text("At x₀ = 3 with h = 1: central 14.000000", timeout=30_000)
    expect(lab.locator("svg.course-plot")).not_to_have_class(re.compile("course-lab__stale"))  # no longer dimmed
    expect(lab.locator(".course-plot__nudge")).to_have_count(2)  # x₀ − h and x₀ + h, on the curve
    expect(lab.locator(".course-plot__secant--central")).to_have_count(1)
    expect(lab.locator(".course-plot__secant--forward")).to_have_count(1)
    label = lab.locator("svg.course-plot").get_attribute("aria-label")
    assert "x₀ − h = 2, where f(2) = 9; x₀ + h = 4, where it is 37." in label, label
    expect(lab.locator(".course-plot__legend")).to_contain_text("central secant, x₀ − h to x₀ + h")


# "Run 20 steps" is 20 calls to the lab's interpreter, each drawn as it comes: a
# second on an idle machine, more on a busy two-core runner than expect's 5 s default
RUN = 20_000


def _walk(lab, rate, steps_button):
    lab.field("Learning rate").select_option(rate)
    lab.button(steps_button).click()


def _one_step_then_twenty(lab, rate, *steps):
    """Step downhill at `rate` once, then more, the status saying each of `steps` in turn;
    then start again from x₀ and run 20 steps. Returns the status line."""
    status = lab.locator(".course-descent__status")
    _walk(lab, rate, "Step downhill")
    for i, said in enumerate(steps):
        if i:
            lab.button("Step downhill").click()
        expect(status).to_contain_text(said)
    lab.button("Start again from x₀").click()
    lab.button("Run 20 steps").click()
    return status


def test_descent_settles_at_the_minimum_at_rate_point_one(page, site):
    lab = _lab(page, site)
    status = _one_step_then_twenty(lab, "0.1", "Step 1: x = 1 − 0.1 × 2 = 0.8; there f(x) = 3.72 and the slope is 0.8.")
    rows = descent(1.0, 0.1, 20)
    expect(status).to_contain_text(f"Step 20: x = {_js_number(rows[19]['x'])} − 0.1 × ", timeout=RUN)
    expect(status).to_contain_text(f"= {_js_number(rows[20]['x'])}; there f(x) = 3.66667")
    assert _js_number(rows[20]["x"]) == "0.666667"  # the minimum, 2/3
    # a slope this close to 0 is a power of ten, not Python's 5.49756e-08
    assert re.search(r"the slope is [\d.]+ × 10⁻[⁷⁸⁹]\.$", status.text_content()), status.text_content()
    expect(lab.locator(".course-plot__walk-point")).to_have_count(21)


def test_descent_diverges_at_rate_point_four(page, site):
    lab = _lab(page, site)
    # the slope at 0.2 is negative: bracketed, x − rate × (−s)
    status = _one_step_then_twenty(lab, "0.4", "Step 1: x = 1 − 0.4 × 2 = 0.2;", "Step 2: x = 0.2 − 0.4 × (−2.8) = 1.32;")
    expect(status).to_contain_text("Diverging.", timeout=RUN)
    rows = descent(1.0, 0.4, 40)
    expect(status).to_contain_text(f"Step {len(rows) - 1}: x = ")
    expect(status).to_contain_text(f"= {_js_number(rows[-1]['x'])}. x has run away")
    # a further step does nothing: the walk stopped
    lab.button("Step downhill").click()
    expect(status).to_contain_text(f"Step {len(rows) - 1}: x = ")


def test_descent_crawls_at_rate_point_zero_one(page, site):
    lab = _lab(page, site)
    _walk(lab, "0.01", "Run 20 steps")
    expect(lab.locator(".course-descent__status")).to_contain_text(
        f"Step 20: x = {_js_number(descent(1.0, 0.01, 20)[19]['x'])} − 0.01 × ", timeout=RUN)
