"""The live-graph level's graded work, checked against the engine (the same promise
tests/build/test_prose_numbers.py makes for `/// question` blocks).

A "predict, then check" question (`data-predicts`) has no number in the page: its
answer and slips come from labs/expression.py's `predictions`, built into the lab.
Here each answer is recomputed by plain Value arithmetic and by nudging, and each
slip by the misconception it names. The "make ∂L/∂a vanish" task (`data-task`)
is checked the same way: its example passes, and the cheats it refuses are what
the engine says they are.
"""

import functools
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from course_build.blocks import CourseBlocksExtension
from engine import Value, finite_difference
from grader.catalog import load_all
from labs import api as worker_api
from labs.expression import SLIP_TOLERANCE, expression_graph, gradient_facts, predictions

DOCS = Path(__file__).resolve().parents[2] / "docs"
LAB = re.compile(r"^/// lab \| expression\n(?P<options>(?:    .*\n)*)", re.M)
TOLERANCE = 1e-3  # expression.js gives these questions the question block's default tolerance


class _Divs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and attrs.get("data-mounted") == "lab":
            self.found.append(attrs)


@functools.cache
def render(text):
    """A page's Markdown as the build renders its course blocks (once a page: every test reads them)."""
    return markdown.markdown(text, extensions=[CourseBlocksExtension(exercises=load_all()), "md_in_html"])


def lab_divs(text):
    """The questions the page's labs fill in, as the built page carries them."""
    parser = _Divs()
    parser.feed(render(text))
    return parser.found


def labs(text):
    found = []
    for match in LAB.finditer(text):
        options = dict(line.strip().split(": ", 1) for line in match["options"].splitlines())
        hides = options.get("hides", "[]").strip("[]")
        values = dict((k.strip(), float(v)) for k, v in (p.split(":") for p in options["values"].strip("{}").split(",")))
        found.append({"expr": options["expr"], "values": values, "hides": [h.strip() for h in hides.split(",") if h.strip()]})
    return found


def pages():
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if lab_divs(text):
            yield page.name, text


ALIVE = (DOCS / "alive.md").read_text(encoding="utf-8")
EXPR = "(a*b + b**2) * c.tanh()"
A, B, C = 2.0, -4.0, 0.5


def alive_lab():
    (lab,) = labs(ALIVE)
    return lab


def alive_loss(a, b, c):
    """The page's starting expression, written by hand on Values."""
    return (a * b + b**2) * c.tanh()


def grads(a=A, b=B, c=C):
    values = [Value(a), Value(b), Value(c)]
    alive_loss(*values).backward()
    return dict(zip("abc", (v.grad for v in values)))


def nudged(i):
    return finite_difference(lambda a, b, c: alive_loss(Value(a), Value(b), Value(c)).data, [A, B, C], i)


# question id -> (input, the engine's answer by hand, {a slip's wrong number: how its misconception computes it})
QUESTIONS = {
    "alive-predict-a": ("a", lambda: grads()["a"], {
        "the local factor at a·b alone": lambda: B,
        "one step to go": lambda: math.tanh(C) * 1.0,  # what reaches a·b: tanh(c) at the product, 1 at the sum
        "a's own value": lambda: math.tanh(C) * A,  # a in place of b at the product a·b
        "wrong sign": lambda: -grads()["a"],
    }),
    "alive-c-grad": ("c", lambda: grads()["c"], {
        "one step to go": lambda: A * B + B**2,  # what reaches tanh(c)
        "the local factor at tanh(c) alone": lambda: 1 - math.tanh(C) ** 2,
        "tanh(c) itself in place of its slope": lambda: (A * B + B**2) * math.tanh(C),
        "wrong sign": lambda: -grads()["c"],
    }),
}


def test_the_page_states_the_labs_expression_and_point():
    lab = alive_lab()
    assert lab["expr"] == EXPR and lab["values"] == {"a": A, "b": B, "c": C}
    assert "L = (a·b + b²)·tanh(c), and a = 2, b = −4, c = 0.5" in ALIVE


def test_every_prediction_question_is_known_here_and_hidden_by_its_lab():
    for name, text in pages():
        hidden = {qid for lab in labs(text) for qid in lab["hides"]}
        for div in lab_divs(text):
            assert div.get("class", "").split()[0] == "course-question", f"{name}: the level counts it as a question"
            assert "data-answer" not in div, f"{name}: the engine's number, never the page's"
            if "data-predicts" in div:
                assert div["data-question"] in QUESTIONS, f"{name}: add {div['data-question']} with the engine's computation"
                assert div["data-question"] in hidden, f"{name}: the lab keeps its gradient back until it is answered"
            else:
                assert div.get("data-task") == "flat" and labs(text), f"{name}: an expression lab mounts the task"


@pytest.mark.parametrize("qid", list(QUESTIONS))
def test_the_answer_is_the_engines_and_the_nudges(qid):
    name, by_hand, _ = QUESTIONS[qid]
    facts = expression_graph(EXPR, {"a": A, "b": B, "c": C})["predict"][name]
    assert math.isclose(facts["answer"], by_hand(), abs_tol=1e-12)
    assert math.isclose(facts["answer"], nudged("abc".index(name)), abs_tol=1e-6)
    assert facts["explain"].endswith(f"= {facts['answer']:.4f}.".replace("-", "−"))


@pytest.mark.parametrize("qid", list(QUESTIONS))
def test_every_slip_is_what_its_misconception_computes(qid):
    name, by_hand, known = QUESTIONS[qid]
    slips = expression_graph(EXPR, {"a": A, "b": B, "c": C})["predict"][name]["slips"]
    # beside the misconceptions, the values the graph shows (a learner may copy one)
    assert len([m for _, m in slips if not m.startswith("the value of ")]) == len(known)
    for words, compute in known.items():
        matching = [(v, m) for v, m in slips if math.isclose(v, compute(), abs_tol=1e-6)]
        assert len(matching) == 1, f"{qid}: no slip gives {compute()} ({words})"
        assert words in matching[0][1]
    values = [v for v, _ in slips] + [by_hand()]
    for i, x in enumerate(values):  # each wrong number tells one story, and none is taken for the answer
        assert all(abs(x - y) > TOLERANCE for y in values[i + 1:]), qid


def test_slips_are_dropped_where_they_give_the_answer():
    a, b = Value(2.0), Value(-3.0)
    out = a + b
    out.backward()
    slips = predictions(out, {"a": a, "b": b})["a"]["slips"]
    assert all(abs(v - 1.0) > SLIP_TOLERANCE for v, _ in slips)  # ∂L/∂(a + b) is the answer itself here
    assert any("the local factor at a + b alone" in m for _, m in slips) is False  # 1 as well


def test_an_input_used_twice_gets_one_uses_worth():
    facts = expression_graph("a + a", {"a": 3})["predict"]["a"]
    assert facts["answer"] == 2 and [v for v, m in facts["slips"] if "one use's worth" in m] == [1.0]


POINT = {"a": 2.0, "b": -4.0}


def flat_task():
    (div,) = [d for d in lab_divs(ALIVE) if d.get("data-task") == "flat"]
    return div


def test_the_task_asks_about_the_point_it_checks():
    task = flat_task()
    assert json.loads(task["data-values"]) == POINT and task["data-wrt"] == "a"
    assert "whose ∂L/∂a is 0 at a = 2, b = −4" in ALIVE


def test_the_tasks_example_is_flat_in_a_there_and_not_everywhere():
    example = flat_task()["data-example"]
    facts = gradient_facts(example, POINT, "a")
    assert facts["grad"] == 0 and facts["varies"] and "a" in facts["variables"]
    assert abs(finite_difference(lambda a: gradient_facts(example, POINT | {"a": a}, "a")["output"], [2.0], 0)) < 1e-6
    assert [p["part"] for p in facts["parts"]] == [4.0, -4.0]  # a·a sends 2a, 4·a sends −4: they cancel


@pytest.mark.parametrize(("source", "grad", "varies"), [
    ("a*a - 4*a", 0.0, True),
    ("(a - 2)**2 * b", 0.0, True),
    ("relu(a - 10) + (a-2)**3", 0.0, True),  # relu is off at a = 2, and on for a > 10
    ("(a-2)*b", -4.0, True),  # ∂/∂a is b, whatever a is
    ("a*a + a*b", 0.0, True),  # 2a + b: the two uses cancel at a = 2, b = −4
    ("a*a - a*b", 8.0, True),
    ("a - a", 0.0, False),  # uses a, and is 0 for every a
    ("a*0", 0.0, False),
    ("a*b + 4*a", 0.0, False),  # a·(b + 4), and b + 4 = 0 at the point: the same for every a
    ("b*b", None, False),  # no a at all
])
def test_the_facts_the_task_judges(source, grad, varies):
    facts = gradient_facts(source, POINT, "a")
    assert facts["grad"] == grad and facts["varies"] is varies
    if grad is not None:
        assert math.isclose(sum(p["part"] for p in facts["parts"]), grad, abs_tol=1e-12)
        nudge = finite_difference(lambda a: gradient_facts(source, POINT | {"a": a}, "a")["output"], [2.0], 0)
        assert math.isclose(nudge, grad, abs_tol=1e-6)


def test_the_worker_answers_with_facts_or_a_message():
    facts = json.loads(worker_api.call("gradient_at", json.dumps(["a*a - 4*a", POINT, "a"])))
    assert facts["grad"] == 0 and facts["varies"] is True
    for source, says in (("__import__('os')", "can be called"), ("log(a - 2)", "log"), ("(a - 2)**0.5", "slope"),
                         ("a +", "cannot read")):
        assert says in json.loads(worker_api.call("gradient_at", json.dumps([source, POINT, "a"])))["error"], source
    with pytest.raises(ValueError):
        worker_api.call("gradient_at", json.dumps([["a"], POINT, "a"]))
    drawn = json.loads(worker_api.call("expression", json.dumps([EXPR, {"a": A, "b": B, "c": C}])))
    assert math.isclose(drawn["predict"]["a"]["answer"], grads()["a"])


@pytest.mark.parametrize(("source", "kink", "agrees"), [
    ("a*a - 4*a", False, True),  # smooth and flat: both sides' slopes go to 0
    ("1000000*(a - 2)**2", False, True),  # steep walls, but smooth: the sides' gap shrinks with h
    ("relu(a - 10) + (a-2)**3", False, True),
    ("relu(a-2)", True, False),  # 0 on the left, 1 on the right: the engine's 0 is relu's rule at 0
    ("relu(a-2) + relu(2-a)", True, True),  # |a − 2|: the central difference is 0 too, but it is a corner
    ("relu(a-2)*b", True, False),
    ("relu(a-2) - relu(2-a)", False, False),  # a − 2: a line of slope 1, where the engine says 0
])
def test_the_nudge_oracle_checks_the_engines_zero(source, kink, agrees):
    """"Make ∂L/∂a vanish" also nudges: a kink is not a flat spot, and the oracle is the truth."""
    facts = gradient_facts(source, POINT, "a")
    assert facts["grad"] == 0
    assert facts["kink"] is kink and facts["agrees"] is agrees
    slope = (gradient_facts(source, POINT | {"a": 2 + 1e-6}, "a")["output"]
             - gradient_facts(source, POINT | {"a": 2 - 1e-6}, "a")["output"]) / 2e-6
    assert math.isclose(facts["nudged"], slope, abs_tol=1e-9)


def test_the_page_says_why_the_oracle_is_checked_and_the_recap_agrees_with_the_table():
    assert "at a\n*kink*, a corner like `relu` has at 0" in ALIVE
    assert "The nudge oracle agrees with every one" not in ALIVE
    assert "At `relu`'s kink, where its input is 0,\n  the two disagree, and the lab's table shows ✗" in ALIVE
    drawn = expression_graph("relu(a-2)", {"a": 2.0})
    check = drawn["checks"]["a"]
    assert abs(check["autograd"] - check["numeric"]) > 1e-4 * (1 + abs(check["numeric"]))  # the ✗ in expression.js


def test_a_value_copied_off_the_graph_is_named_as_a_value():
    """The graph shows every node's value before any gradient: a learner who copies one
    is told it is a value, not a gradient (L's own value included)."""
    facts = expression_graph("(a*b + b**2)*tanh(c)", {"a": 2, "b": -4, "c": 0.5})
    slips = dict((round(v, 4), m) for v, m in facts["predict"]["a"]["slips"])
    L = (2 * -4 + 16) * math.tanh(0.5)
    assert slips[round(L, 4)].startswith("the value of (a·b + b**2)·tanh(c) on the graph, not a gradient")
    assert slips[16.0].startswith("the value of b**2 on the graph")
    # tanh(c) = 0.4621 is also what reaches a·b: the misconception is named, not the copy
    assert "one step to go" in slips[round(math.tanh(0.5), 4)]
    assert round(facts["predict"]["a"]["answer"], 4) not in slips
