"""Every page as a learner first finds it, once it has settled (Python up, the editors
CodeMirror's, every lab drawn), read for three promises on one visit of each page:

- no serious or critical accessibility violation (axe), in both palettes: the light
  one, and the dark one a learner picks or their system asks for;
- on a level, no number question's answer on screen above it: predict, then see (with
  the scripts off, or before they run: test_predict_first.py);
- no request off the site's origin, and no breach of the Content-Security-Policy that
  the host's `_headers` set, from the page or from its Python, on the visit and on a
  Check (test_hardening.py reads the policy of a host that ignores `_headers`).

And, on a visit of its own at a phone's width, no line of a level's code and no drawing in
text wraps.
"""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import one_test, own_page, wait_for_python, wait_until
from .helpers import (
    CSP_VIOLATIONS,
    all_pages,
    answers_above,
    check,
    off_site_requests,
    open_skip_test,
    transitions_done,
    worker_policy_warnings,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PATHS = sorted("/" if md.stem == "index" else f"/{md.stem}/" for md in DOCS.glob("*.md"))
LEVELS = [path for path in PATHS if path not in ("/", "/instructors/")]
PAGES = [*PATHS, "/404.html"]  # every page the build writes
SCHEMES = ("default", "slate")


@pytest.fixture(scope="module")
def _settled(request, browser, browser_context_args, site):
    """The page at `request.param` once it has settled, in a context of its own; pytest
    runs the tests of one path together, so each path is visited once."""
    with own_page(browser, browser_context_args) as (page, errors):
        page.off_site = off_site_requests(page, site)
        page.worker_violations = worker_policy_warnings(page)
        page.add_init_script(CSP_VIOLATIONS)
        page.goto(site + request.param)
        page.wait_for_load_state("networkidle")
        if page.locator(".course-exercise, .course-lab").count():
            wait_for_python(page)
        if page.locator(".course-exercise").count():
            wait_until(page, "document.querySelectorAll('.course-exercise .cm-content').length > 0")
        expect(page.locator(".course-lab:not([data-mounted])")).to_have_count(0, timeout=60_000)
        yield page, errors


@pytest.fixture
def settled(_settled):
    """The settled page of this test's path; a JavaScript error fails the test it happens in."""
    yield from one_test(*_settled)


@pytest.fixture(scope="module")
def axe():
    return Axe()


def test_every_page_of_the_nav_is_checked(page, site):
    nav = {url.removeprefix(site) for url in all_pages(page, site)}
    assert nav <= set(PATHS), nav - set(PATHS)


@pytest.mark.parametrize("_settled", PATHS, indirect=True)
def test_no_serious_accessibility_violations(settled, axe):
    problems = []
    for scheme in SCHEMES:
        settled.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
        transitions_done(settled)  # the palette's colours, not halfway to them
        for violation in axe.run(settled).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in violation["nodes"]][:3]
                problems.append(f"{scheme}: {violation['id']} ({violation['impact']}): {targets}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("_settled", LEVELS, indirect=True)
def test_no_answer_is_on_screen_above_its_question(settled):
    # Nothing must happen: no answer may show up above its question once the labs have
    # their worker's numbers, and a lab says nothing when those replace the ones it was
    # built with. Waiting lets more numbers onto the screen, never fewer.
    settled.wait_for_timeout(1500)
    assert answers_above(settled) == []


@pytest.mark.parametrize("_settled", PAGES, indirect=True)
def test_the_page_keeps_to_its_site_and_its_policy(settled):
    # last of its path's tests: a Check changes the page (a level's first open exercise;
    # the skip test's are open on a first visit, the level's locked)
    open_skip_test(settled)
    exercises = settled.locator(".course-exercise:visible")
    if exercises.count():
        expect(check(exercises.first, timeout=60_000)).not_to_contain_text("Python could not start")
    settled.wait_for_timeout(300)  # a violation is reported in a task of its own
    assert settled.off_site == [], f"requests off the site's origin: {settled.off_site}"
    assert settled.evaluate("window.__cspViolations") == []
    assert settled.worker_violations == []


# How much taller each code block is than its lines: the course's code blocks wrap
# (white-space: pre-wrap, each wrapped row under its line's first character) rather than
# scroll sideways, so a line of a level's code too long for the screen reads as two
# lines of Python, the second at the wrong indent; a drawing in text falls apart.
WRAPPED_LINES = """(selector) => {
  for (const locked of document.querySelectorAll('article [hidden]')) locked.hidden = false;
  return [...document.querySelectorAll(selector)].filter((code) => !code.closest('.course-exercise'))
    .map((code) => {
      const wrapped = code.getBoundingClientRect().height;
      code.style.whiteSpace = 'pre';
      const unwrapped = code.getBoundingClientRect().height;
      code.style.whiteSpace = '';
      return { extra: wrapped - unwrapped, longest: code.textContent.split('\\n').reduce((a, b) => (b.length > a.length ? b : a)) };
    }).filter(({ extra }) => extra > 1);
}"""


def test_no_line_of_a_levels_code_wraps_on_a_phone(browser, site):
    """Every level's code blocks, locked sections included, and every page's drawings in
    text, at 390 px. Python is left out (its files are refused): the blocks are the
    page's own HTML. (The instructors' command lines and TOML may wrap.)"""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.route("**/assets/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    wrapped = {}
    for path in PATHS:
        page.goto(site + path)
        page.wait_for_load_state("load")
        code = "article pre > code" if path in LEVELS else "article .language-text pre > code"
        found = page.evaluate(WRAPPED_LINES, code)
        if found:
            wrapped[path] = [block["longest"] for block in found]
    context.close()
    assert not wrapped, wrapped
