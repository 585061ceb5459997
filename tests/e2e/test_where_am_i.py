"""Where am I: what a learner sees of their own progress after a reload, at the end
of a level, on the course map, and in front of a locked section."""

from playwright.sync_api import expect

from .helpers import SUB_ANSWER
from .pages import Level, clear_alive


def test_a_solved_exercise_keeps_its_check_mark_after_a_reload(page, site):
    level = Level(page, site, "autograd").open()
    expect(level.exercise("quiz-sub-backward").fill_blanks(*SUB_ANSWER).check()).to_contain_text("Passed")
    page.reload()
    ex = level.exercise("quiz-sub-backward")
    expect(ex.root).to_have_class("course-exercise is-solved")
    expect(ex.result).to_have_attribute("data-state", "passed")
    expect(ex.result).to_contain_text("✓ Passed")
    # an exercise not solved says nothing of the kind, once it is mounted: the folded
    # short test's exercises mount after Python is up and the page idle, which on a busy
    # machine can take longer than an assertion's 5 s
    unsolved = level.exercise("quiz-backward-tail").result
    expect(unsolved).to_have_count(1, timeout=60_000)
    expect(unsolved).to_be_empty()


def test_a_cleared_level_ends_with_its_stars_and_the_way_on(page, site):
    level = Level(page, site, "alive").open(python=False)
    expect(page.locator(".course-complete")).to_have_count(0)
    clear_alive(level)
    done = page.locator(".course-complete")
    expect(done).to_contain_text("Level cleared")
    expect(done).to_contain_text("★★★")
    next_link = done.get_by_role("link", name="Next: The same graph in PyTorch")
    expect(next_link).to_be_visible()
    expect(page.locator(".course-level").get_by_role("link", name="Next: The same graph in PyTorch")).to_be_visible()
    next_link.click()
    expect(page.locator("h1")).to_contain_text("The same graph in PyTorch")


def test_the_course_map_says_where_you_were_and_resumes_where_work_is_left(page, site):
    page.goto(site + "/chain-rule/")
    page.goto(site + "/")
    resume = page.locator(".course-resume a")
    expect(resume).to_have_text("Resume: The chain rule on a graph, by hand")  # no "¶" from the heading's permalink
    expect(page.locator(".course-map li.is-current")).to_contain_text("You were here")
    expect(page.locator(".course-map a[aria-current='step']")).to_have_attribute("data-level", "chain-rule")
    # a finished level is never the one to resume: the next unfinished one is
    clear_alive(Level(page, site, "alive").open(python=False))
    page.goto(site + "/")
    expect(resume).to_have_text("Next: The same graph in PyTorch")


def test_one_lock_notice_with_the_themes_icon_and_the_right_words(page, site):
    level = Level(page, site, "autograd").open()
    notices = page.locator(".course-lock-notice:visible")
    # one for the first locked section, one for the recap: not one per locked section
    expect(notices).to_have_count(2)
    expect(notices.first).to_have_text("Answer the question above to open the next section.")
    expect(notices.first.locator("svg.course-lock-icon path")).to_have_count(1)
    expect(page.locator(".course-lock-notice", has_text="🔒")).to_have_count(0)
    for qid, value in (("dl-dd", "7"), ("dl-da", "−6"), ("dl-dd-c10", "16")):
        expect(level.question(qid).answer(value)).to_contain_text("Right")
    # the next locked section waits for an exercise, and says so
    expect(notices.first).to_have_text("Pass the exercise above to open the next section.")
    expect(level.question("square").root).to_be_hidden()


def test_the_recap_says_what_opens_it_on_a_level_with_and_without_a_short_test(page, site):
    Level(page, site, "autograd").open()  # the autograd level has a short test
    recap = page.locator(".course-recap .course-lock-notice")
    expect(recap).to_have_text("The recap opens once you clear the level: pass the short test, "
                               "or do every question and exercise on this page.")
    Level(page, site, "alive").open(python=False)  # no short test here: the notice doesn't send the learner looking for one
    expect(recap).to_have_text("The recap opens once you clear the level: do every question and exercise on this page.")
    expect(page.locator(".course-quiz")).to_have_count(0)
