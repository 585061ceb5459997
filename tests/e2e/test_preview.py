"""The instructor's preview: `make preview` (mkdocs serve, COURSE_PREVIEW=1) opens
every lock and shows every answer, writes no progress, and reloads the browser when a
page changes (its development CSP lets MkDocs' live-reload script run). `mkdocs build`
never carries either, whatever the environment says."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.small_course import course_config

from .saved import saved_progress

ROOT = Path(__file__).resolve().parents[2]
PAGE = """# Preview me

/// level | t
///

/// question | q-one
    answer: 42
    look: "Count again."
What is six times seven?
///

/// locked | q-one
Behind the lock.
///
"""


def course(tmp_path):
    docs, exercises = tmp_path / "docs", tmp_path / "exercises"
    docs.mkdir()
    exercises.mkdir()
    (docs / "index.md").write_text(PAGE)
    config = course_config(tmp_path, docs, exercises)
    return config, docs / "index.md"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def preview(tmp_path):
    config, page = course(tmp_path)
    port = free_port()
    env = {**os.environ, "COURSE_PREVIEW": "1", "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--livereload", "-f", str(config),
                               "--dev-addr", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("mkdocs serve did not start")
            time.sleep(0.5)  # between polls of the server: a process, with no page to wait on yet
    yield url, page
    server.terminate()
    server.wait(timeout=30)


def test_preview_opens_locks_shows_answers_and_reloads_on_edit(browser, preview):
    url, source = preview
    context = browser.new_context(service_workers="block", bypass_csp=False)
    page = context.new_page()
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(url)
    expect(page.get_by_text("Behind the lock.")).to_be_visible()
    expect(page.get_by_text("Preview: Answer (q-one): 42")).to_be_visible()
    # opening the lock and showing the answer record nothing: q-one is still unanswered
    saved = saved_progress(page) or {}
    level = saved.get("levels", {}).get("t", {})
    assert not level.get("cleared") and not any(i.get("solved") or i.get("shown")
                                                for i in level.get("items", {}).values()), saved
    source.write_text(PAGE.replace("Behind the lock.", "Edited while previewing."))
    expect(page.get_by_text("Edited while previewing.")).to_be_visible(timeout=60_000)  # live reload
    assert violations == []
    context.close()


def test_a_built_site_has_no_preview_and_no_development_policy(tmp_path):
    config, _ = course(tmp_path)
    env = {**os.environ, "COURSE_PREVIEW": "1", "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(tmp_path / "site")],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    html = (tmp_path / "site" / "index.html").read_text()
    assert "Preview:" not in html and "course-preview" not in html and 'class="course-locked"' in html
    assert "'unsafe-inline'" not in html.split("script-src", 1)[1].split(";", 1)[0]
    assert (tmp_path / "site" / "sw.js").is_file()
