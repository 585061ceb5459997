"""Runaway and hostile learner code: the page stays responsive, the code is kept,
the message says what happened, and the next run works. Stop ends the run's
interpreter on any host: a plain static one and a cross-origin isolated one. The tests
of a sleep, bad input and a dead interpreter take turns on one page, so each one's run
also follows what the last one's did; those that count restarts have pages of their own."""

import re

import pytest
from playwright.sync_api import expect

from tools.marks import restarts

from .pages import Level

SLOT = "quiz-backward-tail"


@pytest.fixture(params=["plain", "isolated"])
def any_site(request):
    return request.getfixturevalue("site" if request.param == "plain" else "isolated_site"), request.param


def open_editor(page, url):
    return Level(page, url, "autograd").open().exercise(SLOT)


@pytest.fixture
def shared_editor(shared_page, site):
    return Level(shared_page, site, "autograd").visit().exercise(SLOT)


def expect_next_run_works(ex):
    expect(ex.replace_code("print('still here', 6 * 7)").run()).to_contain_text("still here 42")


def test_isolation_is_detected(page, any_site):
    url, mode = any_site
    Level(page, url, "autograd").open(python=False)
    assert page.evaluate("crossOriginIsolated") is (mode == "isolated")


def test_stop_button_ends_an_infinite_loop(page, any_site):
    url, mode = any_site
    ex = open_editor(page, url)
    ex.replace_code("while True:\n    pass\n").button("Run").click()
    stop = ex.button("Stop")
    expect(stop).to_be_visible()
    assert page.evaluate("1 + 1") == 2  # the page answers while Python spins
    stop.click()
    expect(ex.result).to_contain_text("Stopped", timeout=15_000)
    expect(stop).to_be_hidden()
    assert restarts(page) == [("runner", "stop")]  # the run's interpreter, and no other
    expect(ex.scroll_to_top().editor).to_contain_text("while True:")  # the code is kept
    expect_next_run_works(ex)


def test_watchdog_stops_a_check_that_never_ends(page, any_site):
    url, _ = any_site
    ex = open_editor(page, url)
    expect(ex.replace_code("while True:\n    x = 1\n").check()).to_contain_text("ran too long")
    expect_next_run_works(ex)


def test_sleep_is_stopped(shared_editor):
    ex = shared_editor
    expect(ex.replace_code("print('one\\ntwo\\nthree\\nfour')").run()).to_contain_text("four")
    shown = ex.result.bounding_box()["height"]
    ex.replace_code("import time\ntime.sleep(100)\n").button("Run").click()
    expect(ex.button("Stop")).to_be_visible()
    # the last result's room is kept while this run goes on: what is below does not jump
    expect(ex.result).to_contain_text("Running")
    assert ex.result.bounding_box()["height"] == pytest.approx(shown, abs=1)
    ex.button("Stop").click()
    expect(ex.result).to_contain_text("Stopped", timeout=15_000)
    expect_next_run_works(ex)


@pytest.mark.parametrize("code,words", [
    # 590,000 characters, 30 times the output cap, and well inside the run's time limit
    # on a loaded machine (10**6 lines once ran into it and was stopped instead)
    ("for i in range(10**5):\n    print(i)\n", "output truncated"),
    ("x = [0] * 10**10\n", re.compile("MemoryError|OverflowError")),
    ("import sys\nsys.exit()\n", "exit()"),
    ("raise SystemExit\n", "exit()"),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError"),
    ("name = input('name? ')\n", "EOFError"),
    ("import js\njs.postMessage('forged')\n", "not available in exercises"),
])
def test_bad_input_gets_a_clear_message(shared_editor, code, words):
    ex = shared_editor
    result = ex.replace_code(code).run()
    expect(result).to_contain_text(words)
    if "output truncated" not in str(words):  # a Run grades nothing: no "Not yet", no checks
        expect(result.locator(".course-result__headline")).to_contain_text(re.compile(r"^(Error|Stopped) — "))
        expect(result).not_to_contain_text("checks")
    expect_next_run_works(ex)


def test_code_that_kills_python_is_survived(shared_editor):
    ex = shared_editor
    expect(ex.replace_code("import os\nos._exit(0)\n").run()).to_contain_text("restarted")
    expect_next_run_works(ex)
