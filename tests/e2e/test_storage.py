"""Progress storage: disabled storage, a full quota, old schemas, export and import."""

import json

from playwright.sync_api import expect

from .helpers import LEVEL, answer, question


def test_storage_disabled_leaves_the_site_working(browser, site):
    # As with cookies blocked in Chrome: touching localStorage throws. (Material's own
    # scripts stumble on that too, so this test does not insist on a clean console.)
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.add_init_script("""
        Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });""")
    page.goto(site + LEVEL)
    expect(page.locator(".course-notices")).to_contain_text("kept only until you leave the page")
    expect(answer(page, "quiz-square", "6")).to_contain_text("Right")
    expect(answer(page, "quiz-dl-da", "-6")).to_contain_text("Right")
    context.close()


def test_full_quota_is_reported_and_nothing_breaks(page, site):
    page.goto(site + LEVEL)
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException('full', 'QuotaExceededError'); }; }""")
    expect(answer(page, "quiz-square", "6")).to_contain_text("Right")
    expect(page.locator(".course-notices")).to_contain_text("storage is full")


def test_old_schema_is_reset_with_a_notice(page, site):
    page.add_init_script("""
        if (!sessionStorage.getItem('old')) {
            sessionStorage.setItem('old', '1');
            localStorage.setItem('byoa-progress', JSON.stringify({version: 0, answers: {}}));
        }""")
    page.goto(site + LEVEL)
    expect(page.locator(".course-notices")).to_contain_text("saved by another version of the course")
    assert json.loads(page.evaluate("localStorage.getItem('byoa-progress-backup')"))["version"] == 0


def test_export_reset_and_import_progress(page, site, tmp_path):
    page.goto(site + LEVEL)
    expect(answer(page, "quiz-square", "6")).to_contain_text("Right")
    page.goto(site + "/")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export progress").click()
    saved = tmp_path / "progress.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["levels"]["autograd"]["items"]["quiz-square"]["solved"] is True

    with page.expect_navigation():
        page.get_by_role("button", name="Reset all progress").click()  # confirm is accepted
    page.goto(site + LEVEL)
    expect(question(page, "quiz-square").locator(".course-feedback")).to_be_empty()

    page.goto(site + "/")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    with page.expect_navigation():
        chooser.value.set_files(str(saved))
    page.goto(site + LEVEL)
    expect(question(page, "quiz-square").locator(".course-feedback")).to_contain_text("Right")

    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    page.goto(site + "/")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import progress").click()
    chooser.value.set_files(str(bad))
    expect(page.get_by_text("Could not import: This file is not a progress file of this course.")).to_be_visible()
