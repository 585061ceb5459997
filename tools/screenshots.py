"""`make screenshots`: a full-page PNG of every level page, as a learner sees it.

Builds the site, serves it locally (tools/site_server.py) and drives
/usr/bin/chromium with Playwright at desktop (1280×800) and phone (390×844) sizes,
in both of Material's palettes (light "default", dark "slate", set through its
`__palette` localStorage key before the page loads). The labs that draw only after
training (the training lab, the capstone) are trained first, so their pictures show.

    python tools/screenshots.py [--out screenshots] [--no-train] [page ...]

Writes <out>/<page>-<desktop|phone>-<light|dark>.png.
"""

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.chromium import launch_args  # noqa: E402
from tools.site_server import build_and_serve  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PALETTES = {
    "light": {"index": 0, "color": {"media": "(prefers-color-scheme: light)", "scheme": "default",
                                    "primary": "indigo", "accent": "deep orange"}},
    "dark": {"index": 1, "color": {"media": "(prefers-color-scheme: dark)", "scheme": "slate",
                                   "primary": "indigo", "accent": "deep orange"}},
}
READY = "['ready', 'failed'].includes(document.documentElement.dataset.python)"
# The labs whose pictures appear only after training: the button, and the status text once done.
TRAIN = {"training": (r"^Train", "Trained with learning rate"),
         # a new learner's capstone trains on the reference's pieces: "Trained on the reference's ..."
         "capstone": (r"^Train your engine", "Trained on ")}


def level_pages(site_dir):
    """The level pages, in the nav's order (a level page carries the `.course-level` block)."""
    pages = []
    for line in (ROOT / "mkdocs.yml").read_text().split("\nnav:", 1)[1].splitlines()[1:]:
        match = re.match(r"\s+- [^:]+: (\S+)\.md$", line)
        if not match:
            if line and not line.startswith(" "):
                break
            continue
        name = match.group(1)
        html = site_dir / ("index.html" if name == "index" else f"{name}/index.html")
        if html.is_file() and 'class="course-level' in html.read_text():
            pages.append(name)
    return pages


def wait_until(page, expression, timeout=120_000):
    """Poll with evaluate (the site's CSP refuses wait_for_function's eval)."""
    waited = 0
    while not page.evaluate(f"!!({expression})"):
        if waited > timeout:
            raise TimeoutError(f"timed out waiting for {expression}")
        page.wait_for_timeout(100)
        waited += 100


def train_labs(page):
    for lab in page.locator(".course-lab[data-lab]").all():
        kind = lab.get_attribute("data-lab")
        if kind not in TRAIN:
            continue
        if not lab.is_visible():  # behind a lock, as a new learner sees it
            continue
        name, done = TRAIN[kind]
        lab.get_by_role("button", name=re.compile(name)).click()
        try:
            lab.locator(".course-lab__status").filter(has_text=done).wait_for(timeout=180_000)
        except PlaywrightTimeout:  # shoot the page as it is, and say so
            status = lab.locator(".course-lab__status").first.inner_text()
            print(f"  warning: the {kind} lab did not finish training: {status!r}", file=sys.stderr)
        page.wait_for_timeout(500)  # the last picture (the network) comes one call later


def shoot(browser, url, path, size, palette, train):
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", service_workers="block",
                                  device_scale_factor=1, color_scheme="dark" if palette == "dark" else "light")
    context.add_init_script(f"localStorage.setItem('/.__palette', {json.dumps(json.dumps(PALETTES[palette]))});")
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if page.locator(".course-exercise, .course-lab").count():
        wait_until(page, READY)
    if train:
        train_labs(page)
    page.evaluate("window.scrollTo(0, 0)")  # from the top: Material's sticky header and sidebars in place
    page.wait_for_timeout(800)  # editors upgrade and fonts settle once Python is up
    scheme = page.evaluate("document.body.dataset.mdColorScheme")
    expected = PALETTES[palette]["color"]["scheme"]
    if scheme != expected:
        raise RuntimeError(f"{url}: palette {scheme!r}, not {expected!r}")
    page.screenshot(path=str(path), full_page=True)
    context.close()


def quiet_closed_connections(server):
    """A page closed mid-download resets its connection: not worth a traceback."""
    report = server.handle_error

    def handle_error(request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            report(request, client_address)

    server.handle_error = handle_error


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="level pages (default: every level page)")
    parser.add_argument("--out", default=str(ROOT / "screenshots"))
    parser.add_argument("--no-train", action="store_true", help="do not train the training labs first")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, url = build_and_serve(Path(tmp) / "site")
        quiet_closed_connections(server)
        try:
            pages = args.pages or level_pages(Path(tmp) / "site")
            with sync_playwright() as p:
                browser = p.chromium.launch(**launch_args(p.chromium))
                for name in pages:
                    page_url = f"{url}/" if name == "index" else f"{url}/{name}/"
                    for size in SIZES:
                        for palette in PALETTES:
                            path = out / f"{name}-{size}-{palette}.png"
                            shoot(browser, page_url, path, size, palette, train=not args.no_train)
                            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, flush=True)
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
