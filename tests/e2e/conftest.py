"""End-to-end fixtures: the built site served locally, Debian's Chromium via Playwright."""

import contextlib
import time

import pytest
from playwright.sync_api import expect

from tools.chromium import launch_args
from tools.site_server import serve

# Python's state as the page shows it (runtime.js: data-python on the root element)
PYTHON_READY = "document.documentElement.dataset.python === 'ready'"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, browser_type):
    return launch_args(browser_type, **browser_type_launch_args)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """No service worker by default: each test starts from a clean slate
    (test_offline.py opts in)."""
    return {**browser_context_args, "service_workers": "block"}


def served(directory, **options):
    """Serve `directory` for as long as the fixture that calls this lives; yields its base URL."""
    server, port = serve(directory, **options)
    yield f"http://127.0.0.1:{port}"
    server.shutdown()


@pytest.fixture(scope="session")
def site(built_site):
    yield from served(built_site)


@pytest.fixture(scope="session")
def isolated_site(built_site):
    """The same build, sent with the COOP/COEP headers of a cross-origin isolated host."""
    yield from served(built_site, isolated=True)


def watch(page):
    """Set `page` up as every test's: a 20 s default wait, dialogs accepted, and the list
    that its JavaScript errors go to (returned)."""
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def one_test(page, errors):
    """Lend `page` to one test, then fail that test with any JavaScript error it met."""
    errors.clear()
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(page):
    yield from one_test(page, watch(page))


@contextlib.contextmanager
def own_page(browser, context_args):
    """A page (watched) in a context of its own, closed on leaving: (page, its errors)."""
    context = browser.new_context(**context_args)
    page = context.new_page()
    try:
        yield page, watch(page)
    finally:
        context.close()


@pytest.fixture(scope="module")
def _module_page(browser, browser_context_args):
    with own_page(browser, browser_context_args) as (page, errors):
        yield page, errors, page.viewport_size


@pytest.fixture
def shared_page(_module_page):
    """One page that the tests of a module take turns on, in file order: for tests whose
    every step starts anew (each Run and Check gets a fresh interpreter), so that one
    visit serves them all, and what one test's runs leave behind meets the next one's.
    A JavaScript error fails the test it happens in."""
    page, errors, size = _module_page
    page.set_viewport_size(size)  # as a page of its own starts, whatever the last test set
    yield from one_test(page, errors)


def wait_until(page, expression, timeout=60_000):
    """Poll with page.evaluate until `expression` (or the promise it gives) is truthy:
    page.wait_for_function compiles its expression with eval(), which the course's CSP
    (no 'unsafe-eval') refuses, and the tests run under the real CSP."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"async () => !!(await ({expression}))"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} ms waiting for {expression}")
        page.wait_for_timeout(50)  # between polls: what is waited on is `expression`


def wait_for_python(page, timeout=60_000):
    """Wait until Python is ready for a Run or a Check, as the page says (data-python);
    a failure names the state it stopped in ("loading", "failed")."""
    expect(page.locator("html")).to_have_attribute("data-python", "ready", timeout=timeout)
