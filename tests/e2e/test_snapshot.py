"""Warm boots from Pyodide's memory snapshot, and the normal boot as the fallback.

The snapshot's bytes sit in Cache Storage, which any script of the origin can write
(the Python worker too, until it drops its powers): the page keeps their SHA-256 in
localStorage, and the worker restores only bytes that match it."""

from playwright.sync_api import expect

from .helpers import SUB_ANSWER, check, exercise, fill_blanks
from .test_hardening import python_ready, wait_until

LEVEL = "/autograd/"
CACHED_KEYS = "caches.open('byoa-python-snapshot').then(c => c.keys()).then(k => k.length)"

STORED_MATCHES_CACHED = """async () => {
    const saved = JSON.parse(localStorage.getItem('byoa-python-snapshot-sha256') || 'null');
    const cache = await caches.open('byoa-python-snapshot');
    const response = saved && await cache.match(saved.key);
    if (!response) return false;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') === saved.sha256;
}"""


def replaced_by_a_fresh_snapshot(page):
    """After a rejected snapshot, the page drops it and the snapshot worker makes a new one."""
    wait_until(page, "window.__coursePython.snapshotBytes > 0")
    assert page.evaluate(STORED_MATCHES_CACHED)
    page.reload()
    python_ready(page)
    assert boot_mode(page) == "snapshot"



def boot_mode(page):
    return page.evaluate("window.__coursePython.bootMode")


def passes(page, fill=True):
    ex = exercise(page, "quiz-sub-backward")
    if fill:
        fill_blanks(page, ex, *SUB_ANSWER)
    expect(check(ex)).to_contain_text("Passed")


def first_visit(page, site):
    page.goto(site + LEVEL)
    python_ready(page)
    assert boot_mode(page) == "normal"
    wait_until(page, "window.__coursePython.snapshotBytes > 0")
    passes(page)


def test_second_visit_boots_from_the_snapshot(page, site):
    first_visit(page, site)
    hashed = page.evaluate("window.__coursePython.snapshotHashMs")
    page.reload()
    python_ready(page)
    assert boot_mode(page) == "snapshot"
    timings = page.evaluate("window.__coursePython.bootTimings")
    print(f"\nsnapshot {page.evaluate('window.__coursePython.snapshotBytes') or 0} bytes: hashed by the page in "
          f"{hashed:.0f} ms, verified by the worker in {timings['snapshotHash']:.0f} ms; warm boot {timings}")
    passes(page, fill=False)  # the code was kept; it is graded by the restored Python


def test_a_snapshot_pyodide_refuses_falls_back_to_the_normal_boot(page, site):
    first_visit(page, site)
    # bytes Pyodide can't restore, with their hash (as after a Pyodide change): the worker tries, then boots normally
    page.evaluate("""async () => {
        const bytes = new Uint8Array(1000);
        const cache = await caches.open('byoa-python-snapshot');
        const [key] = await cache.keys();
        await cache.put(key, new Response(bytes));
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
        localStorage.setItem('byoa-python-snapshot-sha256', JSON.stringify({key: key.url, sha256}));
    }""")
    page.reload()
    python_ready(page)
    assert boot_mode(page) == "fallback"
    assert page.evaluate("window.__coursePython.snapshotRejected") == "load"
    passes(page, fill=False)
    replaced_by_a_fresh_snapshot(page)


def test_a_poisoned_snapshot_is_never_loaded(page, site):
    first_visit(page, site)
    # a script of the origin (the worker before it drops its powers, say) writes other bytes
    page.evaluate("""async () => {
        const cache = await caches.open('byoa-python-snapshot');
        const [key] = await cache.keys();
        const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
        bytes[bytes.length >> 1] ^= 1;
        await cache.put(key, new Response(bytes));
    }""")
    page.reload()
    python_ready(page)
    assert boot_mode(page) == "fallback"  # the worker checked the hash before restoring anything
    assert page.evaluate("window.__coursePython.snapshotRejected") == "hash"
    passes(page, fill=False)
    replaced_by_a_fresh_snapshot(page)  # the bad entry was dropped, a good one made


def test_a_snapshot_is_taken_only_from_the_snapshot_worker(page, site):
    """The worker that runs learner code can't hand the page a snapshot: only the
    short-lived snapshot worker, which runs nothing else, can."""
    page.goto(site + LEVEL)
    python_ready(page)
    page.evaluate("window.__coursePython.onMessage({type: 'snapshot', key: location.origin + '/forged', "
                  "bytes: new ArrayBuffer(8)})")
    wait_until(page, "window.__coursePython.snapshotBytes > 0")
    assert page.evaluate("window.__coursePython.snapshotBytes") > 1_000_000
    assert "forged" not in page.evaluate("localStorage.getItem('byoa-python-snapshot-sha256')")
    assert page.evaluate(STORED_MATCHES_CACHED)
