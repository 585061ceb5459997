"""The test browser itself: what conftest.py turns off stays off."""

import contextlib
from pathlib import Path

from tools.chromium import BROWSER_UI_OFF

from .conftest import BASELINE_WASM_ONLY


def test_no_window_preloads_browser_ui(browser, browser_type_launch_args):
    """Each test's context is a new window; its omnibox popups would be a renderer of their
    own in every test. A new Chromium that renames the features would bring them back."""
    switch = browser_type_launch_args["args"][-1]
    assert all(feature in switch for feature in BROWSER_UI_OFF)
    context = browser.new_context()
    context.new_page().goto("data:text/html,<p>hello</p>")
    targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    context.close()
    assert [t["url"] for t in targets if t["type"] not in ("page", "worker")] == []




def test_the_tests_renderers_keep_wasm_in_its_baseline_compiler(browser):
    """The one switch of the tests' browser that the benchmarks' lacks (conftest.py)
    reaches the renderers, where V8 reads it, whole: Chromium keeps one `--js-flags`."""
    context = browser.new_context()
    context.new_page().goto("data:text/html,<p>hello</p>")
    renderers = [line for line in command_lines() if "--type=renderer" in line]
    context.close()
    assert renderers
    assert all(line.count("--js-flags") == 1 and BASELINE_WASM_ONLY in line for line in renderers)


def command_lines():
    """The command line of every Chromium process on this machine, as one string each
    (Linux's /proc; Chromium's child processes rewrite theirs as one string)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            line = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if line.split(" ", 1)[0].endswith("chromium"):
                found.append(line)
    return found
