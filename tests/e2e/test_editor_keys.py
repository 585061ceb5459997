"""The exercise editor and its buttons from the keyboard: Esc then Tab always leaves,
focus never drops to the page after a dialog, the Hint button says what it does next,
hints and known-mistake messages render *emphasis*, and arriving by Tab selects the blank."""


import pytest
from playwright.sync_api import expect

from grader import catalog

from .conftest import wait_until
from .helpers import SIZES, confirm, frames
from .pages import Level

SLOT = "mul-backward"
SUGGESTIONS = ".cm-tooltip-autocomplete"
SOLUTION = catalog.load(SLOT).solution


def open_mul(page, site, python=False):
    """The level with what opens the mul-backward exercise answered (each locked section
    around it opens once the item it names is solved), so the exercise is on screen."""
    ex = Level(page, site, "autograd").open_around(SLOT, python=python).exercise(SLOT)
    expect(ex.root).to_be_visible()
    # built: the buttons below it have settled (CodeMirror loads while Python boots: on a busy
    # machine that takes more than expect's default 5 s)
    expect(ex.editor).to_have_count(1, timeout=20_000)
    return ex


@pytest.fixture(params=sorted(SIZES))
def sized(request, page):
    page.set_viewport_size(SIZES[request.param])
    return page


@pytest.fixture
def mul(shared_page, site):
    """The mul-backward exercise with its starter code again (Reset), on the page that the tests
    which ask for it share, in file order: they type, Run and Check, and read the editor,
    and leave no state behind that the next one reads (hints seen, an answer shown, a
    first arrival by Tab: those tests have pages of their own)."""
    level = Level(shared_page, site, "autograd")
    if not level.is_open:
        open_mul(shared_page, site, python=True)
    return level.exercise(SLOT).reset()  # the learner's own way back to the starter


@pytest.fixture(params=sorted(SIZES))
def sized_mul(request, mul):
    mul.page.set_viewport_size(SIZES[request.param])
    frames(mul.page, 2)  # the editor measures its lines anew in the frame after a resize
    return mul


def code(ex):
    """The text of the editor's drawn lines (CodeMirror draws only those near the view)."""
    return ex.editor.evaluate("c => [...c.querySelectorAll('.cm-line')].map(l => l.textContent).join('\\n')")


def suggest(page, ex):
    """Type over the blank so the line ends in a name: the suggestion list opens."""
    ex.fill_blanks("other.data * out.grad")
    page.keyboard.type(" / h")
    expect(ex.root.locator(SUGGESTIONS)).to_be_visible()


def test_esc_then_tab_leaves_even_when_esc_closes_the_suggestions(sized_mul):
    ex, page = sized_mul, sized_mul.page
    suggest(page, ex)
    before = code(ex)
    page.keyboard.press("Escape")  # closes the list, and arms "Tab leaves" all the same
    expect(ex.root.locator(SUGGESTIONS)).to_have_count(0)
    page.keyboard.press("Tab")
    expect(ex.button("Run", exact=False)).to_be_focused()
    assert code(ex) == before  # no indent typed


def test_ctrl_enter_closes_the_suggestions_then_esc_tab_leaves(sized_mul):
    ex, page = sized_mul, sized_mul.page
    suggest(page, ex)
    before = code(ex)
    page.keyboard.press("Control+Enter")
    expect(ex.root.locator(SUGGESTIONS)).to_have_count(0)
    expect(ex.result).to_have_attribute("data-state", "failed", timeout=30_000)  # checked: h is no name
    expect(ex.editor).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(ex.button("Run")).to_be_focused()
    assert code(ex) == before


def test_focus_follows_dialogs_and_what_they_show(sized, site):
    page = sized
    ex = open_mul(page, site)
    show = ex.button("Show answer")
    show.click()
    confirm(page, "Cancel")
    expect(show).to_be_focused()  # back to the button that opened the dialog
    answer = ex.show_answer()
    expect(answer).to_be_visible()
    expect(answer).to_be_focused()  # not <body>: the learner reads on from the answer
    expect(answer).to_have_attribute("aria-label", "The answer, read-only")
    expect(answer).to_be_in_viewport()


def test_hint_button_says_what_the_next_press_does_and_last_hint_takes_focus(sized, site):
    page = sized
    ex = open_mul(page, site)
    hints = ex.hints
    ex.button("Hint").click()
    expect(hints).to_have_count(1)
    next_hint = ex.button("Next hint (2 of 3)")
    expect(next_hint).to_be_focused()  # focus stays on the button while there are more
    next_hint.click()
    expect(hints).to_have_count(2)
    last = ex.button("Next hint (3 of 3)")
    last.click()
    confirm(page, "Cancel")
    expect(last).to_be_focused()
    expect(hints).to_have_count(2)
    last.click()
    confirm(page, "Show the last hint")
    expect(hints).to_have_count(3)
    expect(hints.nth(2)).to_be_focused()  # the button is disabled now: focus moves on to the new hint
    expect(ex.button("No more hints")).to_be_disabled()


def test_hints_render_emphasis_as_text(sized, site):
    page = sized
    ex = open_mul(page, site)
    ex.button("Hint").click()
    first = ex.hints.first
    expect(first).to_contain_text("gets the other input times")
    expect(first.locator("em")).to_have_text("other")
    expect(first).not_to_contain_text("*")
    ex.button("Next hint (2 of 3)").click()
    second = ex.hints.nth(1)
    expect(second.locator("code").first).to_have_text("out")
    expect(second).not_to_contain_text("`")


def test_known_mistake_renders_emphasis_and_code_as_text(mul):
    ex = mul
    result = ex.fill_blanks("self.data * out.grad", "other.data * out.grad").check()
    diagnosis = result.locator(".course-result__diagnosis")
    expect(diagnosis).to_contain_text("each input of a product gets the other input's data")
    expect(diagnosis.locator("em")).to_have_text("other")
    expect(diagnosis).not_to_contain_text("*")
    # a message with `code` in it: assigning where the rule adds
    result = ex.replace_code(SOLUTION.replace("self.grad += other.data", "self.grad = other.data")
                             .replace("other.grad += self.data", "other.grad = self.data")).check()
    diagnosis = result.locator(".course-result__diagnosis")
    expect(diagnosis.locator("code")).to_have_text(["=", "+="])
    expect(diagnosis).not_to_contain_text("`")


# NOTHING_SELECTED: no state to wait on, since nothing must happen. The editor selects a
# blank at most 30 ms after a click or a Tab arrival (editor.js): by 300 ms it would have.


def selected(page):
    return page.evaluate("String(getSelection())")


def test_arriving_by_tab_selects_the_first_blank_once(sized, site):
    page = sized
    ex = open_mul(page, site)
    editor = ex.editor
    run = ex.button("Run", exact=False)  # Python may still be loading
    run.focus()
    page.keyboard.press("Shift+Tab")  # into the editor from the keyboard
    expect(editor).to_be_focused()
    wait_until(page, "String(getSelection()) === '____'", timeout=5_000)
    expect(ex.root.locator(".cm-blank").first).to_be_in_viewport()
    # in the middle of the screen, with the lines around it, not at an edge
    wait_until(page, """(() => { const r = document.querySelector('.cm-focused .cm-blank').getBoundingClientRect();
        const mid = (r.top + r.bottom) / 2; return mid > innerHeight * 0.25 && mid < innerHeight * 0.75; })()""", timeout=5_000)
    page.keyboard.type("other.data * out.grad")  # typing replaces the blank
    expect(editor).to_contain_text("self.grad += other.data * out.grad")
    expect(ex.root.locator(".cm-blank")).to_have_count(1)  # the second blank, still to fill


def test_later_focus_and_mouse_clicks_keep_the_cursor(page, site):
    ex = open_mul(page, site)
    editor = ex.editor
    run = ex.button("Run", exact=False)  # Python may still be loading
    # a click puts the cursor where it lands, even right after a Tab elsewhere
    run.focus()
    page.keyboard.press("Tab")
    ex.lines.first.click()
    page.wait_for_timeout(300)  # NOTHING_SELECTED
    assert selected(page) == ""
    line = page.evaluate("(n => (n.nodeType === 1 ? n : n.parentElement).closest('.cm-line').textContent)(getSelection().anchorNode)")
    assert "____" not in line
    # a later arrival by Tab leaves the cursor where the learner put it
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(run).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(editor).to_be_focused()
    page.wait_for_timeout(300)  # NOTHING_SELECTED
    assert selected(page) == ""
    # another editor's first arrival by Tab still selects its own blank
    other = Level(page, site, "autograd").exercise("quiz-sub-backward")
    other.button("Run", exact=False).focus()
    page.keyboard.press("Shift+Tab")
    expect(other.editor).to_be_focused()
    wait_until(page, "String(getSelection()) === '____'", timeout=5_000)


def test_a_click_on_a_blank_selects_it_and_typing_replaces_it(sized_mul):
    ex, page = sized_mul, sized_mul.page
    blank = ex.root.locator(".cm-blank").first
    blank.scroll_into_view_if_needed()  # as a learner's eyes find it first: CodeMirror measures
    frames(page, 2)  # its lines in the frame after a scroll, a frame no learner's click beats
    blank.click()
    wait_until(page, "String(getSelection()) === '____'", timeout=5_000)
    page.keyboard.type("other.data * out.grad")
    expect(ex.editor).to_contain_text("self.grad += other.data * out.grad")
    expect(ex.root.locator(".cm-blank")).to_have_count(1)  # the second blank, still to fill


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tap_on_a_blank_selects_it_on_a_phone(browser, site, scheme):
    context = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True, color_scheme=scheme,
                                  service_workers="block")
    page = context.new_page()
    ex = open_mul(page, site)
    blank = ex.root.locator(".cm-blank").first
    blank.scroll_into_view_if_needed()
    blank.tap()
    wait_until(page, "String(getSelection()) === '____'", timeout=5_000)
    page.keyboard.type("other.data * out.grad")
    expect(ex.editor).to_contain_text("self.grad += other.data * out.grad")
    expect(ex.root.locator(".course-keys")).to_be_hidden()  # the keys line means nothing on a touch screen
    context.close()


def test_a_partly_typed_blank_is_named_in_plain_words(mul):
    """A cursor inside ____ (before this fix, any click) leaves `__x__` around the answer."""
    ex = mul
    result = ex.replace_code(SOLUTION.replace("self.grad += other.data * out.grad",
                                              "self.grad += __other.data * out.grad__")).check()
    expect(result.locator(".course-result__headline")).to_contain_text("A blank is still there")


def test_keys_help_is_one_line_shown_on_first_focus_and_the_rest_in_the_dialog(page, site):
    ex = open_mul(page, site)
    keys = ex.root.locator(".course-keys")
    expect(keys).to_be_hidden()
    ex.lines.first.click()
    expect(keys).to_be_visible()
    assert keys.evaluate("k => k.getBoundingClientRect().height") < 30  # one line at 1280 px
    expect(ex.editor).to_have_attribute("aria-describedby", keys.get_attribute("id"))
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_contain_text("Select the whole blank")
    page.keyboard.press("Escape")


def test_long_lines_wrap_with_their_indentation(sized_mul):
    ex, page = sized_mul, sized_mul.page
    long_line = "self.grad += other.data * out.grad  # " + "a long comment " * 12
    ex.root.locator(".cm-blank").first.click()
    page.keyboard.type(long_line.removeprefix("self.grad += "))
    scroller = ex.root.locator(".cm-scroller")
    assert scroller.evaluate("s => s.scrollWidth <= s.clientWidth + 1")  # nothing cut off sideways
    line = ex.lines.filter(has_text="a long comment")
    rows = line.evaluate("""l => {
        const range = document.createRange(); range.selectNodeContents(l);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const tops = [...new Set(rects.map(r => Math.round(r.top)))];
        const left = (top) => Math.min(...rects.filter(r => Math.round(r.top) === top).map(r => r.left));
        return { rows: tops.length, first: left(tops[0]), second: left(tops[1]) }; }""")
    assert rows["rows"] >= 2
    # the second row starts under the first row's first character (its indentation), not at the margin
    first_char = line.evaluate("""l => {
        const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT); let node;
        while ((node = walker.nextNode())) { const i = node.data.search(/\\S/); if (i >= 0) {
          const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect().left; } }
        }""")
    assert abs(rows["second"] - first_char) < 3, (rows, first_char)


def test_a_hint_that_cannot_load_says_so_and_the_next_press_gets_it(sized, site):
    page = sized
    page.route("**/mul-backward.json", lambda route: route.abort())
    ex = open_mul(page, site)
    ex.button("Hint").click()
    expect(ex.result).to_contain_text("The hints could not be loaded")
    page.unroute("**/mul-backward.json")
    ex.button("Hint").click()
    expect(ex.hints).to_have_count(1)
