"""The capstone: the learner's own engine, from their saved code, trains a network
next to the reference, and a broken piece is pinned on its blank."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from grader import catalog
from labs.capstone import capstone_pieces
from runner.facts import BLANK, STORAGE
from tools.marks import marks

from .helpers import MUL_ANSWER, SIZES, wait_for_mark
from .pages import Level
from .saved import progress

ROOT = Path(__file__).resolve().parents[2]
PIECES = [(p["exercise"], p["page"]) for p in capstone_pieces(catalog.load_all())]  # as the page lists them


def open_with_solved(page, site, codes, passed=True, **fields):
    """The capstone lab, after solving these exercises: each marked solved on its level with
    the code that passed its Check (unless `passed` is false, as progress saved before
    that was kept), and the same code last saved in its editor."""
    levels = {}
    for exercise, level, *_ in PIECES:
        if exercise in codes:
            item = {"solved": True, "passed": codes[exercise], "passedAt": 1} if passed else {"solved": True}
            levels.setdefault(level, {"items": {}})["items"][exercise] = item
    return Level(page, site, "capstone").open(progress(levels, codes, **fields)).lab("capstone")


def solution(exercise):
    return catalog.load(exercise).solution


def train(lab, done="Trained on your engine"):
    lab.button("Train your engine (60 steps)").click()
    expect(lab.status.first).to_contain_text(done, timeout=120_000)
    expect(lab.locator(".course-capstone__verdict p").first).to_be_visible(timeout=30_000)
    return lab


def mistake(exercise, name):
    return next(m for m in catalog.load(exercise).mistakes if m.name == name).code


def losses(status):
    """(first, last) of the learner's loss and of the reference's, from the status line."""
    pairs = re.findall(r"([−\d.e+-]+)\s→\s([−\d.e+-]+)", status)
    return [tuple(float(x.replace("−", "-").rstrip(".")) for x in pair) for pair in pairs]


def test_with_nothing_solved_no_claim_is_made_about_the_learners_engine(page, site):
    """Every piece is the reference's: the verdict says so, not that "your engine" matched."""
    lab = train(open_with_solved(page, site, {}), done="Trained on the reference's pieces alone (none is yours yet)")
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "reference")
    expect(verdict).to_contain_text("None of these pieces is yours yet")
    expect(verdict).not_to_contain_text("Every piece matches")
    # nor do the pictures call the engine the learner's
    expect(lab.locator(".course-capstone__plot")).not_to_contain_text("your engine")
    expect(lab.locator(".course-capstone__boundary figcaption")).to_contain_text("none of the engine is yours yet")


def every_piece_mine():
    """Every piece solved, mul-backward's with a comment of the learner's own."""
    codes = {exercise: solution(exercise) for exercise, *_ in PIECES}
    codes["mul-backward"] = codes["mul-backward"].replace(
        "self.grad += other.data * out.grad", "self.grad += other.data * out.grad  # mine")
    return codes


@pytest.fixture
def mine_trained(shared_page, site):
    """The capstone with every piece solved (every_piece_mine), trained once on the page
    that the tests below share; the lab interpreter that the training ran the learner's
    code in is any lab interpreter booted before it (`page.labs_before`)."""
    page, level = shared_page, Level(shared_page, site, "capstone")
    if level.is_open:
        return level.lab("capstone")
    lab = open_with_solved(page, site, every_piece_mine())
    expect(lab.locator("tbody tr").filter(has_text="yours")).to_have_count(len(PIECES))
    wait_for_mark(page, "course:interpreter-ready", role="lab")
    page.labs_before = {m["id"] for m in marks(page, "course:interpreter-ready", role="lab")}
    return train(lab)


def test_every_blank_solved_the_learners_engine_trains_like_the_reference(mine_trained):
    lab = mine_trained
    status = lab.status.first.inner_text()
    (first, last), (ref_first, ref_last) = losses(status)
    assert last < first / 10 and ref_last < ref_first / 10, status  # the loss falls
    expect(lab.locator(".course-capstone__verdict")).to_have_attribute("data-state", "same")
    expect(lab.locator(".course-capstone__verdict")).to_contain_text("Every piece matches the reference")
    # alike to rounding (labs/capstone.py: a relative gap of 1e-9), not bit for bit
    expect(lab.locator(".course-capstone__verdict")).to_contain_text("to rounding (each loss and gradient within 10⁻⁹ × (1 + its size)")
    expect(lab.locator("tbody tr[data-state='ok']")).to_have_count(len(PIECES))
    expect(lab.locator(".course-lossplot")).to_have_attribute("aria-label", re.compile(
        r"^Loss curve: 60 steps, from 39\.2[0-9]+ to [0-9.]+; reference engine: from 39\.2[0-9]+ to [0-9.]+\.$"))
    # the decision boundary of the learner's own trained network
    boundary = lab.locator(".course-capstone__boundary")
    expect(boundary).to_be_visible()
    expect(boundary.locator("svg.course-training__boundary")).to_have_attribute(
        "aria-label", "Decision boundary of your trained network: 16 of 16 training points on their own side.")
    expect(boundary.locator(".course-training__legend li")).to_have_count(3)  # no test point here


def test_the_lab_interpreter_that_ran_the_learners_code_is_thrown_away(mine_trained):
    """The capstone runs the learner's saved code in the lab interpreter; the page ends
    that interpreter after each such call (the ones labs.api.DISCARD_AFTER names), so
    the code reaches no later lab."""
    page = mine_trained.page
    ended = {m["id"] for m in marks(page, "course:interpreter-ended", role="lab")}
    assert page.labs_before and page.labs_before <= ended
    # and each of the training's calls (a check, 6 chunks, the boundary) had one of its own
    assert len({m["id"] for m in marks(page, "course:interpreter-ready", role="lab")} - page.labs_before) >= 5


def test_a_wrong_op_blank_is_pinned_on_its_exercise(page, site):
    codes = {exercise: solution(exercise) for exercise, *_ in PIECES}
    codes["mul-backward"] = mistake("mul-backward", "grad-for-data")
    lab = train(open_with_solved(page, site, codes))
    # the reference learns on its own path; the broken engine does not
    (first, last), (ref_first, ref_last) = losses(lab.status.first.inner_text())
    assert ref_last < ref_first / 10 and last > first * 0.9, (first, last, ref_first, ref_last)
    expect(lab.status.first).to_contain_text("(it did not learn)")
    page.screenshot(path=str(ROOT / "screenshots" / "capstone-broken-mul.png"), full_page=True)
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "differs")
    expect(lab.locator("tbody tr[data-state='wrong']")).to_have_count(1)
    expect(verdict).to_contain_text("multiplication (__mul__)")
    link = verdict.get_by_role("link", name="multiplication", exact=True)
    expect(link).to_have_attribute("href", "../autograd/#ex-mul-backward")
    expect(verdict.locator("li")).to_have_count(1)
    link.click()
    expect(page.locator("#ex-mul-backward")).to_be_attached()


def test_a_reset_after_solving_trains_on_the_code_that_passed_last(page, site):
    """Solve mul-backward, solve it again another way, press Reset (the editor holds the
    starter's blanks again), then train: the capstone takes the code that passed last,
    not the draft, which once stopped training with a NameError on the blank; the
    pieces not solved are the reference's."""
    mul = Level(page, site, "autograd").open_unlocked(python=True).exercise("mul-backward")
    mul.solve(*MUL_ANSWER)
    again = solution("mul-backward").replace("other.data * out.grad", "out.grad * other.data  # passed last")
    expect(mul.replace_code(again).check()).to_have_attribute("data-state", "passed")
    mul.reset()
    expect(mul.editor).to_contain_text(BLANK)
    lab = Level(page, site, "capstone").open().lab("capstone")
    # the pieces not solved come from the reference
    expect(lab.locator("tbody tr").filter(has_text="multiplication")).to_contain_text("yours")
    expect(lab.locator("tbody tr").filter(has_text="yours")).to_have_count(1)
    expect(lab.locator("tbody tr").filter(has_text="reference")).to_have_count(len(PIECES) - 1)
    expect(lab.locator(".course-lossplot")).to_be_hidden()  # no empty box before training
    expect(lab.locator(".course-capstone__boundary")).to_be_hidden()
    train(lab)
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "same")
    expect(verdict).to_contain_text(f"Your one piece of the {len(PIECES)} matches the reference "
                                    f"(the other {len(PIECES) - 1} are still the reference's)")
    lab.button("Show my engine").click()
    expect(lab.locator("pre.course-capstone__engine")).to_contain_text("out.grad * other.data  # passed last")


def test_progress_saved_before_passes_were_kept_names_the_exercise_to_check_again(page, site):
    """Version 1 progress keeps no passed code: a solved exercise's draft is used, as then;
    one that is the starter again, blanks and all, is named to check again, and the
    reference's piece trains in its place."""
    starter = (ROOT / "exercises" / "mul-backward" / "starter.py").read_text()
    codes = {"mul-backward": starter, "sub-backward": solution("sub-backward")}
    lab = open_with_solved(page, site, codes, passed=False, version=STORAGE["migrates_from"][0])
    expect(page.locator(".course-notices")).to_have_count(0)  # it loads as it is, no reset
    note = lab.locator(".course-capstone__recheck")
    expect(note).to_contain_text(f"You solved this exercise, but the code saved there still has blanks ({BLANK})")
    expect(note).to_contain_text("multiplication (__mul__)")
    expect(note.get_by_role("link", name="multiplication", exact=True)).to_have_attribute("href", "../autograd/#ex-mul-backward")
    expect(lab.locator("tbody tr").filter(has_text="multiplication")).to_contain_text("reference: check again")
    expect(lab.locator("tbody tr").filter(has_text="subtraction")).to_contain_text("yours")
    train(lab)
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "same")
    expect(verdict).to_contain_text(f"Your one piece of the {len(PIECES)} matches the reference")


@pytest.mark.parametrize("size", SIZES)
def test_the_loss_chart_shows_once_trained_with_labelled_axes_and_a_legend(mine_trained, size):
    """At either size, on the page trained at the desktop's (a phone turned, a window
    narrowed: the chart and the boundary follow the page's width)."""
    lab, page = mine_trained, mine_trained.page
    page.set_viewport_size(SIZES[size])
    # the pieces table is a Material table: its wrappers, no class of its own
    expect(lab.locator(".md-typeset__scrollwrap > .md-typeset__table > table:not([class])")).to_have_count(1)
    plot = lab.locator(".course-lossplot")
    expect(plot).to_be_visible()
    expect(plot.locator(".uplot canvas")).to_have_count(1)
    expect(plot.locator(".course-lossplot__x")).to_have_text("step")
    expect(plot.locator(".course-lossplot__y")).to_have_text("loss (log scale)")
    legend = plot.locator(".u-legend .u-series")
    expect(legend).to_have_count(2)
    expect(legend.nth(0)).to_have_text("your engine")
    expect(legend.nth(1)).to_have_text("reference engine")
    expect(lab.locator(".course-capstone__boundary text.course-plot__label")).to_have_text(["x₁", "x₂"])
    box = plot.bounding_box()
    assert box["x"] + box["width"] <= SIZES[size]["width"], box
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"the page scrolls sideways ({width} px wide)"


def test_green_only_when_every_piece_matches(page, site):
    """tanh's `=` for `+=` trains like the reference here (tanh's input is used once),
    and still the verdict is no green box: the piece that differs is named."""
    codes = {exercise: solution(exercise) for exercise, *_ in PIECES}
    codes["tanh-backward"] = mistake("tanh-backward", "assigns")
    lab = train(open_with_solved(page, site, codes))
    verdict = lab.locator(".course-capstone__verdict")
    expect(verdict).to_have_attribute("data-state", "differs")
    expect(verdict.locator("p").first).to_have_text(
        "Your engine trained like the reference on this network, but not every piece matches it:")
    expect(verdict.locator("li")).to_have_count(1)
    expect(verdict.locator("li")).to_contain_text("tanh (tanh): on ")
    expect(lab.locator("tbody tr[data-state='wrong']")).to_contain_text("tanh")


def test_a_syntax_error_names_the_piece_and_marks_its_row(page, site):
    codes = {exercise: solution(exercise) for exercise, *_ in PIECES}
    codes["sub-backward"] = "class Value:\n    def __sub__(self, other:\n"
    lab = train(open_with_solved(page, site, codes), done="Training stopped")
    expect(lab.status.first).to_have_text(
        "Training stopped: your saved code for subtraction (__sub__): your saved code does not parse (line 2: '(' was never closed).")
    row = lab.locator("tbody tr[data-state='wrong']")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("subtraction")
    expect(lab.locator(".course-capstone__verdict li")).to_contain_text("your saved code does not parse (line 2")
    expect(lab.locator("tbody tr").filter(has_text="not run yet")).to_have_count(0)


def show_engine(lab):
    """Show my engine: the listing of the learner's assembled engine."""
    lab.button("Show my engine").click()
    listing = lab.locator("pre.course-capstone__engine")
    expect(listing).to_be_visible(timeout=30_000)
    expect(lab.button("Hide my engine")).to_have_attribute("aria-expanded", "true")
    expect(listing).to_contain_text("self.grad += other.data * out.grad  # mine")
    return listing


def hide_engine(lab, listing):
    lab.button("Hide my engine").click()  # as the next test on this page expects to find it
    expect(listing).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_the_engine_listing_scrolls_inside_its_box(mine_trained, size):
    lab, page = mine_trained, mine_trained.page
    page.set_viewport_size(SIZES[size])
    listing = show_engine(lab)
    box = listing.bounding_box()
    assert box["x"] + box["width"] <= SIZES[size]["width"], box
    if size == "phone":
        page.screenshot(path=str(ROOT / "screenshots" / "capstone-engine-phone.png"))
    hide_engine(lab, listing)


def test_the_downloaded_engine_runs_under_cpython_and_trains(mine_trained, tmp_path):
    """The file is the same at any size of the page: downloaded and trained once."""
    lab, page = mine_trained, mine_trained.page
    listing = show_engine(lab)
    with page.expect_download() as info:
        lab.button("Download engine.py").click()
    download = info.value
    assert download.suggested_filename == "engine.py"
    path = tmp_path / "engine.py"
    download.save_as(path)
    assert "self.grad += other.data * out.grad  # mine" in path.read_text()
    done = subprocess.run([sys.executable, "-I", str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    steps = [float(line.split("loss ")[1]) for line in done.stdout.splitlines() if line.startswith("step ")]
    assert steps[-1] < steps[0] / 10, done.stdout
    hide_engine(lab, listing)
