"""Site-wide promises: small screens, contrast on hover, a search that finds no answer,
and the Python worker surviving instant navigation (test_every_page.py: no request
leaves the site)."""


import pytest
from playwright.sync_api import expect

from tools.marks import restarts, runners

from .conftest import wait_until
from .helpers import SUB_ANSWER, contrast, transitions_done, wait_for_mark
from .pages import Exercise, Level

COUNT_WORKERS = """window.__workers = [];
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) { super(...args); window.__workers.push(String(args[0])); }
};"""


def course_workers(page):
    """The URLs of the workers the course started (COUNT_WORKERS), not the search's."""
    return [url for url in page.evaluate("window.__workers") if "/assets/course/" in url]


def test_python_started_before_any_editor_and_kept_across_pages(page, site):
    page.add_init_script(COUNT_WORKERS)
    Level(page, site, "autograd").open()
    # the <head> starts it (early.js) and the runtime adopts it, or the runtime starts it
    # itself if it gets there first: one worker either way, none left unadopted
    assert page.evaluate("window.__courseEarlyPython") is None
    # an editor is built once it can be seen: here, once the skip test opens
    expect(Exercise(page, "quiz-sub-backward").editor).to_have_count(1)
    assert page.evaluate("performance.getEntriesByName('course:python-start')[0].startTime") < page.evaluate(
        "performance.getEntriesByName('course:editor-ready')[0].startTime")
    page.locator("nav.md-nav--primary").get_by_role("link", name="Derivatives as nudges").first.click()
    expect(page.locator(".course-lab").first).to_be_visible()
    wait_for_mark(page, "course:interpreter-ready", role="lab")  # a lab in view boots its interpreter
    page.locator("nav.md-nav--primary").get_by_role("link", name="When gradients add up").first.click()
    expect(Exercise(page, "diamond").editor).to_have_count(1)
    # the <head>'s worker, the seed's keeper (python.js takeSeed), the second spare kept once
    # an exercise is near view (course.js) and the labs' one; navigating started none, and
    # no Check ran
    workers = course_workers(page)
    assert len(workers) == 4, workers
    # from one exercise page to another, the two spares booted for this one serve the next:
    # none is ended, and none booted again
    wait_until(page, f"{runners('ready')} >= 2")
    ended = page.evaluate(runners("ended"))
    page.locator("nav.md-nav--primary").get_by_role("link", name="More operations").first.click()
    expect(page.locator("h1")).to_contain_text("More operations")
    page.wait_for_timeout(1500)  # nothing must happen: a spare ended on arrival would be within this
    assert page.evaluate(runners("ended")) == ended
    assert course_workers(page) == workers


def test_worker_survives_instant_navigation(page, site):
    Level(page, site, "autograd").open()
    page.evaluate("window.__marker = 'kept'")
    page.locator("nav.md-nav--primary").get_by_role("link", name="Course map").first.click()
    expect(page.locator(".course-map")).to_be_visible()
    page.locator(".course-map").get_by_role("link", name="Build your own autograd", exact=True).click()
    expect(page.locator(".course-level")).to_be_visible()
    assert page.evaluate("window.__marker") == "kept", "instant navigation did a full reload"
    assert restarts(page) == []
    Exercise(page, "quiz-sub-backward").solve(*SUB_ANSWER)


@pytest.mark.parametrize("path", ["/", "/autograd/"])
def test_usable_at_375_pixels(browser, site, path):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(site + path)
    page.wait_for_load_state("networkidle")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 376, f"the page scrolls sideways at 375 px ({width} px wide)"
    if path == "/autograd/":
        Level(page, site, "autograd").python_ready().exercise("quiz-sub-backward").solve(*SUB_ANSWER)
    context.close()


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_hovered_buttons_keep_aa_contrast(page, site, scheme):
    """Material's hover turns a button accent-coloured: its text must stay readable."""
    Level(page, site, "nudges").open(python=False)
    page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    for name in ("Check answer", "Show answer"):
        button = page.get_by_role("button", name=name).first
        button.hover()
        transitions_done(page)  # Material's colour transition
        colours = button.evaluate("""b => { const s = getComputedStyle(b);
            return [s.color, s.backgroundColor].map(c => c.match(/[\\d.]+/g).slice(0, 3)); }""")
        assert contrast(*colours) >= 4.5, (scheme, name, colours)


def search(page, query):
    """Type `query` into the site's search, as a learner does; the results' texts."""
    field = page.locator("input.md-search__input")
    field.click()
    field.fill("")
    field.press_sequentially(query, delay=20)
    meta = page.locator(".md-search-result__meta")
    expect(meta).not_to_have_text("Type to start searching")
    expect(meta).not_to_have_text("Initializing search")
    # No state to wait on: Material's result list names no query, so the last keystroke's
    # results can't be told from an earlier one's: give the last keystroke time to be answered.
    page.wait_for_timeout(500)
    return page.locator(".md-search-result__item").all_inner_texts()


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_a_search_finds_no_locked_answer_or_starter_code(browser, site, size):
    """The issue's searches, in a fresh profile: the Train recap's update rule and its
    parameter count, and the engine code of the starters."""
    context = browser.new_context(viewport=size, service_workers="block")
    page = context.new_page()
    page.goto(site + "/")
    # Material's search worker starts when the learner reaches for search (lazy-search.js)
    page.wait_for_load_state("networkidle")
    assert not [w.url for w in page.workers if "/workers/search" in w.url]
    with page.expect_worker(lambda w: "/workers/search" in w.url):
        if size["width"] < 960:
            page.locator("label.md-header__button[for='__search']").click()  # the phone's search button
        else:
            page.keyboard.press("/")  # Material's key for the search field
    assert search(page, "chain rule"), "the search works at all"
    for query, answer in (("lr * p.grad", "lr * p.grad"), ("105", "105"), ("reversed", "reversed(topo)"),
                          ("backward_pass", "backward_pass(self)")):
        found = search(page, query)
        assert not [text for text in found if answer in text], (query, found)
    context.close()
