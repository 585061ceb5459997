"""`make bench-site`: how fast the course feels, measured in Chromium.

Builds the site, serves it locally (honouring its `_headers` cache rules and
counting the bytes it sends), and drives /usr/bin/chromium with Playwright.
Figures are medians of several runs. Every ratio is the median of per-run
ratios, each run's figure of ours next to its reference measured back to back in
that run (steadier than a ratio of medians on a machine whose speed drifts),
printed with its spread (lowest–highest). The references: a bare page that only
calls loadPyodide() in a module worker from the same files (boot times); the same
page with every script blocked (first keystroke); the same docs built with plain
Material and no course plugin (first contentful paint, and the longest main-thread
task until our page has Python ready).

Also: how long after a
click on Stop, with `while True` running, a Check has its verdict; Chromium's memory
with the page and its spare interpreter against the bare page; and Check-ready on a
learner's later visit, served by the offline service worker (the other figures block it).

First-visit transfer is counted by the server, as sent plain and as sent by a
host that serves the build's precompressed `.br` / `.gz` copies, with a table of
what it contains.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import catalog  # noqa: E402
from tools.chromium import CHROMIUM, launch_args  # noqa: E402
from tools.marks import SPARE_BOOTED, restarts  # noqa: E402
from tools.site_server import build_and_serve, serve  # noqa: E402

COURSE_FILES = re.compile(r"/assets/course/(runner|labs)\.\w+\.json$")  # course_build/packaging.py
RUNS = int(os.environ.get("BENCH_RUNS", "5"))  # more runs, steadier medians on a noisy machine
READY = "document.documentElement.dataset.python === 'ready'"
# how Python booted: the page's course:python-ready mark (course_browser/python.js)
BOOT = "performance.getEntriesByName('course:python-ready')[0].detail"
CLEARED = {"version": 1, "code": {}, "levels": {
    level: {"items": {}, "cleared": True, "stars": 3, "via": "quiz", "started": True}
    for level in ("autograd", "accumulate")}}
AUTOGRAD_EXERCISES = {slot: slot for slot in ("value-init", "mul-backward", "sub-backward", "topo-order", "backward-tail")}

# The moment the page handles the first keystroke into an exercise's editor.
FIRST_KEY = """window.__firstKey = null;
addEventListener('input', (e) => {
  if (window.__firstKey === null && e.target.closest && e.target.closest('.course-exercise'))
    window.__firstKey = performance.now();
}, true);"""
# Every main-thread task of 50 ms or more (the Long Tasks API), from the page's start.
LONG_TASKS = """window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });"""
LONGEST_BEFORE = "(until) => Math.max(0, ...window.__longTasks.filter(([start]) => start < until).map(([, d]) => d))"
PYTHON_READY_AT = "performance.getEntriesByName('course:python-ready')[0].startTime"
# When the learner pressed Stop (the page's own clock).
STOP_CLICK = """window.__stopAt = null;
addEventListener('click', (e) => {
  if (e.target.closest && e.target.closest('button')?.textContent.trim() === 'Stop') window.__stopAt = performance.now();
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




# The frame that paints a verdict: the course's measure ends in the task that puts the
# verdict in the page; this adds, for the bench's pages only, when the next frame has
# been rendered (a task queued from its requestAnimationFrame runs after its paint).
PAINTED = """window.__verdictPainted = [];
const measure = performance.measure.bind(performance);
performance.measure = (...args) => {
  const entry = measure(...args);
  if (args[0] === 'course:check') requestAnimationFrame(() => setTimeout(() =>
    window.__verdictPainted.push(performance.now() - entry.startTime)));
  return entry;
};"""


def press_check(page):
    """Ctrl+Enter in the focused editor: ms until its verdict is shown."""
    before = page.evaluate("performance.getEntriesByName('course:check', 'measure').length")
    page.keyboard.press("Control+Enter")
    page.wait_for_function(f"performance.getEntriesByName('course:check', 'measure').length > {before}")
    return last_measure(page, "course:check")


def painted(page, index):
    """The frame after the page's verdict number `index` (from 0), in ms from its
    Ctrl+Enter: read by index, since every Check's verdict adds one."""
    page.wait_for_function(f"window.__verdictPainted.length > {index}")
    return page.evaluate(f"window.__verdictPainted[{index}]")


def replace_code(page, slot, code):
    """Put `code` in the editor of exercise `slot`, as a learner pastes it (select all, then
    the text); returns the exercise's root."""
    root = page.locator(f'.course-exercise[data-slot="{slot}"]')
    root.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    return root


def check_with_keyboard(page, slot, code):
    """RUNS pairs of Checks: one warm (the page idle, its spare booted, as when a learner
    reads the verdict and edits), then one pressed as soon as that verdict showed, whose
    interpreter may still be booting. Returns (warm times, back-to-back times)."""
    ex = replace_code(page, slot, code)
    warm, again, shown = [], [], []
    for _ in range(RUNS):
        page.wait_for_function(SPARE_BOOTED)
        page.wait_for_timeout(300)  # the spare's first message handled, the page idle
        index = page.evaluate("window.__verdictPainted.length")
        warm.append(press_check(page))
        shown.append(painted(page, index))
        again.append(press_check(page))
    assert "Passed" in ex.locator(".course-result").inner_text(), slot
    return warm, again, shown


def stop_then_ready(page):
    """A runaway loop stopped: ms from the click on Stop until a Check can run again: the
    Stop click, then at once a Check of a right answer in another exercise of the page,
    until its verdict. Stop ends the run's interpreter; the spare booted while it ran."""
    other = replace_code(page, "sub-backward", catalog.load("sub-backward").solution)
    ex = replace_code(page, "backward-tail", "while True:\n    pass\n")
    page.evaluate(STOP_CLICK)
    ex.get_by_role("button", name="Run", exact=True).click()
    ex.get_by_role("button", name="Stop").wait_for()
    page.wait_for_timeout(300)  # the loop is spinning
    before = page.evaluate("performance.getEntriesByName('course:check', 'measure').length")
    # both clicks in one task of the page: the figure is the page's, not the driver's round trips
    page.evaluate("""() => { const button = (slot, name) => [...document.querySelectorAll(
        `.course-exercise[data-slot="${slot}"] button`)].find((b) => b.textContent.trim() === name);
      button('backward-tail', 'Stop').click(); button('sub-backward', 'Check').click(); }""")
    page.wait_for_function(f"performance.getEntriesByName('course:check', 'measure').length > {before}")
    assert "Passed" in other.locator(".course-result").inner_text()
    done = page.evaluate("(m => m.startTime + m.duration)(performance.getEntriesByName('course:check', 'measure').at(-1))")
    return done - page.evaluate("window.__stopAt")


def descendants(pid):
    """Every process started, directly or not, by `pid` (read from /proc)."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def memory_mb():
    """The proportional memory (PSS, MB) of the Chromium processes this bench started: the
    page, its workers and the browser's own (not another program's browser on the same
    machine). Read from /proc, so Linux only; None elsewhere."""
    total = 0
    for pid in descendants(os.getpid()):
        proc = Path(f"/proc/{pid}")
        try:
            if b"chrom" not in (proc / "cmdline").read_bytes().split(b"\0")[0]:
                continue
            rollup = (proc / "smaps_rollup").read_text()
        except OSError:
            continue
        total += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
    return total / 1024 if total else None


def settled_memory(page, ready):
    """Chromium's memory once `ready` holds and the page has been idle for 2 s (the spare booted)."""
    page.wait_for_function(ready, timeout=60_000)
    page.wait_for_timeout(2000)
    return memory_mb()


def is_python(path):
    """Pyodide's files, the course's Python files and the build's memory snapshot: what
    booting Python fetches."""
    return "/assets/pyodide/" in path or path.endswith((".snapshot", ".snapshot.gz")) or COURSE_FILES.search(path) is not None


def pyodide_bytes(sent):
    return sum(n for path, n in sent.items() if "/assets/pyodide/" in path)


def plain_material_site(target):
    """The same docs, built with plain Material: mkdocs.yml less the course plugin (its
    blocks stay as plain text, the math as TeX source). The reference for the first paint
and the longest task."""
    text = (ROOT / "mkdocs.yml").read_text()
    for pattern, replacement in ((r"(?m)^  - course\n", ""), (r"(?m)^docs_dir: .*$", f"docs_dir: {ROOT / 'docs'}"),
                                 (r"(?m)^watch:\n(?:  - .*\n)+", ""), (r'base_path: \["\."\]', f'base_path: ["{ROOT}"]')):
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"mkdocs.yml has changed: no {pattern!r} in it"
    config = Path(tempfile.mkdtemp()) / "mkdocs.yml"
    config.write_text(text)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(config), "-d", str(target)],
                   cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=True)


def first_paint(page, limit_s=10):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
        if fcp is not None:
            return fcp
        time.sleep(0.05)
    raise RuntimeError("no first contentful paint")


# What a first visit fetches, by kind: the first test that matches a path names its group.
GROUPS = (
    ("Pyodide wasm", lambda p: p.endswith("/pyodide.asm.wasm")),
    ("Pyodide asm.mjs", lambda p: p.endswith("/pyodide.asm.mjs")),
    ("Python standard library zip", lambda p: p.endswith("/python_stdlib.zip")),
    ("Pyodide lockfile", lambda p: p.endswith("/pyodide-lock.json")),
    ("pyodide.mjs", lambda p: p.endswith("/pyodide.mjs")),
    ("Pyodide, other", lambda p: "/assets/pyodide/" in p),
    ("course's Python files (runner; engine and labs)", lambda p: COURSE_FILES.search(p)),
    ("Python memory snapshot, as the host encodes it", lambda p: p.endswith(".snapshot")),
    ("Python memory snapshot, gzip file", lambda p: p.endswith(".snapshot.gz")),
    ("exercise data (JSON)", lambda p: "/assets/course/exercises." in p),
    ("fonts (KaTeX)", lambda p: p.endswith((".woff2", ".woff", ".ttf"))),
    ("our JS and CSS", lambda p: "/assets/course/" in p and p.endswith((".js", ".css"))),
    ("course, other files", lambda p: "/assets/course/" in p),
    ("Material JS", lambda p: "/assets/javascripts/" in p),
    ("Material CSS", lambda p: "/assets/stylesheets/" in p),
    ("search index", lambda p: "/search/" in p),
    ("HTML", lambda p: p.endswith(("/", ".html"))),
    ("other", lambda p: True),
)


def by_group(sent):
    groups = {}
    for path, n in sent.items():
        label = next(label for label, test in GROUPS if test(path))
        count, total = groups.get(label, (0, 0))
        groups[label] = (count + 1, total + n)
    return groups


def first_visit(p, url, sent, ready):
    """One cold visit in a fresh profile, until `ready` holds and the network is idle:
    the bytes the server sent, per path."""
    context = fresh_profile(p)
    page = context.new_page()
    sent.clear()
    page.goto(url)
    page.wait_for_function(ready, timeout=60_000)
    page.wait_for_load_state("networkidle")
    context.close()
    return dict(sent)


# Chromium's network emulation (it covers the Python worker's fetches too), on the
# server that sends the precompressed copies as a static host would
PROFILES = {"10 Mbps / 40 ms": {"latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 5e6 / 8},
            "50 Mbps / 20 ms": {"latency": 20, "downloadThroughput": 50e6 / 8, "uploadThroughput": 10e6 / 8}}


def throttled_visit(p, url, sent, profile, ready, when):
    """One cold visit in a fresh profile behind `profile`: (ms from navigation start until
    `when`, once `ready` holds; MB the server sent by then)."""
    context = fresh_profile(p)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **PROFILES[profile]})
    sent.clear()
    page.goto(url, wait_until="commit")
    page.wait_for_function(ready, timeout=180_000)
    result = (page.evaluate(when), sum(sent.values()) / 1e6)
    context.close()
    return result


def throttled(p, packed_url, sent_packed):
    """Cold Check-ready on each throttled profile, ours and the bare page back to back
    (which goes first alternates): {profile: {"ours": [(ms, MB)], "bare": [...]}}."""
    found = {}
    for profile in PROFILES:
        runs = found[profile] = {"ours": [], "bare": []}
        pair = (("ours", packed_url + "/autograd/", READY, "performance.getEntriesByName('course:python-ready')[0].startTime"),
                ("bare", packed_url + "/bare/", "window.__bareReady", "window.__bareReady"))
        for run in range(RUNS):
            for who, url, ready, when in pair if run % 2 == 0 else pair[::-1]:
                runs[who].append(throttled_visit(p, url, sent_packed, profile, ready, when))
    return found


def report_throttled(found):
    print("\n(6) cold Check-ready behind Chromium's network emulation, precompressed copies served")
    print(f"{'profile':<22}{'ours':>10}{'bare':>10}{'ours MB':>9}{'bare MB':>9}   ratio (spread)")
    for profile, runs in found.items():
        ours, bare = [t for t, _ in runs["ours"]], [t for t, _ in runs["bare"]]
        print(f"{profile:<22}{statistics.median(ours):>8.0f}ms{statistics.median(bare):>8.0f}ms"
              f"{statistics.median(mb for _, mb in runs['ours']):>9.2f}{statistics.median(mb for _, mb in runs['bare']):>9.2f}"
              f"   {ratio_text(ours, bare, 0.8)}")


def fresh_profile(p, service_workers="block", **options):
    """A browser with a profile of its own on disk. Persistent contexts have a real disk
    cache (incognito contexts keep a small in-memory one that drops the 9.6 MB wasm)."""
    return p.chromium.launch_persistent_context(tempfile.mkdtemp(), **launch_args(p.chromium),
                                                service_workers=service_workers, bypass_csp=True, **options)


def bare_visits(p, url, results):
    """The bare page, cold then warm."""
    context = fresh_profile(p)
    page = context.new_page()
    for key in ("bare_cold", "bare_warm"):
        page.goto(url + "/bare/")
        page.wait_for_function("window.__bareReady", timeout=60_000)
        results[key].append(page.evaluate("window.__bareReady"))
    context.close()


def first_key_floor(p, url, viewport, results):
    """The floor for the first keystroke: the same page with every script file blocked
    (HTML and CSS only), cold then warm."""
    context = fresh_profile(p, viewport=viewport)
    page = context.new_page()
    page.route("**/*.js", lambda route: route.abort())
    page.add_init_script(FIRST_KEY)
    results["first_key_no_scripts"].append(first_key(page, url + "/autograd/"))
    results["first_key_no_scripts_warm"].append(first_key(page, url + "/autograd/"))
    context.close()


def course_visits(p, url, viewport, sent, results):
    """The course, cold then warm (the offline precache is measured apart, in offline_visit):
    the first keystroke, Check-ready, the bytes sent and how the worker booted."""
    context = fresh_profile(p)
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.add_init_script(FIRST_KEY)
    sent.clear()
    results["first_key"].append(first_key(page, url + "/autograd/"))
    page.wait_for_function(READY, timeout=60_000)
    results["ours_cold"].append(mark(page, "course:python-ready"))
    results["cold_modes"].append(page.evaluate(f"{BOOT}.mode"))
    results["editor"].append(page.evaluate(  # the first editor; the others follow when near the view
        "performance.getEntriesByName('course:editor-ready')[0]?.startTime ?? null"))
    results["bytes_first"].append(sum(sent.values()))
    results["boot_parts"].append({**page.evaluate(f"{BOOT}.timings"),
                                  "workerStartedAt": mark(page, "course:python-start")})
    # the warm visit starts once the first one is done: the network idle (the precache
    # of the offline worker is blocked here) and the page's after-boot work finished
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    sent.clear()
    results["first_key_warm"].append(first_key(page, url + "/autograd/"))
    page.wait_for_function(READY, timeout=60_000)
    results["ours_warm"].append(mark(page, "course:python-ready"))
    results["warm_modes"].append(page.evaluate(f"{BOOT}.mode"))
    results["bytes_repeat"].append(sum(sent.values()))
    results["pyodide_repeat"].append(pyodide_bytes(sent))
    context.close()


def offline_visit(p, url, results):
    """A later visit of a learner: the offline service worker installed by the first
    visit (it precaches the course) serves the second."""
    context = fresh_profile(p, service_workers="allow")
    page = context.new_page()
    page.goto(url + "/autograd/")
    page.wait_for_function(READY, timeout=60_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    page.goto(url + "/autograd/")
    page.wait_for_function(READY, timeout=60_000)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    results["ours_sw"].append(mark(page, "course:python-ready"))
    context.close()


def paint_and_longest_task(p, url, plain_url, viewport, run, results):
    """First contentful paint and the longest main-thread task, cold: ours (until Python
    is ready), and the same page built with plain Material (over the same time), back to
    back, each in a fresh profile with nothing else driving the page (first_key's probing
    would compete with the paint); which goes first alternates between runs."""
    ready_at = results["ours_cold"][-1]
    pair = (("", url), ("plain_", plain_url))
    for key, origin in pair if run % 2 == 0 else pair[::-1]:
        context = fresh_profile(p, viewport=viewport)
        page = context.new_page()
        page.add_init_script(LONG_TASKS)
        page.goto(origin + "/autograd/", wait_until="commit")
        results[key + "first_paint"].append(first_paint(page))
        if key:
            page.wait_for_function(f"performance.now() > {ready_at}")
        else:
            page.wait_for_function(READY, timeout=60_000)
            ready_at = page.evaluate(PYTHON_READY_AT)
        results[key + "longest_task"].append(page.evaluate(LONGEST_BEFORE, ready_at))
        context.close()


def index_bytes(browser, url, sent, results):
    """What a page with no editor (/) sends, Python aside."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    page = context.new_page()
    sent.clear()
    page.goto(url + "/")
    page.wait_for_load_state("networkidle")
    results["index_bytes"].append(sum(n for path, n in sent.items() if not is_python(path)))
    context.close()


def memory(p, url, results):
    """The whole browser's memory with the course's page (its interpreter and its spare),
    and with the bare page (one interpreter), each alone in a fresh browser."""
    for key, page_url, ready in (("memory_ours", url + "/autograd/", READY),
                                 ("memory_bare", url + "/bare/", "window.__bareReady")):
        alone = p.chromium.launch(**launch_args(p.chromium))
        context = alone.new_context(service_workers="block", bypass_csp=True)
        context.new_page().goto(page_url)
        results[key].append(settled_memory(context.pages[0], ready))
        alone.close()


def check_latency(browser, url, results):
    """Checks with warm Python, on each exercise of the autograd level; Stop on a runaway
    loop; then a Check after instant navigation to the next level."""
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.add_init_script(PAINTED)
    open_cleared(page, url + "/autograd/")
    page.wait_for_function(READY, timeout=60_000)
    for slot, exercise_id in AUTOGRAD_EXERCISES.items():
        warm, again, shown = check_with_keyboard(page, slot, catalog.load(exercise_id).solution)
        results["checks"][slot] = warm
        results["back_to_back"].extend(again)
        results["painted"].extend(shown)
    results["stop_ready"] = [stop_then_ready(page) for _ in range(RUNS)]  # every section open: both editors shown
    page.locator("nav.md-nav--primary").get_by_role("link", name="When gradients add up").first.click()
    page.locator('.course-exercise[data-slot="diamond"] .cm-content').wait_for()
    # each Check's interpreter ended as done; only the stopped runs count as restarts
    assert len(restarts(page)) == len(results["stop_ready"])
    replace_code(page, "diamond", catalog.load("diamond").solution)
    page.keyboard.press("Control+Enter")
    page.wait_for_function("performance.getEntriesByName('course:check', 'measure').length > 0")
    results["instant"].append(last_measure(page, "course:check"))
    context.close()


def serve_sites():
    """The course (as sent plain, and as a host with brotli_static / gzip_static would send
    it), the bare page beside it, and the same docs built with plain Material."""
    site = Path(tempfile.mkdtemp())
    sent, sent_packed = {}, {}
    server, url = build_and_serve(site, sent=sent)
    packed_server, packed_port = serve(site, sent=sent_packed, precompressed=True)
    plain_site = Path(tempfile.mkdtemp())
    plain_material_site(plain_site)
    plain_server, plain_port = serve(plain_site)
    version = next((site / "assets/pyodide").iterdir()).name
    (site / "bare").mkdir()
    (site / "bare/index.html").write_text(BARE_PAGE)
    (site / "bare/worker.js").write_text(BARE_WORKER % (version, version))
    urls = {"ours": url, "packed": f"http://127.0.0.1:{packed_port}", "plain": f"http://127.0.0.1:{plain_port}"}
    return (server, packed_server, plain_server), urls, sent, sent_packed


def main():
    servers, urls, sent, sent_packed = serve_sites()
    url, packed_url = urls["ours"], urls["packed"]
    results = {"checks": {}, **{k: [] for k in (
        "first_key", "first_key_warm", "first_key_no_scripts", "first_key_no_scripts_warm", "first_paint",
        "plain_first_paint", "editor", "ours_cold", "ours_warm", "bare_cold", "bare_warm", "bytes_first",
        "bytes_repeat", "pyodide_repeat", "index_bytes", "longest_task", "plain_longest_task", "ours_sw",
        "cold_modes", "warm_modes", "boot_parts", "memory_ours", "memory_bare", "back_to_back", "instant", "painted")}}
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_args(p.chromium))
        viewport = editor_viewport(browser, url + "/autograd/")
        for run in range(RUNS):
            bare_visits(p, url, results)
            first_key_floor(p, url, viewport, results)
            course_visits(p, url, viewport, sent, results)
            offline_visit(p, url, results)
            paint_and_longest_task(p, url, urls["plain"], viewport, run, results)
            index_bytes(browser, url, sent, results)
        memory(p, url, results)
        check_latency(browser, url, results)
        browser.close()
        # first-visit transfer, as sent plain and as sent precompressed, ours and the bare page
        transfer = {("ours", "plain"): first_visit(p, url + "/autograd/", sent, READY),
                    ("ours", "precompressed"): first_visit(p, packed_url + "/autograd/", sent_packed, READY),
                    ("bare", "plain"): first_visit(p, url + "/bare/", sent, "window.__bareReady"),
                    ("bare", "precompressed"): first_visit(p, packed_url + "/bare/", sent_packed, "window.__bareReady")}
        slow = throttled(p, packed_url, sent_packed)
    for running in servers:
        running.shutdown()
    report(results)
    report_transfer(transfer)
    report_throttled(slow)


def paired(ours, reference):
    """The median of per-run ratios ours / reference, and their spread (lowest, highest)."""
    ratios = [o / b for o, b in zip(ours, reference)]
    return statistics.median(ratios), min(ratios), max(ratios)


def difference_text(ours, reference, goal):
    """The median of per-run differences ours - reference (ms), with their spread."""
    differences = [o - b for o, b in zip(ours, reference)]
    median = statistics.median(differences)
    return (f"{median:+.0f} ms ({min(differences):+.0f}–{max(differences):+.0f})  goal <= +{goal} ms"
            + ("" if median <= goal else " (not met)"))


def ratio_text(ours, reference, goal):
    median, low, high = paired(ours, reference)
    return f"{median:>6.2f} ({low:.2f}–{high:.2f})  goal <= {goal}" + ("" if median <= goal else " (not met)")


def report(r):
    checks, instant, back_to_back, painted = r["checks"], r["instant"], r["back_to_back"], r["painted"]
    med = {k: statistics.median(v) for k, v in r.items()
           if k not in ("boot_parts", "cold_modes", "warm_modes", "checks", "instant", "back_to_back", "painted")}
    print(f"Chromium {CHROMIUM}; medians of {RUNS} runs; times from navigation start")
    print("ratio = median of the per-run ratios ours / reference (each pair measured back to back), (lowest–highest)\n")
    print(f"{'measure':<58}{'ours':>10}{'reference':>11}   ratio (spread)")
    rows = (
        ("(1) first editor accepts typing (first key handled), cold", "first_key", "first_key_no_scripts", 1.15),
        ("(1) first editor accepts typing, warm (HTTP-cached)", "first_key_warm", "first_key_no_scripts_warm", 1.15),
    )
    for label, ours, reference, goal in rows:
        print(f"{label:<58}{med[ours]:>8.0f}ms{med[reference]:>9.0f}ms  {ratio_text(r[ours], r[reference], goal)}")
    print("    reference: the same page with every script blocked (its own floor); goal for ours also < 300 ms")
    print(f"{'first contentful paint, cold':<58}{med['first_paint']:>8.0f}ms{med['plain_first_paint']:>9.0f}ms  "
          f"{ratio_text(r['first_paint'], r['plain_first_paint'], 1.1)}")
    print("    reference: the same page built with plain Material, no course plugin")
    print(f"{'    CodeMirror has taken over the first editor':<58}{med['editor']:>8.0f}ms")
    for kind, goal in (("cold", 0.4), ("warm", 0.3)):
        label = f"(2) Check can run, {kind} ({'/'.join(sorted(set(r[f'{kind}_modes'])))} boot)"
        print(f"{label:<58}{med[f'ours_{kind}']:>8.0f}ms{med[f'bare_{kind}']:>9.0f}ms  "
              f"{ratio_text(r[f'ours_{kind}'], r[f'bare_{kind}'], goal)}")
    print("    reference: a bare page that only calls loadPyodide() in a module worker, same files")
    print(f"{'(2) warm, a later visit, offline service worker serving':<58}{med['ours_sw']:>8.0f}ms{'':>11}"
          f"   (spread {min(r['ours_sw']):.0f}–{max(r['ours_sw']):.0f})")
    for slot, times in checks.items():
        print(f"{f'(3) Ctrl+Enter to verdict, warm, {slot}':<58}{statistics.median(times):>8.1f}ms{'':>11}"
              f"   (spread {min(times):.0f}–{max(times):.0f}) goal < 50 ms")
    firsts = [times[0] for times in checks.values()]
    print(f"{'    the first Check of each exercise':<58}{statistics.median(firsts):>8.1f}ms{'':>11}"
          f"   (highest {max(firsts):.0f})")
    print(f"{'    the frame that paints the verdict, warm':<58}{statistics.median(painted):>8.1f}ms{'':>11}"
          f"   (spread {min(painted):.0f}–{max(painted):.0f})")
    print(f"{'    a Check pressed as soon as the last verdict showed':<58}{statistics.median(back_to_back):>8.1f}ms{'':>11}"
          f"   (highest {max(back_to_back):.0f}) goal < 300 ms")
    print(f"{'(4) first Check after instant navigation (accumulate)':<58}{instant[0]:>8.1f}ms{'':>11}   goal < 100 ms")
    print(f"{'longest main-thread task, cold, until Python is ready':<58}{med['longest_task']:>8.0f}ms"
          f"{med['plain_longest_task']:>9.0f}ms  difference {difference_text(r['longest_task'], r['plain_longest_task'], 30)}")
    print("    reference: plain Material's page over the same time (0: no task of 50 ms or more)")
    print(f"{'Stop on `while True`, until a Check has its verdict (warm)':<58}{med['stop_ready']:>8.0f}ms"
          f"   (spread {min(r['stop_ready']):.0f}–{max(r['stop_ready']):.0f}) goal < 300 ms")
    print(f"{'Chromium memory (PSS) with the page idle, its spare booted':<58}{med['memory_ours']:>8.0f}MB"
          f"{med['memory_bare']:>9.0f}MB  ratio {med['memory_ours'] / med['memory_bare']:.2f}"
          "   reference: the bare page (one interpreter)")
    print(f"{'(5) bytes sent, first visit of /autograd/, until ready':<58}{med['bytes_first'] / 1e6:>8.2f}MB")
    print(f"{'(5) bytes sent, repeat visit':<58}{med['bytes_repeat'] / 1e3:>8.1f}kB   of which Pyodide: {med['pyodide_repeat']:.0f} B  (goal 0)")
    print(f"{'    a page with no editor (/): bytes without Python':<58}{med['index_bytes'] / 1e3:>8.1f}kB")
    parts = r["boot_parts"]
    print("\nworker boot, median ms: " + ", ".join(
        f"{k} {statistics.median(p[k] for p in parts):.0f}" for k in parts[0]))


def report_transfer(transfer):
    """What a first visit of /autograd/ fetches (until Python is ready and the network is
    idle), as sent plain and as sent by a host that serves the precompressed copies."""
    plain, packed = by_group(transfer[("ours", "plain")]), by_group(transfer[("ours", "precompressed")])
    print("\nfirst visit of /autograd/, one cold visit each, until ready and the network idle (MB)")
    print(f"{'':<50}{'files':>6}{'plain':>9}{'precompressed':>15}   (files: plain visit / precompressed visit)")
    for label, _ in GROUPS:
        if label in plain or label in packed:
            (count, size), (packed_count, packed_size) = plain.get(label, (0, 0)), packed.get(label, (0, 0))
            files = f"{count}" if count == packed_count else f"{count}/{packed_count}"
            print(f"{label:<50}{files:>6}{size / 1e6:>9.3f}{packed_size / 1e6:>15.3f}")
    totals = {key: sum(sent.values()) / 1e6 for key, sent in transfer.items()}
    for who in ("ours", "bare"):
        print(f"{'total, ' + who + (' (loadPyodide() only: the floor)' if who == 'bare' else ''):<56}"
              f"{totals[(who, 'plain')]:>9.2f}{totals[(who, 'precompressed')]:>15.2f}")
    for mode in ("plain", "precompressed"):
        extra = totals[("ours", mode)] - totals[("bare", mode)]
        print(f"{'ours - bare, ' + mode:<56}{extra:>9.2f}" + ("  goal <= 2 MB" + ("" if extra <= 2 else " (not met)")
                                                               if mode == "precompressed" else ""))

if __name__ == "__main__":
    main()
