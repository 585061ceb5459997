"""Python boots from the build's memory snapshot, and boots normally when it can't.

The build makes the snapshot in Node (course_build/snapshot.py) and writes its
SHA-256 into every page; the worker restores only bytes with that hash. Each way
the snapshot can be unusable is tried here (missing, altered, refused by Pyodide as
from another build) and must end in a normal boot that grades as usual."""

import gzip
import hashlib
import html
import json
import re

import pytest
from playwright.sync_api import expect

from tools.marks import SPARE_BOOTED, runners

from .conftest import served
from .helpers import LEVEL, SUB_ANSWER, python_boot
from .pages import Level

META = re.compile(r'(<meta name="course-runtime" content=")([^"]*)(")')
# What a snapshot boot must have, as a normal boot has: every runner file on disk (for
# tracebacks and later imports), the course first on sys.path, no state shared with the build.
PROBE = """
import importlib, inspect, json, os, random, sys
import runner.execute
root = "/home/pyodide/course"
modules = sorted(f"runner.{f[:-3]}" for f in os.listdir(f"{root}/runner")
                 if f.endswith(".py") and f != "__init__.py")
for name in modules:
    importlib.import_module(name)
print(json.dumps({"source": "def collect" in inspect.getsource(runner.execute), "path": sys.path[:2],
                  "modules": len(modules), "random": random.random(), "executable": sys.executable}))
"""


def boot_mode(page):
    return python_boot(page)["mode"]


def boots_normally_and_grades(page, site, why):
    """The level boots Python without the snapshot, for the reason `why` the worker gave
    (missing, hash, load), and a right answer still passes."""
    level = Level(page, site, "autograd").open()
    assert boot_mode(page) == "fallback"
    assert python_boot(page)["rejected"] == why
    passes(level)


def passes(level):
    expect(level.exercise("quiz-sub-backward").fill_blanks(*SUB_ANSWER).check()).to_contain_text("Passed")


def probe(level):
    """What PROBE finds, run as a learner runs code: pasted into an exercise, then Run."""
    ex = level.exercise("quiz-topo-order").replace_code(PROBE)  # passes() fills quiz-sub-backward
    expect(ex.run()).to_have_attribute("data-state", "ran")
    return json.loads(ex.result.locator(".course-result__output pre").inner_text())


def snapshot_config(page, site):
    """What the pages say of the snapshot, read from the home page's HTML (not loaded)."""
    meta = META.search(page.request.get(site + "/").text())[2]
    return json.loads(html.unescape(meta))["snapshot"]


def snapshot_url(site, config):
    return f"{site}/assets/course/{config['file']}"


def serve_instead(page, site, config, data):
    """Serve `data` as the snapshot file, and pages whose config carries its hashes."""
    body = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    forged = {**config, "sha256": hashlib.sha256(data).hexdigest(), "bodySha256": hashlib.sha256(body).hexdigest()}

    def page_html(route):
        response = route.fetch()
        text = META.sub(lambda m: m[1] + html.escape(json.dumps({**json.loads(html.unescape(m[2])),
                                                               "snapshot": forged}), quote=True) + m[3],
                        response.text())
        route.fulfill(response=response, body=text)

    page.route(f"{site}{LEVEL}", page_html)
    page.route(snapshot_url(site, config), lambda route: route.fulfill(body=data))


def shipped(page, site):
    config = snapshot_config(page, site)
    return config, page.request.get(snapshot_url(site, config)).body()


@pytest.fixture
def first_visit(shared_page, site):
    """The level on a first visit of this host, for the tests below that read one: what
    PROBE found in the visit's first Run (`level.found`), then a Check passed; every
    request of the visit is in `level.requested`."""
    level = Level(shared_page, site, "autograd")
    if not level.is_open:
        level.requested = []
        shared_page.on("request", lambda request: level.requested.append(request.url))
        level.open()
        level.found = probe(level)
        passes(level)
        shared_page.first_visit = level
    return shared_page.first_visit


def test_a_first_visit_boots_from_the_builds_snapshot(first_visit):
    page = first_visit.page
    assert boot_mode(page) == "snapshot"
    boot = python_boot(page)
    assert boot["rejected"] is None
    timings = boot["timings"]
    print(f"\nsnapshot boot: {timings}")
    # this host sends files as they are: the body was dropped at its headers, the gzip file inflated
    assert "snapshotFetchInflate" in timings
    found = first_visit.found
    assert found["source"] and found["modules"] >= 8
    assert found["path"] == ["/home/pyodide/course", ""]
    assert found["executable"] == "/home/pyodide/this.program"  # not the build's script
    # nothing of the snapshot is kept at run time: no Cache Storage, no hash in localStorage
    assert page.evaluate("caches.keys()") == []
    assert not [k for k in page.evaluate("Object.keys(localStorage)") if "snapshot" in k]


def test_the_standard_library_comes_only_for_a_module_the_snapshot_lacks(first_visit):
    """A snapshot boot installs an empty zip where the standard library's 2.5 MB go: the
    boot, a Run of the course's own modules and a Check read nothing of it. Learner code
    that imports a module the snapshot lacks still has it (course_browser/stdlib.mjs
    fetches the zip then)."""
    assert boot_mode(first_visit.page) == "snapshot"
    assert not [url for url in first_visit.requested if url.endswith("python_stdlib.zip")]
    exercise = first_visit.exercise("quiz-sub-backward")
    exercise.replace_code("import statistics\nprint('median', statistics.median([30, 10, 20]))\n")
    expect(exercise.run()).to_contain_text("median 20")
    assert [url for url in first_visit.requested if url.endswith("python_stdlib.zip")]


def test_a_visitor_who_saves_data_boots_without_the_snapshot(page, site):
    """The snapshot adds up to 1.0 MB to a first visit: a browser set to save data
    (Save-Data) boots Python normally and never fetches it."""
    page.add_init_script("Object.defineProperty(NetworkInformation.prototype, 'saveData', {get: () => true})")
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    level = Level(page, site, "autograd").open()
    assert boot_mode(page) == "normal"
    assert not [url for url in requested if ".snapshot" in url]
    passes(level)


def test_each_boot_draws_its_own_random_numbers(first_visit, browser, site):
    """The build's random state is not every visitor's: the first Run of two visits."""
    context = browser.new_context(service_workers="block")
    level = Level(context.new_page(), site, "autograd").open()
    assert boot_mode(level.page) == "snapshot"
    draw = probe(level)["random"]
    context.close()
    assert draw != first_visit.found["random"]


def test_boots_go_on_when_the_seeds_keeper_is_gone(page, site):
    """The seed's keeper (a worker of its own, python.js takeSeed) gone: a boot waits for
    its memory a few seconds at most, then restores the build's snapshot, tells the page
    to stop asking, and the Checks that need those interpreters pass."""
    level = Level(page, site, "autograd").open()
    page.wait_for_function(SPARE_BOOTED)
    page.evaluate("globalThis.__coursePython.seed.keeper.terminate()")
    booted = page.evaluate(runners("ready"))
    passes(level)  # a spare booted before; from here on, each Check takes the next one
    ex = level.exercise("quiz-sub-backward")
    for _ in range(2):
        expect(ex.check(timeout=60_000)).to_contain_text("Passed")
    assert page.evaluate(runners("ready")) >= booted + 1  # the third Check's interpreter booted after
    assert page.evaluate("globalThis.__coursePython.seed.keeper") is None


def test_a_missing_snapshot_falls_back_to_the_normal_boot(page, site):
    config = snapshot_config(page, site)
    page.route(snapshot_url(site, config), lambda route: route.fulfill(status=404, body="not here"))
    boots_normally_and_grades(page, site, "missing")


def test_an_altered_snapshot_is_never_restored(page, site):
    config, data = shipped(page, site)
    altered = bytearray(data)
    altered[len(altered) // 2] ^= 1
    page.route(snapshot_url(site, config), lambda route: route.fulfill(body=bytes(altered)))
    boots_normally_and_grades(page, site, "hash")  # the worker checked the hash before restoring anything


def test_a_snapshot_pyodide_refuses_falls_back_to_the_normal_boot(page, site):
    """As after a Pyodide upgrade without a new snapshot: bytes with the right hash
    (here, a forged page that vouches for them) whose Pyodide build id is another's."""
    config, data = shipped(page, site)
    body = bytearray(gzip.decompress(data))
    memory_starts = 4 + int.from_bytes(body[:4], "little")
    body[memory_starts + 20] ^= 0x55  # inside the build id (bytes 16-47 of Pyodide's header)
    serve_instead(page, site, config, gzip.compress(bytes(body)))
    boots_normally_and_grades(page, site, "load")


def test_a_host_that_decodes_the_gzip_on_the_way_still_gets_the_snapshot(page, site):
    """Some hosts send a .gz file with Content-Encoding: gzip; the browser then hands
    the worker the inflated body, which the build's second hash covers. (Served here as
    the worker then sees it: Playwright's fulfilled responses are never decoded.)"""
    config, data = shipped(page, site)
    page.route(snapshot_url(site, config), lambda route: route.fulfill(body=gzip.decompress(data)))
    level = Level(page, site, "autograd").open()
    assert boot_mode(page) == "snapshot"
    timings = python_boot(page)["timings"]
    assert "snapshotFetch" in timings and "snapshotFetchInflate" not in timings  # nothing inflated here
    passes(level)


def test_a_host_that_compresses_pages_but_not_the_body_still_gets_the_snapshot(page, precompressing_host):
    """A host that compressed the page is asked for the body first; one that sends the
    body as it is (here, Playwright's fulfilled response, never encoded) has it dropped at
    its headers, and the worker takes the gzip file."""
    url, _ = precompressing_host
    config = snapshot_config(page, url)
    body = gzip.decompress(page.request.get(snapshot_url(url, config)).body())
    asked = []

    def send_as_it_is(route):
        # the first request asks the HTTP cache only (a route ignores that): a miss fails
        asked.append(route.request.url)
        if len(asked) == 1:
            route.abort()
        else:
            route.fulfill(body=body)

    page.route(f"{url}/assets/course/{config['body']}", send_as_it_is)
    level = Level(page, url, "autograd").open()
    assert boot_mode(page) == "snapshot"
    assert "snapshotFetchInflate" in python_boot(page)["timings"]  # the gzip file
    assert len(asked) == 2  # the cache, then the host
    passes(level)


@pytest.fixture(scope="module")
def precompressing_host(built_site):
    """The build served as nginx's brotli_static or Caddy's `precompressed br gzip`
    serve it; yields (its URL, the bytes it sent per path)."""
    sent = {}
    for url in served(built_site, sent=sent, precompressed=True):
        yield url, sent


def test_a_host_that_serves_precompressed_copies_sends_the_snapshot_as_brotli(page, precompressing_host, built_site):
    """2.5 MB where the gzip file is 3.6 MB: the browser decodes the body, the worker
    checks the body's hash, and never asks for the gzip file."""
    url, sent = precompressing_host
    sent.clear()  # the host lives for the module: what earlier tests asked for is theirs
    level = Level(page, url, "autograd").open()
    assert boot_mode(page) == "snapshot"
    assert "snapshotFetch" in python_boot(page)["timings"]  # nothing inflated in the worker
    config = snapshot_config(page, url)
    brotli_copy = built_site / "assets/course" / f"{config['body']}.br"
    assert sent[f"/assets/course/{config['body']}"] == brotli_copy.stat().st_size
    assert not [path for path in sent if path.endswith(".snapshot.gz")]
    passes(level)


@pytest.fixture
def plain_host(built_site):
    """The build served with its files as they are; yields (its URL, every path asked for)."""
    requests = []
    for url in served(built_site, requests=requests):
        yield url, requests


@pytest.mark.parametrize("host", ["plain_host", "precompressing_host"])
def test_a_later_visit_takes_the_snapshot_from_the_http_cache(browser, request, host):
    """Whichever file the first visit took (the gzip file from a host that sends the body
    as it is, the body from one that compresses it), a later visit asks the host for
    no snapshot file: a dropped body is not in the cache, and asked for again it would
    cost a round trip, and what the host pushed before the drop, on every visit."""
    url, asked = request.getfixturevalue(host)
    asked.clear()  # the host lives for the module: what earlier tests asked for is theirs
    context = browser.new_context(service_workers="block")
    Level(context.new_page(), url, "autograd").open()
    asked_first = [path for path in asked if ".snapshot" in path]
    # a host that sent the page as it is is asked for the gzip file only, never the body
    assert [path.endswith(".gz") for path in asked_first] == [host == "plain_host"], asked_first
    asked.clear()
    page = context.new_page()
    Level(page, url, "autograd").open()
    assert boot_mode(page) == "snapshot"
    assert not [path for path in asked if ".snapshot" in path], asked
    context.close()
