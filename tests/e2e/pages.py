"""Page objects: a level, and on it an exercise, a question and a lab, driven as a learner
drives them (by role, label and key), so that a test reads as the learner's path:

    level = Level(page, site, "autograd").open()
    level.exercise("quiz-sub-backward").solve(*SUB_ANSWER)
    expect(level.question("quiz-square").answer("10")).to_contain_text("Right")

Each waits on what the page shows the learner (a verdict's data-state, a Check button
no longer "(Python is loading)", a lab's data-mounted), never on a fixed time. These
objects hold the page and the widget's root, so a test does not pass them along; a few
steps (exercise, fill_blanks, check) live in helpers.py, which some tests call directly.
An exercise or question of the skip test opens the folded test when it is made: after a
reload, ask the level for it again.
"""

from playwright.sync_api import expect

from . import helpers
from .conftest import wait_for_python
from .saved import locks, progress, seed_progress, solved


class Level:
    """One page of the course: /<slug>/."""

    def __init__(self, page, site, slug):
        self.page, self.site, self.slug = page, site, slug

    @property
    def url(self):
        return f"{self.site}/{self.slug}/"

    def open(self, saved=None, python=True):
        """Go to the level, with `saved` (saved.progress) as the progress it finds, and
        (unless python=False) wait until Python is ready for a Check."""
        if saved is not None:
            seed_progress(self.page, saved)
        self.page.goto(self.url)
        return self.python_ready() if python else self

    @property
    def is_open(self):
        """The page is on this level (a link within the page leaves it there)."""
        return self.page.url.split("#")[0] == self.url

    def visit(self, python=True):
        """The level as `open` gives it, opened only if the page is not on it already: the
        first of the tests that share one page (conftest's shared_page) opens it."""
        if not self.is_open:
            return self.open(python=python)
        return self.python_ready() if python else self

    def python_ready(self):
        """Wait until Python is ready for a Check, as the page says (data-python)."""
        wait_for_python(self.page)
        return self

    def open_unlocked(self, python=False):
        """The level with every locked section open: each item that opens one, solved."""
        level, items, _ = locks(self.html())
        return self.open(progress({level: solved(*items)}), python=python)

    def open_around(self, slot, python=False):
        """The level with the locked sections around `slot` open (each item that opens one,
        solved), so that it is on screen; the other sections stay locked."""
        level, _, around = locks(self.html(), slot)
        return self.open(progress({level: solved(*around)}), python=python)

    def html(self):
        """The page's HTML as the server sends it: read without loading the page."""
        return self.page.request.get(self.url).text()

    @property
    def stars(self):
        return self.page.locator(".course-level .course-stars")

    @property
    def status(self):
        """The header's count of what is solved ("2 of 4")."""
        return self.page.locator(".course-level__status")

    def labs_mounted(self):
        """Wait until every lab of the page has drawn itself."""
        expect(self.page.locator(".course-lab:not([data-mounted])")).to_have_count(0, timeout=60_000)
        return self

    def reset(self):
        """Reset my progress, confirmed in the course's dialog; returns once the page
        has reloaded."""
        self.page.get_by_role("button", name="Reset my progress").click()
        with self.page.expect_event("load"):
            helpers.confirm(self.page, "Reset this level")

    def exercise(self, slot):
        return Exercise(self.page, slot)

    def question(self, qid):
        return Question(self.page, qid)

    def lab(self, name, nth=0):
        return Lab(self.page, name, nth)


class Exercise:
    """An editor with its Run / Check / Stop buttons and its result."""

    def __init__(self, page, slot):
        self.page, self.slot, self.root = page, slot, helpers.exercise(page, slot)

    @property
    def editor(self):
        return self.root.locator(".cm-content")

    @property
    def result(self):
        return self.root.locator(".course-result")

    @property
    def lines(self):
        """The editor's drawn lines (CodeMirror draws only those near the view)."""
        return self.root.locator(".cm-line")

    @property
    def hints(self):
        return self.root.get_by_role("list", name="Hints").locator("li")

    def scroll_to_top(self):
        """Put the editor's top at the window's top, so that CodeMirror draws its first lines."""
        self.root.locator(".course-editor").evaluate("el => el.scrollIntoView({block: 'start'})")
        return self

    def show_answer(self):
        """Show answer, confirmed in the course's dialog; returns the answer shown."""
        self.button("Show answer").click()
        helpers.confirm(self.page, "Show the answer")
        return self.root.locator(".course-answer")

    def button(self, name, exact=True):
        """A button by its accessible name: while Python loads, Run and Check are named
        "Run (Python is loading)"; exact=False finds them either way."""
        return self.root.get_by_role("button", name=name, exact=exact)

    def ready(self, timeout=60_000):
        """Wait until Check can run at once: its name no longer says "(Python is loading)"."""
        expect(self.button("Check")).to_be_visible(timeout=timeout)
        return self

    def fill_blanks(self, *answers):
        helpers.fill_blanks(self.page, self.root, *answers)
        return self

    def replace_code(self, code):
        """Select all the editor holds and put `code` in its place."""
        self.editor.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.insert_text(code)
        return self

    def run(self, timeout=30_000):
        """Press Run and wait until it has ended; returns the result region."""
        self.button("Run").click()
        expect(self.result).not_to_have_attribute("data-state", "running", timeout=timeout)
        return self.result

    def check(self, timeout=30_000):
        """Press Check and wait for the verdict; returns the result region."""
        return helpers.check(self.root, timeout)

    def reset(self):
        """Reset, confirmed in the course's dialog: the editor holds the starter again."""
        self.button("Reset").click()
        helpers.confirm(self.page, "Reset the code")
        return self

    def solve(self, *answers):
        """Fill the blanks with `answers`, Check, and see it pass."""
        self.fill_blanks(*answers)
        expect(self.check()).to_have_attribute("data-state", "passed")
        return self


class Question:
    """A question that unlocks what follows it: a number, or a choice."""

    def __init__(self, page, qid):
        self.page, self.qid, self.root = page, qid, helpers.question(page, qid)

    @property
    def feedback(self):
        return self.root.locator(".course-feedback")

    @property
    def field(self):
        return self.root.get_by_label("Your answer")

    def answer(self, value):
        """Answer (a choice by its label, a number typed) and press Check answer; returns
        the feedback."""
        if self.root.get_attribute("data-kind") == "choice":
            self.root.get_by_role("radio", name=value, exact=True).check()
        else:
            self.field.fill(value)
        self.root.get_by_role("button", name="Check answer").click()
        return self.feedback

    def check_expression(self, source):
        """A live-graph task: type `source` as L and press Enter (the keyboard only); returns
        the feedback once the worker has judged it."""
        field = self.root.get_by_label("Your expression L")
        field.fill(source)
        field.press("Enter")
        expect(self.feedback).not_to_be_empty(timeout=30_000)
        expect(self.feedback).not_to_contain_text("Checking once Python", timeout=30_000)
        return self.feedback

    def show_answer(self):
        self.root.get_by_role("button", name="Show answer").click()
        helpers.confirm(self.page, "Show the answer")
        return self


class Lab:
    """An interactive widget (`/// lab | <name>`), ungraded; `nth` of its kind on the page."""

    def __init__(self, page, name, nth=0):
        self.page, self.root = page, page.locator(f".course-lab[data-lab='{name}']").nth(nth)

    def button(self, name):
        return self.root.get_by_role("button", name=name)

    def field(self, label):
        return self.root.get_by_label(label)

    def locator(self, selector):
        return self.root.locator(selector)

    def draw(self, expression):
        """The expression lab: type `expression` and press Draw graph."""
        self.field("Expression").fill(expression)
        self.button("Draw graph").click()
        return self

    @property
    def status(self):
        return self.root.locator(".course-lab__status")

    def mounted(self):
        """Wait until the lab has drawn itself (the page marks it data-mounted)."""
        expect(self.root).to_have_attribute("data-mounted", "true")
        return self


def clear_alive(level):
    """Everything the live-graph level asks, answered right, in page order."""
    for qid, value in (("alive-predict-a", "-1.8485"), ("alive-c-grad", "6.2916")):
        expect(level.question(qid).answer(value)).to_contain_text("Right")
    expect(level.question("alive-flat-a").check_expression("a*a - 4*a")).to_contain_text("∂L/∂a = 0 ✓")
    expect(level.question("review-step").answer("1.7")).to_contain_text("Right")
