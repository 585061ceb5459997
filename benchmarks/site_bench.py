"""`make bench-site`: how fast the course feels, measured in Chromium.

Builds the site, serves it locally (honouring its `_headers` cache rules and
counting the bytes it sends), and drives /usr/bin/chromium with Playwright.
Figures are medians of several runs; boot times are also given as ratios to a
bare page that only calls loadPyodide() in a module worker, from the same
files, in the same run.
"""

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.site_server import build_and_serve  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "5"))  # more runs, steadier medians on a noisy machine
CHROMIUM = "/usr/bin/chromium"
READY = "window.__coursePython && window.__coursePython.state === 'ready'"
CLEARED = {"version": 1, "code": {}, "levels": {
    level: {"items": {}, "cleared": True, "stars": 3, "via": "quiz", "started": True}
    for level in ("autograd", "accumulate")}}
AUTOGRAD_EXERCISES = {"quiz-sub-backward": "sub-backward", "quiz-backward-tail": "backward-tail",
                      "mul-backward": "mul-backward", "sub-backward": "sub-backward",
                      "backward-tail": "backward-tail"}

# The moment the page handles the first keystroke into an exercise's editor.
FIRST_KEY = """window.__firstKey = null;
addEventListener('input', (e) => {
  if (window.__firstKey === null && e.target.closest && e.target.closest('.course-exercise'))
    window.__firstKey = performance.now();
}, true);"""
DRAFT = ".course-exercise .course-draft"
# Where the first exercise's editor is now (plain text or CodeMirror), and whether a key landed.
PROBE = """(() => {
  const ex = document.querySelector('.course-exercise');
  const box = ex && ex.querySelector('.course-draft, .cm-content')?.getBoundingClientRect();
  return JSON.stringify({ key: window.__firstKey ?? null,
    at: box && box.height ? [box.left + 40, box.top + Math.min(12, box.height / 2)] : null });
})()"""


def editor_viewport(browser, url):
    """A viewport tall enough to show the first editor in the layout of the first paint
    (before any script runs)."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(url)
    box = page.locator(DRAFT).first.bounding_box()
    context.close()
    return {"width": 1280, "height": max(720, int(box["y"]) + 200)}


def first_key(page, url, limit_s=30):
    """Click into the first editor and press a key, over and over from the moment the
    navigation commits, through the DevTools protocol (as a real mouse and keyboard
    would, with no test-driver machinery in the page); the page notes when the first
    keystroke lands in an editor. Each round asks the page where the editor is now."""
    cdp = page.context.new_cdp_session(page)
    page.goto(url, wait_until="commit")
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        probe = cdp.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True})
        state = json.loads(probe.get("result", {}).get("value") or "{}")
        if state.get("key") is not None:
            cdp.detach()
            return state["key"]
        if state.get("at"):
            x, y = state["at"]
            for kind in ("mousePressed", "mouseReleased"):
                cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
            cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "#", "text": "#"})
            cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "#"})
    raise RuntimeError(f"no keystroke landed in an editor within {limit_s} s")


BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare loadPyodide</title>
<script type="module">
  const worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = () => { window.__bareReady = performance.now(); };
</script>"""
BARE_WORKER = """import { loadPyodide } from "../assets/pyodide/%s/pyodide.mjs";
await loadPyodide({ indexURL: new URL("../assets/pyodide/%s/", import.meta.url).href });
postMessage("ready");"""


def open_cleared(page, url):
    """Load the page with the levels already cleared (every section open)."""
    page.add_init_script(f"""if (!sessionStorage.getItem('bench')) {{
        sessionStorage.setItem('bench', '1');
        localStorage.setItem('byoa-progress', {json.dumps(json.dumps(CLEARED))}); }}""")
    page.goto(url)


def mark(page, name):
    return page.evaluate(f"performance.getEntriesByName('{name}').at(-1)?.startTime ?? null")


def last_measure(page, name):
    return page.evaluate(f"performance.getEntriesByName('{name}', 'measure').at(-1)?.duration ?? null")


def check_with_keyboard(page, slot, code):
    ex = page.locator(f'.course-exercise[data-slot="{slot}"]')
    ex.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    times = []
    for _ in range(RUNS):
        before = page.evaluate("performance.getEntriesByName('course:check', 'measure').length")
        page.keyboard.press("Control+Enter")
        page.wait_for_function(f"performance.getEntriesByName('course:check', 'measure').length > {before}")
        times.append(last_measure(page, "course:check"))
    assert "Passed" in ex.locator(".course-result").inner_text(), slot
    return statistics.median(times)


def pyodide_bytes(sent):
    return sum(n for path, n in sent.items() if "/assets/pyodide/" in path)


def main():
    site = Path(tempfile.mkdtemp())
    sent = {}
    server, url = build_and_serve(site, sent=sent)
    version = next((site / "assets/pyodide").iterdir()).name
    (site / "bare").mkdir()
    (site / "bare/index.html").write_text(BARE_PAGE)
    (site / "bare/worker.js").write_text(BARE_WORKER % (version, version))
    results = {k: [] for k in ("first_key", "first_key_warm", "first_key_no_scripts", "first_paint", "editor", "ours_cold", "ours_warm", "bare_cold", "bare_warm",
                               "bytes_first", "bytes_repeat", "pyodide_repeat", "index_bytes")}
    checks = {slot: [] for slot in AUTOGRAD_EXERCISES}
    instant = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        viewport = editor_viewport(browser, url + "/autograd/")
        for _ in range(RUNS):
            # bare page, cold then warm. Persistent contexts have a real disk cache
            # (incognito contexts keep a small in-memory one that drops the 9.6 MB wasm).
            context = p.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path=CHROMIUM,
                                                           service_workers="block", bypass_csp=True)
            page = context.new_page()
            for key in ("bare_cold", "bare_warm"):
                page.goto(url + "/bare/")
                page.wait_for_function("window.__bareReady", timeout=60_000)
                results[key].append(page.evaluate("window.__bareReady"))
            context.close()

            # the floor for (1): the same page with every script file blocked (HTML and CSS only)
            context = p.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path=CHROMIUM,
                                                           service_workers="block", bypass_csp=True, viewport=viewport)
            page = context.new_page()
            page.route("**/*.js", lambda route: route.abort())
            page.add_init_script(FIRST_KEY)
            results["first_key_no_scripts"].append(first_key(page, url + "/autograd/"))
            context.close()

            # the course, cold then warm (the offline precache is measured apart, below)
            context = p.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path=CHROMIUM,
                                                           service_workers="block", bypass_csp=True)
            page = context.new_page()
            page.set_viewport_size(viewport)
            page.add_init_script(FIRST_KEY)
            sent.clear()
            results["first_key"].append(first_key(page, url + "/autograd/"))
            page.wait_for_function(READY, timeout=60_000)
            results["ours_cold"].append(mark(page, "course:python-ready"))
            results["editor"].append(page.evaluate(  # the first editor; the others follow when near the view
                "performance.getEntriesByName('course:editor-ready')[0]?.startTime ?? null"))
            results["first_paint"].append(page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"))
            results["bytes_first"].append(sum(sent.values()))
            results.setdefault("boot_parts", []).append({**page.evaluate("window.__coursePython.bootTimings"),
                                                         "workerStartedAt": page.evaluate("window.__coursePython.startedAt")})
            page.wait_for_function("window.__coursePython.snapshotBytes > 0", timeout=30_000)
            sent.clear()
            results["first_key_warm"].append(first_key(page, url + "/autograd/"))
            page.wait_for_function(READY, timeout=60_000)
            results["ours_warm"].append(mark(page, "course:python-ready"))
            results.setdefault("warm_modes", []).append(page.evaluate("window.__coursePython.bootMode"))
            results["bytes_repeat"].append(sum(sent.values()))
            results["pyodide_repeat"].append(pyodide_bytes(sent))
            context.close()

            context = browser.new_context(service_workers="block", bypass_csp=True)
            page = context.new_page()
            sent.clear()
            page.goto(url + "/")
            page.wait_for_load_state("networkidle")
            results["index_bytes"].append(sum(n for path, n in sent.items() if "/assets/pyodide/" not in path
                                              and not path.endswith(".zip")))
            context.close()

        # check latency (warm Python), each exercise of the autograd level, then instant navigation
        context = browser.new_context(bypass_csp=True)
        page = context.new_page()
        open_cleared(page, url + "/autograd/")
        page.wait_for_function(READY, timeout=60_000)
        for slot, exercise_id in AUTOGRAD_EXERCISES.items():
            checks[slot].append(check_with_keyboard(page, slot, (ROOT / "exercises" / exercise_id / "solution.py").read_text()))
        page.locator("nav.md-nav--primary").get_by_role("link", name="When gradients add up").first.click()
        page.locator('.course-exercise[data-slot="diamond"] .cm-content').wait_for()
        assert page.evaluate("window.__coursePython.restarts") == 0
        ex = page.locator('.course-exercise[data-slot="diamond"]')
        ex.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text((ROOT / "exercises/diamond/solution.py").read_text())
        page.keyboard.press("Control+Enter")
        page.wait_for_function("performance.getEntriesByName('course:check', 'measure').length > 0")
        instant.append(last_measure(page, "course:check"))
        context.close()
        browser.close()
    server.shutdown()
    report(results, checks, instant)


def report(r, checks, instant):
    med = {k: statistics.median(v) for k, v in r.items() if k not in ("boot_parts", "warm_modes")}
    print(f"Chromium {CHROMIUM}; medians of {RUNS} runs; times from navigation start\n")
    print(f"{'measure':<58}{'ours':>10}{'bare':>10}{'ratio':>8}  goal   (paired: median of per-run ours/bare)")
    print(f"{'(1) first editor accepts typing (first key handled), cold':<58}{med['first_key']:>8.0f}ms{'':>10}{'':>8}  < 300 ms")
    print(f"{'(1) first editor accepts typing, warm (HTTP-cached)':<58}{med['first_key_warm']:>8.0f}ms{'':>10}{'':>8}  < 300 ms")
    print(f"{'    the floor: same page, every script blocked, cold':<58}{med['first_key_no_scripts']:>8.0f}ms")
    print(f"{'    first contentful paint, cold':<58}{med['first_paint']:>8.0f}ms")
    print(f"{'    CodeMirror has taken over the first editor':<58}{med['editor']:>8.0f}ms")
    for kind in ("cold", "warm"):
        ours, bare = med[f"ours_{kind}"], med[f"bare_{kind}"]
        # each run pairs ours with bare, back to back: the median of those ratios is
        # steadier than a ratio of medians on a machine whose speed drifts
        paired = statistics.median(o / b for o, b in zip(r[f"ours_{kind}"], r[f"bare_{kind}"]))
        label = f"(2) Check can run, {kind}" + (f" ({'/'.join(sorted(set(r['warm_modes'])))} boot)" if kind == "warm" else " (normal boot)")
        print(f"{label:<58}{ours:>8.0f}ms{bare:>8.0f}ms{ours / bare:>8.2f}  ratio <= 1.05 (paired: {paired:.2f})")
    for slot, times in checks.items():
        print(f"{f'(3) Ctrl+Enter to verdict, {slot}':<58}{statistics.median(times):>8.1f}ms{'':>10}{'':>8}  < 50 ms")
    print(f"{'(4) first Check after instant navigation (accumulate)':<58}{instant[0]:>8.1f}ms{'':>10}{'':>8}  < 100 ms")
    print(f"{'(5) bytes sent, first visit of /autograd/':<58}{med['bytes_first'] / 1e6:>8.2f}MB")
    print(f"{'(5) bytes sent, repeat visit':<58}{med['bytes_repeat'] / 1e3:>8.1f}kB   of which Pyodide: {med['pyodide_repeat']:.0f} B  (goal 0)")
    print(f"{'    a page with no editor (/): bytes without Python':<58}{med['index_bytes'] / 1e3:>8.1f}kB")
    parts = r["boot_parts"]
    print("\nworker boot, median ms: " + ", ".join(
        f"{k} {statistics.median(p[k] for p in parts):.0f}" for k in parts[0]))


if __name__ == "__main__":
    main()
