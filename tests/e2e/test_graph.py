"""The graph labs' pictures: one edge per operand, no overlapping boxes, labels
readable on a phone (the graph scrolls sideways rather than shrinking)."""

import os

import pytest
from playwright.sync_api import expect

from labs.expression import expression_graph

from .helpers import SIZES, frames, transitions_done
from .pages import Level

BOXES_OVERLAP = """(svg) => {
  const r = [...svg.querySelectorAll('.course-lab__node rect')].map((n) => n.getBoundingClientRect());
  for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
    const a = r[i], b = r[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) return true;
  }
  return false;
}"""
SMALLEST_TEXT = "(svg) => Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width))"


def test_a_plus_a_draws_two_edges(page, site):
    graph = Level(page, site, "accumulate").open(python=False).lab("expression").locator("svg.course-lab__graph")
    expect(graph.locator("path.course-lab__edge")).to_have_count(2)
    d = graph.locator("path.course-lab__edge").evaluate_all("(ps) => ps.map((p) => p.getAttribute('d'))")
    assert d[0] != d[1]  # bent apart, both visible
    expect(graph.locator(".course-lab__node").nth(1)).to_contain_text("a + a")


def test_a_big_expression_has_no_overlapping_boxes(page, site):
    lab = Level(page, site, "alive").open().lab("expression")
    lab.draw("((a*b + c).tanh() * a + (b*c).exp() - a/c + (a + b + c)**2).tanh() * (a*a + b*b + c*c).relu()")
    graph = lab.locator("svg.course-lab__graph")
    expect(graph).to_have_attribute("aria-label", __import__("re").compile("relu"))
    assert graph.locator(".course-lab__node").count() >= 20
    assert graph.evaluate(BOXES_OVERLAP) is False


def test_on_a_phone_graph_labels_stay_readable_and_the_graph_scrolls(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    lab = Level(page, site, "alive").open(python=False).lab("expression")
    graph = lab.locator("svg.course-lab__graph")
    expect(graph.locator(".course-lab__node").first).to_be_visible()
    assert graph.evaluate(SMALLEST_TEXT) >= 11
    scroller = lab.locator(".course-lab__scroll")
    assert scroller.evaluate("(s) => s.scrollWidth > s.clientWidth")  # wider than the phone: it scrolls
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")  # the page itself does not
    context.close()


def test_the_expression_field_is_wide_enough_for_an_expression(browser, site):
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 844})
        field = Level(context.new_page(), site, "alive").open(python=False).lab("expression").field("Expression")
        expect(field).to_be_visible()
        assert field.bounding_box()["width"] >= min(0.55 * width, 300), width  # was 80 px
        context.close()


def test_step_backward_visits_one_node_at_a_time_in_reverse_topological_order(page, site):
    level = Level(page, site, "alive").open(python=False)
    lab = level.lab("expression")
    step = lab.button("Step backward")
    expect(step).to_be_disabled()  # predict first: the questions below come before the gradients
    predict = expression_graph("(a*b + b**2) * c.tanh()", {"a": 2, "b": -4, "c": 0.5})["predict"]
    drawn = lab.locator(".course-lab__node").first
    drawn.evaluate("(node) => { node.dataset.drawnBefore = 'yes'; }")
    expect(level.question("alive-predict-a").answer(f"{predict['a']['answer']:.4f}")).to_contain_text("Right")
    expect(step).to_be_disabled()  # one prediction to go
    # an answer that leaves the gradients kept back leaves the graph as it was drawn (a
    # redraw lays it out again, in the task that shows the verdict)
    expect(lab.locator(".course-lab__node[data-drawn-before]")).to_have_count(1)
    expect(level.question("alive-c-grad").answer(f"{predict['c']['answer']:.4f}")).to_contain_text("Right")
    expect(step).to_be_enabled()
    status = lab.status
    step.click()
    expect(status).to_contain_text("Backward starts at the output")
    visited = []
    while "Done" not in status.inner_text():
        step.click()
        active = lab.locator(".course-lab__node.is-active")
        expect(active).to_have_count(1)
        visited.append(int(active.get_attribute("data-node")))
    # nodes come in topological order (each after its inputs): backward visits them in reverse
    assert visited == sorted(visited, reverse=True) and len(visited) >= 4
    expect(status).to_contain_text("every node has its gradient")
    lab.button("Show every gradient").click()
    expect(status).to_contain_text("= 3.697")


# -- graphs fit (issue 25, item 2) ------------------------------------------------
GRAPH_PAGES = ("chain-rule", "autograd", "alive")
FITS = """(scroller) => {
  const svg = scroller.querySelector('svg.course-lab__graph');
  const cue = scroller.nextElementSibling;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return {
    fits: scroller.scrollWidth <= scroller.clientWidth + 1,
    cue: !!cue && cue.matches('.course-lab__scroll-cue') && !cue.hidden && cue.getBoundingClientRect().height > 0,
    text: Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
  };
}"""
IN_VIEW = """(node) => { const s = node.closest('.course-lab__scroll').getBoundingClientRect();
  const r = node.getBoundingClientRect(); return r.left >= s.left - 1 && r.right <= s.right + 1; }"""


def shot(page, name):
    """A screenshot to look at, when SCREENSHOTS_DIR is set (never committed)."""
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png")


SCHEMES = {"light": "default", "dark": "slate"}  # Material's scheme for each palette


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_graph_fits_its_box_or_says_that_it_scrolls(browser, site, size):
    context = browser.new_context(viewport=SIZES[size], service_workers="block")
    page = context.new_page()
    for name in GRAPH_PAGES:
        Level(page, site, name).open_unlocked()
        scrollers = page.locator(".course-lab__scroll")
        expect(scrollers.first).to_be_visible()
        for scheme, material in SCHEMES.items():  # both palettes on one visit, as a learner's toggle does
            page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", material)
            transitions_done(page)
            frames(page, 2)  # a redraw after the box's first width (its ResizeObserver runs before a frame's paint)
            for i in range(scrollers.count()):
                if not scrollers.nth(i).is_visible():
                    continue  # in a locked section: drawn when it opens
                got = scrollers.nth(i).evaluate(FITS)
                assert got["text"] >= 11, (name, size, scheme, got)
                assert got["fits"] or got["cue"], (name, size, scheme, got)
                if size == "desktop" and name != "alive":
                    assert got["fits"], (name, got)  # the course's own graphs fit at 1280 px (was 736 px in 646)
            scrollers.first.scroll_into_view_if_needed()
            shot(page, f"graph-{name}-{size}-{scheme}")
    context.close()


def test_on_a_phone_the_node_being_computed_stays_in_view(browser, site):
    context = browser.new_context(viewport=SIZES["phone"], service_workers="block")
    page = context.new_page()
    lab = Level(page, site, "autograd").open(python=False).lab("level-graph")  # the level's first graph, L = (a·b + c)·k
    main = lab.locator(".course-lab__main")
    expect(main).to_be_visible()
    assert lab.locator(".course-lab__scroll").evaluate(FITS)["cue"]  # wider than a phone: it says so
    for _ in range(3):  # the forward pass, one node at a time (e, f, L): out to L on the far right
        main.click()
        active = lab.locator(".course-lab__node.is-active")
        expect(active).to_have_count(1)
        assert active.evaluate(IN_VIEW), active.get_attribute("data-node")
    lab.locator(".course-lab__scroll").scroll_into_view_if_needed()
    shot(page, "graph-autograd-phone-stepping")
    context.close()
