"""The floor under the snapshot boot: what a page that only restores the build's
memory snapshot achieves, next to the bare loadPyodide() page and the course page,
in the same run, cold and warm (HTTP-cached); and the floor under the first visit's
transfer: the size of a snapshot of Pyodide alone, beside the course's.

    .venv/bin/python benchmarks/snapshot_floor.py [runs]

The "snapshot only" page restores the build's snapshot with the worker's own module
(course_browser/snapshot-fetch.mjs: streamed into the memory while Pyodide compiles,
checked before Pyodide reads it) and imports Pyodide's runtime script early, as the
course worker does, and does nothing else: no course files, no guard, no page.
Ratios are the median of per-run ratios to the bare page, with the lowest and highest.
"""

import gzip
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile

import brotli
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course_build.snapshot import Snapshot  # noqa: E402
from tools.chromium import launch_args  # noqa: E402
from tools.site_server import build_and_serve  # noqa: E402

PAGE = """<!doctype html><meta charset="utf-8"><title>floor</title><script type="module">
const worker = new Worker("worker.js", { type: "module" });
worker.onmessage = () => { window.__ready = performance.now(); };
</script>"""
BARE = """import { loadPyodide } from "../assets/pyodide/VERSION/pyodide.mjs";
await loadPyodide({ indexURL: new URL("../assets/pyodide/VERSION/", import.meta.url).href });
postMessage("ready");"""
SNAPSHOT_ONLY = """import { loadPyodide } from "../assets/pyodide/VERSION/pyodide.mjs";
import { restoreFromSnapshot } from "./snapshot-fetch.mjs";
import(new URL("../assets/pyodide/VERSION/pyodide.asm.mjs", import.meta.url).href);
const restore = restoreFromSnapshot(SNAPSHOT);
await loadPyodide({ indexURL: new URL("../assets/pyodide/VERSION/", import.meta.url).href, ...restore.options });
await restore.checked;
postMessage("ready");"""
COURSE_READY = "document.documentElement.dataset.python === 'ready'"


def add_pages(site):
    version = next((site / "assets/pyodide").iterdir()).name
    snapshot = next((site / "assets/course").glob("python.*.snapshot.gz"))
    shipped = Snapshot.of(snapshot.read_bytes())
    found = json.dumps({"url": f"../assets/course/{snapshot.name}", "sha256": shipped.sha256,
                        "bodySha256": shipped.body_sha256, "size": shipped.size})
    for name, worker in (("floor-bare", BARE), ("floor-snapshot", SNAPSHOT_ONLY)):
        (site / name).mkdir()
        (site / name / "index.html").write_text(PAGE)
        (site / name / "worker.js").write_text(worker.replace("VERSION", version).replace("SNAPSHOT", found))
    for module in ("snapshot-fetch.mjs", "snapshot-format.mjs"):  # the worker's own way to fetch it
        shutil.copy(ROOT / "course_browser" / module, site / "floor-snapshot" / module)


def ready_at(page, url, name):
    if name == "course":
        page.goto(url + "/autograd/")
        page.wait_for_function(COURSE_READY, timeout=60_000)
        at = page.evaluate("performance.getEntriesByName('course:python-ready')[0].startTime")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(1000)  # the page's after-boot work done before the warm visit
        return at
    page.goto(f"{url}/{name}/")
    page.wait_for_function("window.__ready", timeout=60_000)
    return page.evaluate("window.__ready")


def transfer_floor(site):
    """What any memory snapshot adds to a first visit: one of Pyodide alone, nothing
    imported, made the way the build makes the course's, next to the course's."""
    pyodide_dir = next((site / "assets/pyodide").iterdir())
    course = next((site / "assets/course").glob("python.*.snapshot.gz")).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "alone.gz"
        subprocess.run(["node", str(ROOT / "course_browser/snapshot.mjs"), str(pyodide_dir), "-", str(out)],
                       cwd=ROOT, check=True, capture_output=True, env={**os.environ, "TZ": "UTC"})
        alone = out.read_bytes()
    print("Transfer floor: the snapshot file, gzip as shipped (Brotli q11 of its body, for a host that serves copies)")
    for name, data in (("Pyodide alone", alone), ("the course", course)):
        print(f"  {name:<16}{len(data) / 1e6:>6.2f} MB  ({len(brotli.compress(gzip.decompress(data))) / 1e6:.2f} MB)")


def main(runs):
    site = pathlib.Path(tempfile.mkdtemp())
    server, url = build_and_serve(site)
    add_pages(site)
    names = ("floor-bare", "floor-snapshot", "course")
    times = {}
    with sync_playwright() as p:
        for run in range(runs):
            for name in names[run % 3:] + names[:run % 3]:
                context = p.chromium.launch_persistent_context(tempfile.mkdtemp(), **launch_args(p.chromium),
                                                               service_workers="block", bypass_csp=True)
                page = context.new_page()
                for kind in ("cold", "warm"):
                    times.setdefault((name, kind), []).append(ready_at(page, url, name))
                context.close()
    server.shutdown()
    transfer_floor(site)
    print(f"Python ready, ms from navigation start, medians of {runs} runs; ratio to the bare page, paired (lowest-highest)")
    for kind in ("cold", "warm"):
        bare = times[("floor-bare", kind)]
        print(f"{kind}: bare {statistics.median(bare):.0f}")
        for name in names[1:]:
            ratios = sorted(a / b for a, b in zip(times[(name, kind)], bare))
            print(f"  {name:<16}{statistics.median(times[(name, kind)]):>6.0f}   {statistics.median(ratios):.2f} "
                  f"({ratios[0]:.2f}-{ratios[-1]:.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
