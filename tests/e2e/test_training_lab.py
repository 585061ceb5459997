"""The training lab's pictures, at desktop and phone sizes: nothing drawn (no empty
box) before Train; after it, the loss chart (uPlot, lazily loaded) with both axes
labelled, the decision boundary with axis labels, ticks and a legend, and the
network; readable in both palettes, under the site's CSP."""

import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import wait_until
from .helpers import SIZES, contrast, transitions_done
from .pages import Level
from .saved import progress, solved

# Any Content-Security-Policy violation on the page (uPlot's styles and chunk included).
CSP_WATCH = """window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"""
LOSS = ".course-lab[data-lab='training'] .course-training__loss"
# The colour uPlot draws the loss curve with (read from the palette's CSS when the chart is made).
CURVE_COLOUR = f"(() => {{ const c = document.querySelector(\"{LOSS}\").courseChart.uplot; return c.series[1].stroke(c, 1); }})()"


# The lab sits in section 3, which opens once the training step (sgd-step) is solved.
SECTION_3_OPEN = progress({"train": solved("sgd-step")})


def open_trainer(page, site):
    """The training lab, with its section open and Python ready."""
    return Level(page, site, "train").open(SECTION_3_OPEN).lab("training")


def train(lab):
    lab.button(re.compile("^Train")).click()
    expect(lab.status.first).to_contain_text(
        re.compile(r"Trained with learning rate 0.05: loss .* in 120 steps"), timeout=120_000)
    expect(lab.status.last).to_contain_text("class +1")


@pytest.mark.parametrize("size", SIZES)
def test_pictures_appear_after_training_with_axes_and_legends(page, site, size):
    page.set_viewport_size(SIZES[size])
    page.add_init_script(CSP_WATCH)
    uplot_requests = []
    page.on("request", lambda r: "uPlot" in r.url and uplot_requests.append(r.url))
    lab = open_trainer(page, site)
    lab.root.scroll_into_view_if_needed()
    # before training: no empty boxes, and uPlot not loaded
    for picture in (".course-training__loss", ".course-training__pictures", ".course-training__boundary",
                    ".course-training__network"):
        expect(lab.locator(picture)).to_be_hidden()
    assert uplot_requests == [], "uPlot loaded before any chart was needed"

    train(lab)
    loss = lab.locator(".course-training__loss")
    expect(loss).to_be_visible()
    expect(loss).to_have_attribute("role", "img")
    expect(loss).to_have_attribute("aria-label", re.compile(r"^Loss curve: 120 steps, from 1\.134 to 0\.01"))
    expect(loss.locator(".uplot canvas")).to_have_count(1)
    expect(loss.locator(".course-lossplot__x")).to_have_text("step")
    expect(loss.locator(".course-lossplot__y")).to_have_text("loss (log scale)")
    expect(loss.locator(".u-legend")).to_have_count(0)  # one curve: no legend
    assert len(uplot_requests) == 1 and "/assets/course/chunks/" in uplot_requests[0], uplot_requests
    chart = loss.locator(".uplot").bounding_box()
    assert chart["width"] <= SIZES[size]["width"] - 30 and chart["height"] >= 150, chart
    assert page.evaluate(f"document.querySelector(\"{LOSS}\").courseChart.uplot.scales.y.distr") == 3  # log scale

    boundary = lab.locator("svg.course-training__boundary")
    expect(boundary).to_be_visible()
    axes = boundary.locator(".course-plot__axes text")
    for text in ("x₁", "x₂", "−3", "0", "3", "−2", "2"):
        expect(axes.filter(has_text=re.compile(f"^{text}$"))).to_have_count(1 if text in ("x₁", "x₂", "−3", "3") else 2)
    legend = lab.locator(".course-training__legend li")
    expect(legend).to_have_count(4)
    for text in ("class +1", "class −1", "shading: the sign of the network's output", "the test point"):
        expect(legend.filter(has_text=text)).to_be_visible()
    expect(lab.locator("svg.course-training__network")).to_be_visible()

    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"the page scrolls sideways ({width} px wide)"
    page.mouse.move(0, 0)  # off the Train button: its hover colour is the theme's, not this lab's
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:4], v["nodes"][0]["any"][0]["message"]) for v in Axe().run(page, context=".course-lab[data-lab='training']").response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == [], serious
    assert page.evaluate("window.__cspViolations") == []


def signs_stand_out(lab):
    """The network's blue and red weights, as drawn (their stroke-opacity laid over the
    page), keep WCAG's 3:1 for graphics against the page's background."""
    drawn = lab.locator("svg.course-training__network").evaluate("""svg => {
        const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const line = (cls) => getComputedStyle(svg.querySelector(`line.${cls}`));
        return {signs: ["pos", "neg"].map((s) => [rgb(line(`course-stroke--${s}`).stroke),
                                                  Number(line(`course-stroke--${s}`).strokeOpacity)]),
                background: rgb(getComputedStyle(document.body).backgroundColor)};
    }""")
    background = drawn["background"]
    for colour, opacity in drawn["signs"]:
        seen = [opacity * c + (1 - opacity) * b for c, b in zip(colour, background)]
        assert contrast(seen, background) >= 3, (colour, opacity, background)


def test_the_chart_takes_the_palettes_colours_and_the_test_point_stays_on_the_axes(page, site):
    lab = open_trainer(page, site)
    train(lab)
    assert page.evaluate(CURVE_COLOUR) == "#1f4fd1"
    signs_stand_out(lab)
    page.locator("label[title='Switch to dark mode']").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    wait_until(page, f"{CURVE_COLOUR} === '#8ab4f8'", timeout=5_000)
    transitions_done(page)
    signs_stand_out(lab)
    expect(lab.locator(".course-training__loss .uplot")).to_have_count(1)  # redrawn, not doubled
    # the learning-rate drop-down takes the palette too (the browser's light grey box did not)
    colours = lab.field("Learning rate").evaluate(
        "s => [getComputedStyle(s).backgroundColor, getComputedStyle(document.body).backgroundColor]")
    assert colours[0] == colours[1], colours
    # the arrow keys move the test point, and it stays within the plotted square
    boundary = lab.locator("svg.course-training__boundary")
    boundary.focus()
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    expect(lab.status.last).to_contain_text("The test point (3, 0.5)")


@pytest.mark.parametrize("size", SIZES)
def test_a_new_run_shows_itself_and_keeps_the_earlier_curves(page, site, size):
    page.set_viewport_size(SIZES[size])
    lab = open_trainer(page, site)
    lab.root.scroll_into_view_if_needed()
    train(lab)
    pictures = lab.locator(".course-training__pictures")
    expect(pictures).to_be_visible()
    lab.field("Learning rate").select_option("0.2")
    lab.button(re.compile("^Train again")).click()
    # while the new run trains, the last run's model is put away and the status names the run
    expect(pictures).to_be_hidden()
    expect(lab.status.first).to_contain_text(re.compile(r"^Run 2, learning rate 0\.2: step \d+ of 120"))
    expect(lab.status.first).to_contain_text(
        re.compile(r"Trained with learning rate 0\.2: loss .* in 120 steps\. The earlier run is dashed on the chart\."),
        timeout=120_000)
    expect(pictures).to_be_visible(timeout=30_000)
    loss = lab.locator(".course-training__loss")
    expect(loss).to_have_attribute("aria-label", re.compile(
        # both runs start from the same weights, so from the same loss
        r"^Loss curve: 120 steps, from ([0-9.]+) to [0-9.]+; run 1: learning rate 0\.05: from \1 to [0-9.]+\.$"))
    legend = loss.locator(".u-legend .u-series")
    expect(legend).to_have_count(2)
    expect(legend.nth(0)).to_have_text("run 2: learning rate 0.2")
    expect(legend.nth(1)).to_have_text("run 1: learning rate 0.05")
    assert page.evaluate(f"document.querySelector(\"{LOSS}\").courseChart.uplot.series[2].dash") == [7, 5]
    loss.scroll_into_view_if_needed()
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "screenshots" / f"training-two-runs-{size}.png"))
    # the learning rate is a setting the page keeps
    page.reload()
    expect(lab.field("Learning rate")).to_have_value("0.2")
