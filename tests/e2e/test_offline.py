"""After one visit the whole course works with the network off, and a new build
replaces the old cache cleanly. The service worker serves a cached body only if it
is the build's (Cache Storage is writable by any script of the origin), and lets no
request of its pages or workers leave the origin."""

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from course_build.headers import site_header
from course_build.offline import write_service_worker
from grader import catalog
from tools.site_server import serve

from .conftest import wait_for_python, wait_until
from .helpers import SW_READY, controlled_page, other_origin
from .pages import Level

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def own_site(tmp_path_factory, built_site):
    """A copy of the build, which a test here changes as a new build would."""
    directory = tmp_path_factory.mktemp("site-offline") / "site"
    shutil.copytree(built_site, directory)
    server, port = serve(directory)
    yield directory, f"http://127.0.0.1:{port}"
    server.shutdown()


def test_course_works_offline_after_one_visit(browser, own_site):
    _, url = own_site
    context, page = controlled_page(browser, url + "/autograd/")
    context.set_offline(True)
    level = Level(page, url, "accumulate").open()  # never visited, Python loads from the cache
    expect(level.question("diamond-grad").answer("2")).to_contain_text("Right")
    expect(level.exercise("diamond").replace_code(catalog.load("diamond").solution).check()).to_contain_text("Passed")
    # the standard library, which a snapshot boot fetches only for a module it lacks
    code = "import statistics\nprint('median', statistics.median([30, 10, 20]))\n"
    expect(level.exercise("diamond").replace_code(code).run()).to_contain_text("median 20")
    context.close()


def test_a_new_build_replaces_the_old_cache(browser, own_site):
    """A new build's worker deletes every cache of the course but its own, once active."""
    directory, url = own_site
    context, page = controlled_page(browser, url + "/", python=False)
    first = page.evaluate("caches.keys()")
    assert len(first) == 1
    page.evaluate("caches.open('byoa-python-snapshot')")  # what builds before the build-time snapshot left
    index = directory / "index.html"  # a new build: one page changes, so does sw.js
    index.write_text(index.read_text().replace("</article>", "<p>New in this build.</p></article>", 1))
    write_service_worker(directory, ROOT / "course_browser/sw.js", site_header(directory, "Content-Security-Policy"))
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    wait_until(page, f"caches.keys().then(k => k.length === 1 && k[0] !== {first[0]!r})", timeout=120_000)
    page.reload()
    expect(page.get_by_text("New in this build.")).to_be_visible()
    context.close()


# The wasm's address, from the runtime's settings in the page (launch.js readConfig)
WASM_URL = """(() => { const c = JSON.parse(document.querySelector('meta[name="course-runtime"]').content);
    return new URL(c.pyodide, new URL(c.base, location.href)).href.replace(/pyodide\\.mjs$/, 'pyodide.asm.wasm'); })()"""
POISON = """async ([path, body]) => {
    const [name] = (await caches.keys()).filter((n) => n.startsWith('byoa-') && n !== 'byoa-python-snapshot');
    const cache = await caches.open(name);
    const url = new URL(path, location.origin + '/').href;
    await cache.put(url, new Response(body, {headers: {'Content-Type': path.endsWith('.js') ? 'text/javascript' : 'text/html'}}));
    return (await (await cache.match(url)).text()) === body;
}"""


def course_script(page):
    return page.evaluate("""() => [...document.scripts].map((s) => s.src).find((src) => /assets\\/course\\/course\\./.test(src))
        .replace(location.origin + '/', '')""")


def test_a_poisoned_cache_entry_is_never_served(browser, own_site):
    _, url = own_site
    context, page = controlled_page(browser, url + "/autograd/")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    script = course_script(page)
    assert page.evaluate(POISON, [script, "alert(1)"])
    assert page.evaluate(POISON, ["accumulate/", "<script>alert(2)</script>"])
    page.reload()  # the course script comes from the cache: its hash is checked, the bad copy replaced
    wait_for_python(page)
    assert page.evaluate("fetch(arguments[0]).then(r => r.text())".replace("arguments[0]", repr("/" + script))) != "alert(1)"
    context.set_offline(True)
    with pytest.raises(PlaywrightError):  # offline: the poisoned page is refused (fails closed), not served
        page.goto(url + "/accumulate/")
    page.close()
    page = context.new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    Level(page, url, "autograd").open()  # the repaired script works offline
    ms, direct, digest = page.evaluate("""async (path) => {
        let started = performance.now();
        for (let i = 0; i < 5; i++) await (await fetch(path)).arrayBuffer();
        const served = (performance.now() - started) / 5;
        const cache = await caches.open((await caches.keys()).find((n) => n !== 'byoa-python-snapshot'));
        started = performance.now();
        let body;
        for (let i = 0; i < 5; i++) body = await (await cache.match(path)).arrayBuffer();
        const direct = (performance.now() - started) / 5;
        started = performance.now();
        for (let i = 0; i < 5; i++) await crypto.subtle.digest('SHA-256', body);
        return [served, direct, (performance.now() - started) / 5];
    }""", page.evaluate(WASM_URL))
    print(f"\nthe 9.6 MB wasm through the service worker (cache read + SHA-256 check): {ms:.0f} ms a serve; "
          f"the same cache read without the worker: {direct:.0f} ms; SHA-256 alone: {digest:.0f} ms")
    assert dialogs == []
    context.close()


def test_no_request_leaves_the_origin(browser, own_site, tmp_path):
    _, url = own_site
    server, origin, hits = other_origin(tmp_path)
    other = f"{origin}/leak?secret=1"
    # no CSP here (bypassed), so only the service worker stands between the page and the other origin
    context = browser.new_context(service_workers="allow", bypass_csp=True)
    page = context.new_page()
    page.goto(url + "/")
    wait_until(page, SW_READY, timeout=120_000)
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    outcome = page.evaluate("(u) => fetch(u, {mode: 'no-cors'}).then(() => 'sent', () => 'refused')", other)
    assert outcome == "refused"
    assert hits == []
    context.close()
    server.shutdown()
