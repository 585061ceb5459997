"""How every script here launches Debian's Chromium: the tests, the benchmarks and the
screenshots open the same browser, with the same switches.

Playwright's own browser download can't work on this machine, so each launch names
/usr/bin/chromium. Each new window (each test's context, each bench visit's fresh
profile) also preloads the omnibox's popups, in a renderer of their own that costs about
1.1-1.4 s of CPU, a fifth of a cold visit of a level, while the page is loading
(benchmarks/README.md). No page shows them, so they are off.
"""

CHROMIUM = "/usr/bin/chromium"
QUIET = ["--disable-background-networking", "--disable-component-update", "--no-first-run"]
BROWSER_UI_OFF = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]


def disable_features(browser_type, launch_args, features):
    """The `--disable-features` switch that adds `features` to Playwright's own. Chromium
    keeps only the last such switch, and Playwright passes one; its list is read from a
    probe launch, so that a new Playwright's list is kept whole."""
    probe = browser_type.launch(**{**launch_args, "args": [*launch_args.get("args", []), "--enable-automation"]})
    try:
        argv = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        probe.close()
    given = [f for a in argv if a.startswith("--disable-features=") for f in a.split("=", 1)[1].split(",") if f]
    return "--disable-features=" + ",".join(dict.fromkeys([*given, *features]))


_switches = {}  # the probe's answer, once a process: a bench launches a browser a visit


def launch_args(browser_type, **given):
    """Keyword arguments for `browser_type.launch` or `launch_persistent_context`:
    Debian's Chromium, quiet, with no browser UI in its windows; `given` on top."""
    launch = {**given, "executable_path": CHROMIUM, "args": [*QUIET, *given.get("args", [])]}
    key = tuple(launch["args"])
    if key not in _switches:
        _switches[key] = disable_features(browser_type, launch, BROWSER_UI_OFF)
    return {**launch, "args": [*launch["args"], _switches[key]]}
