"""Progress storage: disabled storage, a full quota, old schemas, export and import."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .helpers import LEVEL, SIZES, confirm, reloading
from .pages import Level
from .saved import KEY, progress, saved_progress, seed_progress, solved, write_progress

ROOT = Path(__file__).resolve().parents[2]


def test_storage_disabled_leaves_the_site_working(browser, site):
    # As with cookies blocked in Chrome: touching localStorage throws. (Material's own
    # scripts stumble on that too, so this test does not insist on a clean console.)
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.add_init_script("""
        Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });""")
    level = Level(page, site, "autograd").open(python=False)
    expect(page.locator(".course-notices")).to_contain_text("kept only until you leave the page")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    expect(level.question("quiz-dl-da").answer("-8")).to_contain_text("Right")
    context.close()


def test_full_quota_is_reported_and_nothing_breaks(page, site):
    level = Level(page, site, "autograd").open(python=False)
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException('full', 'QuotaExceededError'); }; }""")
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    expect(page.locator(".course-notices")).to_contain_text("storage is full")


def test_old_schema_is_reset_with_a_notice(page, site):
    Level(page, site, "autograd").open({"version": 0, "answers": {}}, python=False)
    expect(page.locator(".course-notices")).to_contain_text("saved by another version of the course")
    assert saved_progress(page, f"{KEY}-backup")["version"] == 0


def test_export_reset_and_import_progress(page, site, tmp_path):
    level = Level(page, site, "autograd").open(python=False)
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")
    page.goto(site + "/")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export progress").click()
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["levels"]["autograd"]["items"]["quiz-square"]["solved"] is True

    page.get_by_role("button", name="Reset all progress").click()
    with reloading(page):
        confirm(page, "Reset all progress")
    expect(level.open(python=False).question("quiz-square").feedback).to_be_empty()

    page.goto(site + "/")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    chooser.value.set_files(str(saved))
    dialog = page.locator("dialog.course-dialog")  # it asks first, saying what each side holds
    expect(dialog).to_contain_text("In this browser now: 0 levels cleared, 0 questions and exercises solved")
    expect(dialog).to_contain_text("In progress.json: 0 levels cleared, 1 question or exercise solved")
    with reloading(page):  # the import reloads the page, and the page that loads says what came in
        confirm(page, "Replace")
    expect(page.locator(".course-notices")).to_have_text(re.compile(
        r"^Imported progress\.json \(0 levels cleared, 1 question or exercise solved, code saved for \d+ exercises?\), "
        r"in place of the progress that was here\.$"))
    expect(level.open(python=False).question("quiz-square").feedback).to_contain_text("Right")
    page.goto(site + "/")
    expect(page.locator(".course-notices")).to_have_count(0)  # said once

    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    page.goto(site + "/")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    chooser.value.set_files(str(bad))
    expect(page.get_by_text("Could not import: This file is not a progress file of this course.")).to_be_visible()

    bad.write_text("<html>not a progress file</html>")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    chooser.value.set_files(str(bad))
    expect(page.locator(".course-feedback")).to_have_text(
        "Could not import: This file is not a progress file: it is not even JSON, so it may be damaged or another "
        "kind of file. Choose the file that Export progress saved (autograd-course-progress.json).")


def import_file(page, path):
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    chooser.value.set_files(str(path))


def test_import_can_merge_or_be_cancelled(page, site, tmp_path):
    mine = progress({"autograd": solved("quiz-square")})
    theirs = progress({"autograd": solved("quiz-dl-da")})
    seed_progress(page, mine)
    page.goto(site + "/")
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps(theirs))
    import_file(page, path)
    confirm(page, "Cancel")
    expect(page.locator(".course-feedback")).to_have_text("Nothing imported: your progress is as it was.")
    assert saved_progress(page)["levels"] == mine["levels"]
    import_file(page, path)
    with reloading(page):
        confirm(page, "Merge")
    expect(page.locator(".course-notices")).to_contain_text("merged with the progress already here")
    items = saved_progress(page)["levels"]["autograd"]["items"]
    assert items["quiz-square"]["solved"] and items["quiz-dl-da"]["solved"]


@pytest.mark.parametrize("size", SIZES)
def test_a_crafted_resume_link_off_the_site_is_neutralised(page, site, tmp_path, size):
    page.set_viewport_size(SIZES[size])
    page.goto(site + "/")
    bad = tmp_path / "crafted.json"
    for url in ("https://evil.example/", "//evil.example/autograd/", "/\\evil.example/", "javascript:alert(document.domain)"):
        crafted = progress({"nudges": {"items": {"q": {"solved": True, "extra": "<b>x</b>"}}}}, planted={"a": 1},
                           last={"url": url, "title": "Go", "level": "autograd", "onclick": "alert(1)"})
        bad.write_text(json.dumps(crafted))
        import_file(page, bad)
        expect(page.locator("dialog.course-dialog")).to_contain_text(
            "Left out of the file: its Resume link, which did not point to a page of this course; fields this course does not use.")
        if url.startswith("https"):
            page.screenshot(path=str(ROOT / "screenshots" / f"import-asks-{size}.png"))
        with reloading(page):
            confirm(page, "Replace")
        saved = saved_progress(page)
        assert "last" not in saved and "planted" not in saved, saved
        assert saved["levels"]["nudges"]["items"]["q"] == {"solved": True}
        hrefs = page.eval_on_selector_all(".course-resume a", "els => els.map(a => a.href)")
        assert all(h.startswith(site) for h in hrefs), hrefs
    for wrong in ({"levels": {"autograd": {"items": {"q": {"solved": "yes"}}}}}, {"code": {"slot": 1}},
                  {"levels": {"autograd": {"items": {}, "stars": 99}}}):
        bad.write_text(json.dumps({**crafted, "last": {"url": "/autograd/", "title": "Go"}, **wrong}))
        import_file(page, bad)
        expect(page.get_by_text("Could not import: This file is not a progress file of this course.")).to_be_visible()


def test_the_resume_link_takes_only_a_path_on_this_site(page, site):
    page.goto(site + "/")
    for url in ("javascript:alert(1)", " JaVa\tScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>",
                "https://evil.example/", "//evil.example/"):
        # written where only the page's own code could (a stale or tampered entry): the link is not rendered
        write_progress(page, {**(saved_progress(page) or progress()), "last": {"url": url, "title": "Go", "level": "autograd"}})
        page.reload()
        hrefs = page.eval_on_selector_all(".course-resume a", "els => els.map(a => a.href)")
        assert all(h.startswith(site) for h in hrefs), hrefs
    Level(page, site, "autograd").open(python=False)
    page.goto(site + "/")
    expect(page.locator(".course-resume a")).to_have_attribute("href", site + LEVEL)


def save_code(tab, text, at):
    """Save `text` as the sub-backward code at time `at`, as progress.js in `tab` would."""
    data = saved_progress(tab)
    write_progress(tab, {**data, "code": {**data["code"], "quiz-sub-backward": text},
                         "codeTimes": {**data.get("codeTimes", {}), "quiz-sub-backward": at}})


def test_two_tabs_keep_each_others_progress(browser, site):
    context = browser.new_context(service_workers="block")
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.set_default_timeout(20_000)
    mine, theirs = (Level(tab, site, "autograd").open(python=False) for tab in (first, second))
    expect(mine.question("quiz-square").answer("10")).to_contain_text("Right")
    expect(theirs.question("quiz-dl-da").answer("-8")).to_contain_text("Right")  # saves after the first tab did
    saved = saved_progress(first)["levels"]["autograd"]["items"]
    assert saved["quiz-square"]["solved"] and saved["quiz-dl-da"]["solved"]
    # code: the newer save wins, whichever tab saved it (another tab's save, written as progress.js does)
    first.evaluate("""() => { window.heard = new Promise((done) => {
        let n = 0; addEventListener('storage', () => { if (++n === 2) done(); }); }); }""")
    save_code(second, "# newer\n", 4_000_000_000_000)
    save_code(second, "# older\n", 1)  # a stale tab's save arrives after it
    first.evaluate("window.heard")  # both reached the first tab (its progress.js listens before this test)
    expect(mine.question("dl-dd").answer("7")).to_contain_text("Right")  # the first tab saves its own progress
    data = saved_progress(first)
    assert data["code"]["quiz-sub-backward"] == "# newer\n"
    items = data["levels"]["autograd"]["items"]
    assert items["quiz-dl-da"]["solved"] and items["quiz-square"]["solved"] and items["dl-dd"]["solved"]
    first.reload()
    expect(mine.question("quiz-dl-da").feedback).to_contain_text("Right")
    context.close()


def test_lab_inputs_survive_a_reload(page, site):
    """x0 of the nudge lab and a typed expression come back after a reload, recomputed."""
    lab = Level(page, site, "nudges").open().lab("tangent")
    lab.field("x₀, where to measure the slope").fill("3")
    lab.field("Nudge size h").select_option("1")
    expect(lab.root.get_by_role("status")).to_contain_text("At x₀ = 3 with h = 1:", timeout=30_000)
    page.reload()
    expect(lab.field("x₀, where to measure the slope")).to_have_value("3")
    expect(lab.field("Nudge size h")).to_have_value("1")
    expect(lab.root.get_by_role("status")).to_contain_text("At x₀ = 3 with h = 1:", timeout=30_000)

    lab = Level(page, site, "alive").open().lab("expression").draw("a*b + c")
    graph = lab.locator("svg.course-lab__graph")
    expect(graph.locator(".course-lab__node")).to_have_count(5)
    page.reload()
    expect(lab.field("Expression")).to_have_value("a*b + c")
    expect(graph.locator(".course-lab__node")).to_have_count(5, timeout=30_000)
    saved = saved_progress(page)
    assert saved["labs"] == {"/nudges/|tangent#0|x0": "3", "/nudges/|tangent#0|h": "1",
                             "/alive/|expression#0|expression": "a*b + c"}, saved["labs"]
