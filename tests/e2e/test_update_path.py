"""A new build reaches a returning learner: build v1, visit, rebuild with a changed
mistake message, visit again and see v2 (at the next page load or the one after),
with the learner's progress kept; then the same with the network off, where the
old service worker, still serving the page, must not recreate the cache that the
new one deleted.

The server sends `_headers` as a static host would (assets cached a year, immutable),
and the browser keeps its HTTP cache between visits, so a file whose name did not
change with its bytes would show the old message here.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader.catalog import load
from tools.site_server import serve

from .conftest import wait_until
from .helpers import controlled_page
from .pages import Level

ROOT = Path(__file__).resolve().parents[2]
MISTAKE = "fixes-only-add"
NEW_MESSAGE = "Version two: your product still assigns its gradients; add them in."


def build(site, exercises, port):
    """The course as `make build` makes it, from a copy of the exercises."""
    config = (ROOT / "mkdocs.yml").read_text()
    config = config.replace("docs_dir: docs", f"docs_dir: {ROOT / 'docs'}")
    config = re.sub(r"^watch:\n(  - .*\n)+", "", config, flags=re.M)  # `mkdocs serve` only, relative paths
    config = re.sub(r"^  - course$", f"  - course:\n      exercises_dir: {exercises}\n"
                    f"      pyodide_dir: {ROOT / 'node_modules/pyodide'}\n"
                    f"      runtime_dir: {ROOT / 'course_browser/dist'}", config, count=1, flags=re.M)
    path = exercises.parent / "mkdocs.yml"
    path.write_text(config)
    env = {**os.environ, "SITE_URL": f"http://127.0.0.1:{port}/", "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(path),
                    "-d", str(site)], cwd=ROOT, env=env, check=True)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    work = tmp_path_factory.mktemp("update-path")
    exercises = work / "exercises"
    shutil.copytree(ROOT / "exercises", exercises)
    site = work / "site"
    site.mkdir()
    server, port = serve(site)
    build(site, exercises, port)
    yield site, exercises, port, f"http://127.0.0.1:{port}"
    server.shutdown()


def mistake_verdict(level):
    ex = level.exercise("diamond")
    return ex.replace_code(next(m.code for m in load("diamond").mistakes if m.name == MISTAKE)).check()


def progress_kept(level):
    """The learner's answer from the first visit, still there."""
    expect(level.question("diamond-grad").feedback).to_contain_text("Right")


def test_a_new_build_reaches_a_returning_learner(browser, course):
    site, exercises, port, url = course
    old_message = next(m.message for m in load("diamond").mistakes if m.name == MISTAKE)
    context, page = controlled_page(browser, url + "/accumulate/")
    level = Level(page, url, "accumulate")
    expect(level.question("diamond-grad").answer("2")).to_contain_text("Right")  # the learner's progress
    expect(mistake_verdict(level)).to_contain_text(old_message[:30])

    toml = exercises / "diamond" / "exercise.toml"
    toml.write_text(toml.read_text().replace(old_message, NEW_MESSAGE))
    build(site, exercises, port)  # v2: same URLs for the pages, a changed mistake message

    for _visit in range(2):  # the next page load, or the one after it
        if NEW_MESSAGE in mistake_verdict(level.open()).inner_text():
            break
    else:
        pytest.fail("two visits after the rebuild still showed the old message")
    progress_kept(level)

    context.close()


def test_the_new_build_is_what_a_returning_learner_gets_offline(browser, course):
    site, exercises, port, url = course
    toml = exercises / "diamond" / "exercise.toml"
    message = next(m.message for m in load("diamond").mistakes if m.name == MISTAKE)
    context, page = controlled_page(browser, url + "/accumulate/")
    level = Level(page, url, "accumulate")
    expect(level.question("diamond-grad").answer("2")).to_contain_text("Right")
    first_cache = page.evaluate("caches.keys()")
    text = toml.read_text()
    toml.write_text(text.replace(NEW_MESSAGE if NEW_MESSAGE in text else message, message + " (v3)"))
    build(site, exercises, port)
    level.open()
    # the new service worker takes over and caches v3: the same holds offline
    wait_until(page, f"caches.keys().then(k => k.length === 1 && k[0] !== {first_cache[0]!r})", timeout=120_000)
    context.set_offline(True)
    expect(mistake_verdict(level.open())).to_contain_text("(v3)")
    progress_kept(level)
    context.close()
