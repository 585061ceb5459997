"""Page objects: a level, and on it an exercise, a question and a lab, driven as a learner
drives them (by role, label and key), so that a test reads as the learner's path:

    level = Level(page, site, "autograd").open()
    ex = level.exercise("quiz-sub-backward")
    ex.fill_blanks(*SUB_ANSWER)
    expect(ex.check()).to_contain_text("Passed")

The functions of helpers.py do the same one step at a time; these objects hold the page
and the widget's root, so a test does not pass them along.
"""

from playwright.sync_api import expect

from . import helpers
from .conftest import wait_for_python


class Level:
    """One page of the course: /<slug>/."""

    def __init__(self, page, site, slug):
        self.page, self.site, self.slug = page, site, slug

    @property
    def url(self):
        return f"{self.site}/{self.slug}/"

    def open(self, progress=None, python=True):
        """Go to the level, with `progress` (helpers.progress) saved before it loads, and
        (unless python=False) wait until Python is ready for a Check."""
        if progress is not None:
            helpers.seed_progress(self.page, progress)
        self.page.goto(self.url)
        if python:
            wait_for_python(self.page)
        return self

    @property
    def stars(self):
        return self.page.locator(".course-level .course-stars")

    def reset(self):
        """Reset my progress, confirmed in the course's dialog."""
        self.page.get_by_role("button", name="Reset my progress").click()
        helpers.confirm(self.page, "Reset this level")

    def exercise(self, slot):
        return Exercise(self.page, slot)

    def question(self, qid):
        return Question(self.page, qid)

    def lab(self, name):
        return Lab(self.page, name)


class Exercise:
    """An editor with its Run / Check / Stop buttons and its result."""

    def __init__(self, page, slot):
        self.page, self.root = page, helpers.exercise(page, slot)

    @property
    def editor(self):
        return self.root.locator(".cm-content")

    @property
    def result(self):
        return self.root.locator(".course-result")

    def button(self, name):
        return self.root.get_by_role("button", name=name, exact=True)

    def fill_blanks(self, *answers):
        helpers.fill_blanks(self.page, self.root, *answers)
        return self

    def replace_code(self, code):
        helpers.replace_code(self.page, self.root, code)
        return self

    def check(self, timeout=30_000):
        """Press Check and wait for the verdict; returns the result region."""
        return helpers.check(self.root, timeout)


class Question:
    """A question that unlocks what follows it: a number, or a choice."""

    def __init__(self, page, qid):
        self.page, self.qid, self.root = page, qid, helpers.question(page, qid)

    @property
    def feedback(self):
        return self.root.locator(".course-feedback")

    def answer(self, value):
        """Answer and press Check answer; returns the feedback."""
        return helpers.answer(self.page, self.qid, value)


class Lab:
    """An interactive widget (`/// lab | <name>`), ungraded."""

    def __init__(self, page, name):
        self.page, self.root = page, page.locator(f".course-lab[data-lab='{name}']")

    def button(self, name):
        return self.root.get_by_role("button", name=name)

    @property
    def status(self):
        return self.root.locator(".course-lab__status")

    def mounted(self):
        """Wait until the lab has drawn itself (the page marks it data-mounted)."""
        expect(self.root).to_have_attribute("data-mounted", "true")
        return self
