"""Small helpers to drive the course's widgets the way a learner does."""

import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from tools.marks import marks, matching
from tools.site_server import serve

from .conftest import wait_for_python, wait_until

LEVEL = "/autograd/"
# the two window sizes every layout is checked at
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SW_READY = "navigator.serviceWorker.controller !== null"


def controlled_page(browser, url, python=True):
    """A page at `url` in a context that lets service workers in, once (with `python`) Python
    is up and the service worker controls the page; returns (context, page)."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(url)
    if python:
        wait_for_python(page)
    wait_until(page, SW_READY, timeout=120_000)
    return context, page


def other_origin(directory):
    """A server on another origin (localhost, where the course is at 127.0.0.1) that records
    every request it gets; returns (server, origin, the list of paths asked for)."""
    hits = []
    server, port = serve(directory, requests=hits)
    return server, f"http://localhost:{port}", hits


# Every Content-Security-Policy violation the page reports (an init script, run before the page's own)
CSP_VIOLATIONS = """
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def off_site_requests(page, site):
    """The list that every http(s) request `page` makes off `site`'s origin goes to."""
    origin = urlparse(site).netloc
    foreign = []
    page.on("request", lambda r: urlparse(r.url).scheme in ("http", "https")
            and urlparse(r.url).netloc != origin and foreign.append(r.url))
    return foreign


def worker_policy_warnings(page):
    """The list that a worker's Content-Security-Policy violations go to: python.js warns
    of each in the console (the page's own are CSP_VIOLATIONS')."""
    found = []
    page.on("console", lambda m: m.type == "warning" and m.text.startswith("Content-Security-Policy:")
            and found.append(m.text))
    return found


def wait_for_mark(page, name, **detail):
    """Wait until the page has marked `name` with each key = value of `detail`."""
    wait_until(page, f"{matching(name, **detail)}.length > 0")


def python_boot(page):
    """How Python booted, once it has: {mode, rejected, timings, kept, seconds}."""
    wait_for_python(page)
    return marks(page, "course:python-ready")[0]


def open_skip_test(page):
    """The skip test is folded away until a learner asks for it: ask, as a learner would
    (a no-op where it is open already, and where the page's scripts don't run)."""
    quiz = page.locator(".course-quiz")
    if not quiz.count():  # in the page's HTML: there once the page has loaded
        return
    try:  # level.js offers it (data-offer) as soon as the page's scripts run
        expect(quiz).to_have_attribute("data-offer", re.compile(r"^(folded|open)$"), timeout=5000)
    except AssertionError:
        return
    if quiz.get_attribute("data-offer") == "folded":
        quiz.locator(".course-quiz__toggle").click()
        expect(quiz).to_have_attribute("data-offer", "open")


def all_pages(page, site):
    """Every page the site's navigation links to, as full URLs, from its home page."""
    page.goto(site + "/")
    hrefs = page.eval_on_selector_all("nav.md-nav--primary a.md-nav__link[href]", "els => els.map(e => e.href)")
    pages = sorted({h.split("#")[0] for h in hrefs if h.startswith(site)})
    assert len(pages) >= 2, pages
    return pages


def exercise(page, slot):
    if slot.startswith("quiz-"):
        open_skip_test(page)
    return page.locator(f'.course-exercise[data-slot="{slot}"]')


def question(page, qid):
    if qid.startswith("quiz-"):
        open_skip_test(page)
    return page.locator(f'.course-question[data-question="{qid}"]')


def fill_blanks(page, ex, *answers):
    """Find each ____ with the editor's own search (Ctrl+F, Enter, Esc) and type over it."""
    ex.locator(".cm-content").click()
    for answer in answers:
        page.keyboard.press("Control+Home")
        page.keyboard.press("Control+f")
        page.keyboard.press("Control+a")
        page.keyboard.type("____")  # typed: the search panel reads its field on keyup
        page.keyboard.press("Enter")
        page.keyboard.press("Escape")
        page.keyboard.insert_text(answer)


def check(ex, timeout=30_000):
    ex.get_by_role("button", name="Check", exact=True).click()
    result = ex.locator(".course-result")
    expect(result).not_to_have_attribute("data-state", "running", timeout=timeout)
    return result


def confirm(page, button):
    """Press `button` in the course's own confirmation dialog (a <dialog>, not the browser's)."""
    dialog = page.locator("dialog.course-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=button, exact=True).click()
    expect(dialog).to_have_count(0)


def reloading(page):
    """`with reloading(page): ...`: returns once what the block did has reloaded the page (a
    real load: Material's instant navigation and its history updates fire no load event)."""
    return page.expect_event("load")


def transitions_done(page):
    """Wait until every CSS transition under way has ended (Material fades colours: after
    a palette switch or a hover, a colour read at once is one on its way)."""
    page.evaluate("""() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => null)))""")


def frames(page, n=1):
    """Wait until the page has drawn `n` more frames (a resize's redraw comes in the next)."""
    page.evaluate("""(n) => new Promise((done) => {
        const next = (left) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
        next(n);
    })""", n)


SUB_ANSWER = ("out = Value(self.data - other.data, (self, other))\n        def _backward():\n"
              "            self.grad += out.grad\n            other.grad -= out.grad\n"
              "        out._backward = _backward\n        return out",)
TOPO_ANSWER = ("if v not in seen:\n                seen.add(v)\n                for child in v._children:\n"
               "                    build(child)\n                topo.append(v)",)
TAIL_ANSWER = "self.grad = 1.0\n        for v in reversed(topo):\n            v._backward()"
TAIL_FORWARD = "self.grad = 1.0\n        for v in topo:\n            v._backward()"
MUL_ANSWER = ("other.data * out.grad", "self.data * out.grad")
# the skip test's exercises, each with what fills its blanks
QUIZ_ANSWERS = {"quiz-sub-backward": SUB_ANSWER, "quiz-topo-order": TOPO_ANSWER, "quiz-backward-tail": (TAIL_ANSWER,)}


def rendered(message):
    """An author's message as the page shows it (answer.js richText): `code` spans and
    *emphasis* outside code lose their marks."""
    parts = message.split("`")
    return "".join(part if i % 2 else re.sub(r"\*(?=\S)([^*]*?\S)\*", r"\1", part) for i, part in enumerate(parts))


def _luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(float(x)) for x in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    """WCAG's contrast ratio of two colours, each (r, g, b) in 0-255."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# Each open number question: its answer, its tolerance, and the visible text above it
# (text nodes that come before it in the article, whose element is rendered).
OPEN_QUESTIONS = """() => {
  const article = document.querySelector('article');
  const shown = (node) => node.parentElement && node.parentElement.checkVisibility({ visibilityProperty: true });
  return [...article.querySelectorAll('.course-question[data-answer]')]
    .filter((q) => q.checkVisibility() && !q.closest('.course-quiz'))
    .map((q) => {
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      const above = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!(n.compareDocumentPosition(q) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
        if (!q.contains(n) && shown(n)) above.push(n.textContent);
      }
      return { id: q.dataset.question, kind: q.dataset.kind, answer: q.dataset.answer,
               tolerance: Number(q.dataset.tolerance || 0.001), above: above.join(' ') };
    });
}"""
NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?")


def numbers(text):
    return [float(m.replace("−", "-")) for m in NUMBER.findall(text)]


def given_away(questions):
    """Each number question whose answer stands in the text above it. Small whole numbers
    (|answer| < 10) are left out: "2" or "6" turn up in any text for other reasons."""
    found = []
    for q in questions:
        if q["kind"] != "number":
            continue
        answer = float(q["answer"].replace("−", "-"))
        if answer.is_integer() and abs(answer) < 10:
            continue
        if [n for n in numbers(q["above"]) if abs(n - answer) <= q["tolerance"]]:
            found.append(f"{q['id']}: {q['answer']} is on screen above it")
    return found


def answers_above(page):
    """Each open number question whose answer is on screen above it, named (see given_away)."""
    return given_away(page.evaluate(OPEN_QUESTIONS))
