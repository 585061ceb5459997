"""After one visit the whole course works with the network off, and a new build
replaces the old cache cleanly."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from site_plugins.offline import write_service_worker

from .conftest import wait_for_python
from .helpers import answer, check, exercise, replace_code
from .site_server import build_and_serve

ROOT = Path(__file__).resolve().parents[2]
SW_READY = "navigator.serviceWorker.controller !== null"


@pytest.fixture(scope="module")
def own_site(tmp_path_factory):
    directory = tmp_path_factory.mktemp("site-offline")
    server, url = build_and_serve(directory)
    yield directory, url
    server.shutdown()


def test_course_works_offline_after_one_visit(browser, own_site):
    _, url = own_site
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url + "/autograd/")
    wait_for_python(page)
    page.wait_for_function(SW_READY, timeout=120_000)
    context.set_offline(True)
    page.goto(url + "/accumulate/")  # never visited, Python loads from the cache
    wait_for_python(page)
    expect(answer(page, "diamond-grad", "2")).to_contain_text("Right")
    ex = exercise(page, "diamond")
    replace_code(page, ex, (ROOT / "exercises/diamond/solution.py").read_text())
    expect(check(ex)).to_contain_text("Passed")
    context.close()


def test_a_new_build_replaces_the_old_cache(browser, own_site):
    directory, url = own_site
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_function(SW_READY, timeout=120_000)
    first = page.evaluate("caches.keys()")
    assert len(first) == 1
    index = directory / "index.html"  # a new build: one page changes, so does sw.js
    index.write_text(index.read_text().replace("</article>", "<p>New in this build.</p></article>", 1))
    write_service_worker(directory, ROOT / "site_plugins/runtime/src/sw.js")
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function(f"caches.keys().then(k => k.length === 1 && k[0] !== {first[0]!r})", timeout=120_000)
    page.reload()
    expect(page.get_by_text("New in this build.")).to_be_visible()
    context.close()
