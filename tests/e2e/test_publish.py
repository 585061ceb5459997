"""Published under a sub-path, as GitHub Pages serves a project site
(https://user.github.io/<repo>/): built with that site_url, the pages, the 404 page
and Python all work from /course/, and canonical links name the real address."""

import functools
import os
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

from course_build.headers import header_rules
from tools.site_server import Handler

from .helpers import answer
from .test_hardening import python_ready, wait_until

ROOT = Path(__file__).resolve().parents[2]
MOUNT = "/course/"


class SubPathHandler(Handler):
    """The site under /course/, and its 404.html (status 404) for any missing path, as
    GitHub Pages, Netlify and Cloudflare Pages do."""

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / MOUNT.strip("/") / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    root = tmp_path_factory.mktemp("host")
    site = root / MOUNT.strip("/")
    handler = type("H", (SubPathHandler,), {"rules": property(lambda self: header_rules(site))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}{MOUNT}"
    env = {**os.environ, "SITE_URL": url, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
                   cwd=ROOT, env=env, check=True)
    yield site, url
    server.shutdown()


def test_the_404_page_works_at_any_depth(page, published):
    _, url = published
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 and
            r.request.resource_type != "document" else None)
    response = page.goto(url + "no/such/page/")
    assert response.status == 404
    expect(page.get_by_role("heading", name="404 - Not found")).to_be_visible()
    header_height = page.evaluate("document.querySelector('.md-header').getBoundingClientRect().height")
    assert header_height > 20  # Material's stylesheet applied
    page.get_by_role("link", name="Build your own autograd").first.click()
    expect(page).to_have_url(url)
    assert failed == []


def test_a_level_works_under_the_sub_path(browser, published):
    _, url = published
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url + "accumulate/")
    python_ready(page)
    expect(answer(page, "diamond-grad", "2")).to_contain_text("Right")
    wait_until(page, "navigator.serviceWorker.controller !== null", timeout=120_000)
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => new URL(r.scope).pathname)") == MOUNT
    context.close()


def test_headers_apply_under_the_sub_path(page, published):
    """`_headers` rules are written under site_url's path: the policy and the year-long
    cache reach the files a host serves there."""
    _, url = published
    response = page.goto(url + "autograd/")
    assert "script-src" in response.headers.get("content-security-policy", "")
    script = page.evaluate("[...document.scripts].map(s => s.src).find(s => s.includes('/assets/course/course.'))")
    assert "immutable" in page.request.get(script).headers.get("cache-control", "")


def test_canonical_links_and_the_sitemap_name_the_published_address(published):
    site, url = published
    assert f'<link rel="canonical" href="{url}autograd/">' in (site / "autograd/index.html").read_text()
    assert f"<loc>{url}autograd/</loc>" in (site / "sitemap.xml").read_text()
