"""Published under a sub-path, as GitHub Pages serves a project site
(https://user.github.io/<repo>/): built with that site_url, the pages, the 404 page
and Python all work from /course/, and canonical links name the real address."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tools.site_server import serve

from .conftest import wait_for_python
from .helpers import controlled_page
from .pages import Question

ROOT = Path(__file__).resolve().parents[2]
MOUNT = "/course/"


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """The site under /course/, with its 404.html (status 404) for any missing path, as
    GitHub Pages, Netlify and Cloudflare Pages serve a project site."""
    site = tmp_path_factory.mktemp("host") / MOUNT.strip("/")
    server, port = serve(site, mount=MOUNT)
    url = f"http://127.0.0.1:{port}{MOUNT}"
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
    context, page = controlled_page(browser, url + "accumulate/")
    expect(Question(page, "diamond-grad").answer("2")).to_contain_text("Right")
    wait_for_python(page)  # Pyodide, the snapshot and the course's Python, all from under the sub-path
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
