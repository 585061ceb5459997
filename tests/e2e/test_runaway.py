"""Runaway and hostile learner code: the page stays responsive, the code is kept,
the message says what happened, and the next run works. Stop ends the run's
interpreter on any host: a plain static one and a cross-origin isolated one."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import wait_for_python
from .helpers import LEVEL, exercise, replace_code

SLOT = "quiz-backward-tail"


@pytest.fixture(params=["plain", "isolated"])
def any_site(request):
    return request.getfixturevalue("site" if request.param == "plain" else "isolated_site"), request.param


def open_editor(page, url):
    page.goto(url + LEVEL)
    wait_for_python(page)
    return exercise(page, SLOT)


def run(ex, name="Run"):
    ex.get_by_role("button", name=name, exact=True).click()


def result(ex):
    return ex.locator(".course-result")


def expect_next_run_works(page, ex):
    replace_code(page, ex, "print('still here', 6 * 7)")
    run(ex)
    expect(result(ex)).to_contain_text("still here 42", timeout=30_000)


def test_isolation_is_detected(page, any_site):
    url, mode = any_site
    page.goto(url + LEVEL)
    assert page.evaluate("crossOriginIsolated") is (mode == "isolated")


def test_stop_button_ends_an_infinite_loop(page, any_site):
    url, mode = any_site
    ex = open_editor(page, url)
    replace_code(page, ex, "while True:\n    pass\n")
    run(ex)
    stop = ex.get_by_role("button", name="Stop")
    expect(stop).to_be_visible()
    assert page.evaluate("1 + 1") == 2  # the page answers while Python spins
    stop.click()
    expect(result(ex)).to_contain_text("Stopped", timeout=15_000)
    expect(stop).to_be_hidden()
    assert page.evaluate("window.__coursePython.restarts") == 1  # the run's interpreter, ended
    ex.locator(".course-editor").evaluate("el => el.scrollIntoView({block: 'start'})")
    expect(ex.locator(".cm-content")).to_contain_text("while True:")  # the code is kept
    expect_next_run_works(page, ex)


def test_watchdog_stops_a_check_that_never_ends(page, any_site):
    url, _ = any_site
    ex = open_editor(page, url)
    replace_code(page, ex, "while True:\n    x = 1\n")
    run(ex, "Check")
    expect(result(ex)).to_contain_text("ran too long", timeout=30_000)
    expect_next_run_works(page, ex)


def test_sleep_is_stopped(page, site):
    ex = open_editor(page, site)
    replace_code(page, ex, "import time\ntime.sleep(100)\n")
    run(ex)
    expect(ex.get_by_role("button", name="Stop")).to_be_visible()
    ex.get_by_role("button", name="Stop").click()
    expect(result(ex)).to_contain_text("Stopped", timeout=15_000)
    expect_next_run_works(page, ex)


@pytest.mark.parametrize("code,words", [
    ("for i in range(10**6):\n    print(i)\n", "output truncated"),
    ("x = [0] * 10**10\n", re.compile("MemoryError|OverflowError")),
    ("import sys\nsys.exit()\n", "exit()"),
    ("raise SystemExit\n", "exit()"),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError"),
    ("name = input('name? ')\n", "EOFError"),
    ("import js\njs.postMessage('forged')\n", "not available in exercises"),
])
def test_bad_input_gets_a_clear_message(page, site, code, words):
    ex = open_editor(page, site)
    replace_code(page, ex, code)
    run(ex)
    expect(result(ex)).to_contain_text(words, timeout=30_000)
    if "output truncated" not in str(words):  # a Run grades nothing: no "Not yet", no checks
        expect(result(ex).locator(".course-result__headline")).to_contain_text(re.compile(r"^(Error|Stopped) — "))
        expect(result(ex)).not_to_contain_text("checks")
    expect_next_run_works(page, ex)


def test_code_that_kills_python_is_survived(page, site):
    ex = open_editor(page, site)
    replace_code(page, ex, "import os\nos._exit(0)\n")
    run(ex)
    expect(result(ex)).to_contain_text("restarted", timeout=30_000)
    expect_next_run_works(page, ex)
