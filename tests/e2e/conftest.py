"""End-to-end fixtures: the built site served locally, Debian's Chromium via Playwright."""

import time

import pytest

from .site_server import build_and_serve

CHROMIUM = "/usr/bin/chromium"
PYTHON_READY = "window.__coursePython && window.__coursePython.state === 'ready'"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--disable-background-networking", "--disable-component-update", "--no-first-run"]}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """No service worker by default: each test starts from a clean slate
    (test_offline.py opts in)."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    server, url = build_and_serve(tmp_path_factory.mktemp("site"))
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def isolated_site(tmp_path_factory):
    server, url = build_and_serve(tmp_path_factory.mktemp("site-coi"), isolated=True)
    yield url
    server.shutdown()


@pytest.fixture
def page(page):
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def wait_until(page, expression, timeout=60_000):
    """Poll with page.evaluate: page.wait_for_function compiles its expression with
    eval(), which the course's CSP (no 'unsafe-eval') refuses, and the tests run
    under the real CSP."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"!!({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} ms waiting for {expression}")
        page.wait_for_timeout(50)


def wait_for_python(page):
    try:
        wait_until(page, PYTHON_READY)
    except TimeoutError:
        state = page.evaluate("window.__coursePython ? [window.__coursePython.state, window.__coursePython.progress] : null")
        raise AssertionError(f"Python did not become ready: {state}") from None
