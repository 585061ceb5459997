"""The test browser itself: what conftest.py turns off stays off."""

from tools.chromium import BROWSER_UI_OFF


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
