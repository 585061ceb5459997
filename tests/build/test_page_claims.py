"""The statements on the early levels' pages about the engine, run against the engine.

Numbers are held by test_prose_numbers.py and test_page_numbers.py; the PyTorch
page's statements by tests/unit/test_torch_claims.py. Here: what the pages say
the engine, the learner's engine and the labs do, each test quoting the words.
"""

import re
from itertools import permutations
from pathlib import Path

from engine import Value, finite_difference
from grader.catalog import load
from labs.capstone import check_pieces, train
from labs.expression import FUNCTIONS, expression_graph
from labs.level_graph import _steps_in

ROOT = Path(__file__).resolve().parents[2]


def page(name):
    return " ".join((ROOT / "docs" / name).read_text(encoding="utf-8").split())


def says(name, words):
    assert " ".join(words.split()) in page(name), f"{name} no longer says: {words}"


def engine_from(exercise, file="solution", cut="\na = Value"):
    """The Value class of an exercise's solution, or of one of its files."""
    code = load(exercise).solution if file == "solution" else (ROOT / "exercises" / exercise / file).read_text()
    namespace = {}
    exec(compile(code.split(cut)[0], f"{exercise}/{file}", "exec"), namespace)  # noqa: S102 - our own file
    return namespace["Value"]


def test_the_oracle_costs_two_forward_passes_per_parameter():
    says("nudges.md", "two forward passes per parameter per step (one nudged up, one down)")
    calls = []
    finite_difference(lambda x, y: calls.append((x, y)) or x * y, [1.0, 2.0], 0)
    assert len(calls) == 2


def test_the_gradient_is_defined_where_it_first_appears():
    text = page("chain-rule.md")
    definition = "Every node gets a **gradient**: how much $L$ moves per unit nudge of that node."
    assert definition in text
    assert text.index(definition) < text.index("| node | local rate | gradient")
    assert "gradient" not in text[:text.index("## 2. Walk a graph backward")]  # nothing uses the word before it
    says("chain-rule.md", "written $\\partial L / \\partial a$, with a curly $\\partial$ instead of $d$")


def test_the_autograd_graphs_last_leaf_is_k_on_these_pages():
    for name in ("accumulate.md", "pytorch.md"):
        assert not re.search(r"\bd = [−-]2\b|, d = 2\b|c, d = ", page(name)), name
    says("accumulate.md", "$L = (a \\cdot b + c) \\cdot k$ at $a = 2$, $b = 3$, $c = 1$, $k = -2$")
    says("pytorch.md", "L = tanh(a·b + c)·k at a = 0.5, b = −1.5, c = 1, k = 2")


def test_an_engine_that_assigns_reports_one_for_the_diamond():
    says("accumulate.md", "An engine that *assigns* `grad = …` instead of adding silently reports 1")
    Assigning = engine_from("diamond", "starter.py")
    a = Assigning(3.0)
    (a + a).backward()
    assert a.grad == 1.0


def test_the_learners_backward_resets_only_the_output():
    says("accumulate.md", "Its `backward()` resets only the output's gradient to 1; the inner values keep theirs")
    Learner = engine_from("backward-tail", cut="\ndef grads")
    a, b, c, k = (Learner(x) for x in (2.0, 3.0, 1.0, -2.0))
    f = a * b + c
    loss = f * k
    loss.backward()
    first = f.grad
    loss.backward()
    assert loss.grad == 1.0 and f.grad == 2 * first


def test_the_live_graph_knows_the_functions_the_page_lists():
    says("alive.md", "(with `+ - * / **`, `tanh`, `exp`, `log`, `relu`, `sigmoid`)")
    assert FUNCTIONS == ("tanh", "exp", "log", "relu", "sigmoid")
    for op in ("a + b", "a - b", "a * b", "a / b", "a ** 2", *(f"{fn}(a)" for fn in FUNCTIONS)):
        assert expression_graph(op, {"a": 0.5, "b": 2.0})["output"] is not None, op


def test_every_operation_records_its_inputs():
    says("alive.md", "Every `+`, `*` and `**` you write on `Value`s quietly builds a node that remembers its inputs")
    a, b = Value(2.0), Value(3.0)
    for out in (a + b, a * b, a ** 2):
        assert a in out._children


def test_a_kink_shows_as_a_cross_in_the_lab():
    says("alive.md", "At `relu`'s kink, where its input is 0, the two disagree, and the lab's table shows ✗")
    check = expression_graph("relu(a - 2)", {"a": 2.0})["checks"]["a"]
    assert abs(check["autograd"] - check["numeric"]) > 1e-4 * (1 + abs(check["numeric"]))
    smooth = expression_graph("(a - 2) ** 2", {"a": 2.0})["checks"]["a"]
    assert abs(smooth["autograd"] - smooth["numeric"]) <= 1e-4 * (1 + abs(smooth["numeric"]))


def test_the_straight_line_fails_for_a_big_nudge_because_the_slope_moves():
    says("chain-rule.md", "at $a = 3$ the lab shows $\\partial L/\\partial a = -6$, not $-24$")
    says("chain-rule.md", "$L$ is a square, never negative")
    for a_value, slope in ((2.0, -24.0), (3.0, -6.0)):
        a = Value(a_value)
        loss = (a * -3.0 + 10.0) ** 2
        loss.backward()
        assert a.grad == slope


def test_on_the_tree_a_walk_is_right_when_each_node_comes_after_its_user():
    says("autograd.md", "any walk down from $L$ that reaches each node through the one node that uses it works")
    a, b, c, k = Value(2.0), Value(3.0), Value(10.0), Value(-2.0)
    e = a * b
    f = e + c
    L = f * k
    order = L.topological_order()
    L.backward()
    right = [n.grad for n in order]
    user = {e: f, f: L}
    for walk in permutations([L, f, e]):
        after_user = all(walk.index(node) > walk.index(used_by) for node, used_by in user.items())
        grads = _steps_in(order, walk)[-1]["grads"]
        assert (grads == right) == after_user, [n.label or n.data for n in walk]


def test_a_piece_the_network_never_calls_leaves_the_curve_and_fails_its_check():
    says("capstone.md", "A piece it never calls, such as `exp` or `log`, leaves the curve as it is; "
         "the pieces table below checks every piece on its own, so it catches those too.")
    for piece, exercise in (("exp", "exp-backward"), ("log", "log-backward")):
        codes = {piece: load(exercise).mistakes[0].code}
        assert train(codes, steps=3)["losses"] == train({}, steps=3)["losses"]
        assert [p["ok"] for p in check_pieces(codes) if p["method"] == piece] == [False]
