"""End-to-end fixtures: the built site served locally, Debian's Chromium via Playwright."""

import time

import pytest

from tools.site_server import serve

CHROMIUM = "/usr/bin/chromium"
PYTHON_READY = "window.__coursePython && window.__coursePython.state === 'ready'"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--disable-background-networking", "--disable-component-update", "--no-first-run"]}


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


@pytest.fixture
def page(page):
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def wait_until(page, expression, timeout=60_000):
    """Poll with page.evaluate until `expression` (or the promise it gives) is truthy:
    page.wait_for_function compiles its expression with eval(), which the course's CSP
    (no 'unsafe-eval') refuses, and the tests run under the real CSP."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"async () => !!(await ({expression}))"):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} ms waiting for {expression}")
        page.wait_for_timeout(50)


def wait_for_python(page):
    try:
        wait_until(page, PYTHON_READY)
    except TimeoutError:
        state = page.evaluate("window.__coursePython ? [window.__coursePython.state, window.__coursePython.progress] : null")
        raise AssertionError(f"Python did not become ready: {state}") from None
