"""Warm boots from Pyodide's memory snapshot, and the normal boot as the fallback."""

from playwright.sync_api import expect

from .conftest import wait_for_python
from .helpers import SUB_ANSWER, check, exercise, fill_blanks

LEVEL = "/autograd/"


def boot_mode(page):
    return page.evaluate("window.__coursePython.bootMode")


def passes(page, fill=True):
    ex = exercise(page, "quiz-sub-backward")
    if fill:
        fill_blanks(page, ex, *SUB_ANSWER)
    expect(check(ex)).to_contain_text("Passed")


def test_second_visit_boots_from_the_snapshot(page, site):
    page.goto(site + LEVEL)
    wait_for_python(page)
    assert boot_mode(page) == "normal"
    page.wait_for_function("window.__coursePython.snapshotBytes > 0", timeout=30_000)
    passes(page)
    page.reload()
    wait_for_python(page)
    assert boot_mode(page) == "snapshot"
    passes(page, fill=False)  # the code was kept; it is graded by the restored Python


def test_a_broken_snapshot_falls_back_to_the_normal_boot(page, site):
    page.goto(site + LEVEL)
    wait_for_python(page)
    page.wait_for_function("window.__coursePython.snapshotBytes > 0", timeout=30_000)
    passes(page)
    page.evaluate("""async () => {
        const cache = await caches.open('byoa-python-snapshot');
        for (const key of await cache.keys()) await cache.put(key, new Response(new Uint8Array(1000)));
    }""")
    page.reload()
    wait_for_python(page)
    assert boot_mode(page) == "fallback"
    passes(page, fill=False)
    assert page.evaluate("caches.open('byoa-python-snapshot').then(c => c.keys()).then(k => k.length)") == 0
