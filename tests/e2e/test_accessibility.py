"""Every page has no serious or critical accessibility violation (axe), in both
palettes: the light one, and the dark one a learner picks or their system asks for."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import wait_for_python, wait_until
from .helpers import all_pages, transitions_done

DOCS = Path(__file__).resolve().parents[2] / "docs"
PATHS = sorted("/" if md.stem == "index" else f"/{md.stem}/" for md in DOCS.glob("*.md"))
SCHEMES = ("default", "slate")


@pytest.fixture(scope="module")
def axe():
    return Axe()


def test_every_page_of_the_nav_is_checked(page, site):
    nav = {url.removeprefix(site) for url in all_pages(page, site)}
    assert nav <= set(PATHS), nav - set(PATHS)


@pytest.mark.parametrize("path", PATHS)
def test_no_serious_accessibility_violations(page, site, axe, path):
    """After Python is up and the editors are CodeMirror's: one visit, both palettes."""
    page.goto(site + path)
    page.wait_for_load_state("networkidle")
    if page.locator(".course-exercise").count():
        wait_for_python(page)
        wait_until(page, "document.querySelectorAll('.course-exercise .cm-content').length > 0")
    expect(page.locator(".course-lab:not([data-mounted])")).to_have_count(0)
    problems = []
    for scheme in SCHEMES:
        page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
        transitions_done(page)  # the palette's colours, not halfway to them
        for violation in axe.run(page).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in violation["nodes"]][:3]
                problems.append(f"{scheme}: {violation['id']} ({violation['impact']}): {targets}")
    assert problems == [], "\n".join(problems)
