"""What a keyboard reaches, found in the second new-learner pass: a shown answer
scrolls by keyboard (its lines were cut off on a phone), code opened by a lock is
reachable like the rest, and training keeps the focus on its button."""

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import wait_until
from .helpers import SIZES
from .pages import Level
from .saved import progress, solved


def _cleared(level):
    return progress({level: {"items": {}, "cleared": True, "stars": 3, "via": "quiz"}})


def test_a_shown_answer_scrolls_by_keyboard_on_a_phone(page, site):
    page.set_viewport_size(SIZES["phone"])
    shown = Level(page, site, "autograd").open().exercise("quiz-sub-backward").show_answer()
    expect(shown).to_have_js_property("tagName", "PRE")
    expect(shown).to_be_focused()
    assert shown.evaluate("p => p.scrollWidth > p.clientWidth"), "a phone is narrower than the answer's lines"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    wait_until(page, "document.querySelector('pre.course-answer').scrollLeft > 0")
    found = [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert "scrollable-region-focusable" not in found


def test_code_that_a_lock_opens_is_reachable_by_keyboard(page, site):
    page.set_viewport_size(SIZES["phone"])
    level = Level(page, site, "more-ops").open(_cleared("more-ops"), python=False)
    expect(level.stars).to_contain_text("★")
    unreachable = page.evaluate("""[...document.querySelectorAll('article pre > code')]
        .filter((c) => c.checkVisibility() && c.scrollWidth > c.clientWidth && c.tabIndex < 0).map((c) => c.id)""")
    assert unreachable == []


def test_training_keeps_the_focus_on_its_button(page, site):
    lab = Level(page, site, "train").open(progress({"train": solved("sgd-step")})).lab("training")
    train = lab.button(re.compile("^Train"))
    train.focus()
    page.keyboard.press("Enter")
    expect(train).to_have_attribute("aria-disabled", "true")
    expect(train).to_be_focused()  # busy, not disabled: the focus stays
    page.keyboard.press("Enter")  # a second press while busy starts nothing
    expect(lab.status.first).to_contain_text("Trained with learning rate", timeout=120_000)
    expect(train).to_be_focused()
    expect(train).not_to_have_attribute("aria-disabled", "true")


def test_on_a_phone_tab_never_lands_in_the_closed_drawer(page, site):
    page.set_viewport_size(SIZES["phone"])
    Level(page, site, "autograd").open(python=False)
    offscreen = []
    for _ in range(25):
        page.keyboard.press("Tab")
        # (a visually hidden radio, as Material's palette switch, shows its focus on the label after it)
        where = page.evaluate("""(() => { const a = document.activeElement;
            const e = a.getBoundingClientRect().width ? a : (a.nextElementSibling?.tagName === 'LABEL' ? a.nextElementSibling : a); const r = e.getBoundingClientRect();
            return { on: r.right > 0 && r.left < innerWidth && r.width > 0, what: e.tagName + ' ' + (e.textContent || '').trim().slice(0, 30) }; })()""")
        if not where["on"]:
            offscreen.append(where["what"])
    assert offscreen == []
    # opened, the drawer and its links are there as before
    page.locator("label.md-header__button[for='__drawer']").click()
    expect(page.locator(".md-sidebar--primary").get_by_role("link", name="Course map").first).to_be_visible()
