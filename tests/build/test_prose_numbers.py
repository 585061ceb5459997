"""Every worked number in the levels' prose is the engine's number.

Each number question's answer is recomputed here with the reference engine (or,
where the page speaks of the learner's own engine, with the exercise's
solution), and a number question that this file does not know fails the test:
a new worked number cannot slip in unchecked. Worked numbers in running text
are checked the same way, by the exact words the page uses.
"""

import math
import re
from pathlib import Path

import pytest

from engine import MLP, Value, finite_difference
from labs.bridge import engine_numbers, recorded_torch_numbers
from labs.tangent import STEPS, tangent

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
QUESTION = re.compile(r"^/// question \| (?P<id>[\w-]+)\n(?P<options>(?:    .*\n)*)", re.M)


def learner_engine():
    """The Value class a learner has after solving `backward-tail` (its solution)."""
    source = (ROOT / "exercises/backward-tail/solution.py").read_text().split("\ndef grads")[0]
    namespace = {}
    exec(compile(source, "backward-tail/solution.py", "exec"), namespace)  # noqa: S102 - our own file
    return namespace["Value"]


def level_graph(a, b, c, d, engine=Value, passes=1, fresh=False):
    """L = (a·b + c)·d, the autograd level's graph; returns the leaves' grads."""
    a, b, c, d = (engine(float(x)) for x in (a, b, c, d))
    loss = None
    for _ in range(passes):
        if loss is None or fresh:
            loss = (a * b + c) * d
        loss.backward()
    return {"a": a.grad, "b": b.grad, "c": c.grad, "d": d.grad, "L": loss.data}


def grad_of(fn, **inputs):
    values = {name: Value(float(x)) for name, x in inputs.items()}
    out = fn(**values)
    out.backward()
    return {name: v.grad for name, v in values.items()}


def chain_square(a, b, c):
    """L = d², d = a·b + c: the chain-rule level's example."""
    a, b, c = Value(a), Value(b), Value(c)
    d = a * b + c
    loss = d * d
    loss.backward()
    return {"d": d.grad, "a": a.grad, "d_value": d.data}


def nudge_errors(function, h):
    row = next(r for r in tangent(3.0, h, function)["errors"] if r["h"] == h)
    return [row["forward_error"], row["central_error"]]


def trained_class(point=(1.5, 1.5)):
    """The training lab's run (120 steps, as course_browser/training.js asks), then one point."""
    from labs.training import Run
    run = Run()
    run.train(120)
    return "+1" if run.model.layer_outputs(list(point))[-1][0] >= 0 else "−1"


def _final_loss(lr):
    from labs.training import Run
    run = Run(lr=lr)
    return run.train(120)[-1]


@pytest.mark.slow  # trains the page's networks
def test_the_learning_rates_the_training_page_describes():
    assert _final_loss(0.001) > 0.1  # crawls: still far from zero
    assert _final_loss(0.05) < 0.01
    assert math.isclose(_final_loss(2.0), 8 * 2 ** 2, rel_tol=1e-6)  # saturated on the wrong side


def neuron():
    """The training page's neuron by hand: w = (0.5, −1), b = 0.2, x = (2, 1)."""
    w1, w2, b = Value(0.5), Value(-1.0), Value(0.2)
    z = w1 * 2.0 + w2 * 1.0 + b
    out = z.tanh()
    out.backward()
    return {"z": z.data, "out": out.data, "rate": 1 - out.data ** 2, "w1": w1.grad, "w2": w2.grad, "b": b.grad}


def sgd_once(data, grad, lr):
    p = Value(data)
    p.grad = grad
    p.data -= lr * p.grad
    return p.data


def parameter_count():
    return len(MLP(2, [8, 8, 1]).parameters())


# question id -> the engine's answer
ANSWERS = {
    "slope-at-3": lambda: round(finite_difference(lambda x: 3 * x**2 - 4 * x + 5, [3.0], 0)),
    "pesos": lambda: 3 * 2,
    "dl-dd-square": lambda: chain_square(2.0, -3.0, 10.0)["d"],
    "dl-da-square": lambda: chain_square(2.0, -3.0, 10.0)["a"],
    "quiz-dl-da": lambda: level_graph(2, 3, 1, -2)["a"],
    "dl-dd": lambda: level_graph(2, 3, 1, -2)["d"],
    "dl-da": lambda: level_graph(2, 3, 1, -2)["a"],
    "dl-dd-c10": lambda: level_graph(2, 3, 10, -2)["d"],
    "quiz-square": lambda: grad_of(lambda x: x * x, x=3)["x"],
    "square": lambda: grad_of(lambda x: x * x, x=3)["x"],
    "diamond-grad": lambda: grad_of(lambda a: a + a, a=3)["a"],
    "backward-twice": lambda: level_graph(2, 3, 1, -2, engine=learner_engine(), passes=2)["a"],
    "pow-at-2": lambda: grad_of(lambda x: x**3, x=2)["x"],
    "log-at-quarter": lambda: grad_of(lambda a: a.log(), a=0.25)["a"],
    "parameter-count": parameter_count,
    "bridge-d-grad": lambda: engine_numbers()["d.grad"],
    "capstone-params": parameter_count,
    "review-square": lambda: chain_square(2.0, -3.0, 10.0)["d"],
    "review-diamond": lambda: grad_of(lambda a: a + a, a=3)["a"],
    "review-tanh": lambda: grad_of(lambda x: x.tanh(), x=math.atanh(0.5))["x"],
    "review-step": lambda: sgd_once(1.0, 4.0, 0.05),
    "neuron-w1": lambda: neuron()["w1"],
    "graph-size": lambda: len(((Value(1.0) * Value(2.0) + Value(3.0)).tanh()).topological_order()),
}

# (page, the words it uses with {} for each number, the engine's numbers)
PROSE = [
    ("chain-rule.md", "d = a·b + c = {:g}", lambda: [chain_square(2.0, -3.0, 10.0)["d_value"]]),
    ("autograd.md", "L goes from {:g} to {:g}, and only ∂L/∂d changes, from {:g} to {:g}",
     lambda: [level_graph(2, 3, 1, -2)["L"], level_graph(2, 3, 10, -2)["L"],
              level_graph(2, 3, 1, -2)["d"], level_graph(2, 3, 10, -2)["d"]]),
    ("autograd.md", "The gradients of a, b and c ({:g}, {:g}, {:g}) stay put",
     lambda: [level_graph(2, 3, 10, -2)[k] for k in "abc"]),
    ("accumulate.md", "one pass gives `a.grad` $= {:g}$", lambda: [level_graph(2, 3, 1, -2)["a"]]),
    ("accumulate.md", "and `a.grad` is ${:g}$, the sum of both passes",
     lambda: [level_graph(2, 3, 1, -2, passes=2, fresh=True)["a"]]),
    ("accumulate.md", "to a, on top of the {:g} from the first pass", lambda: [level_graph(2, 3, 1, -2)["a"]]),
    ("nudges.md", "with $h = 0.1$ the one-sided nudge is off by {:.2g}, the central one by\n{:.2g}.",
     lambda: nudge_errors("cubic", 0.1)),
    ("nudges.md", "with $h = 0.01$, the one-sided slope\n    is off by {:.1g} and the central one by {:.1g}.",
     lambda: nudge_errors("cubic", 0.01)),
    ("train.md", "z = 0.5·2 + (−1)·1 + 0.2 = {:g}, and\nout = tanh(0.2) = {:.4f}.", lambda: [round(neuron()["z"], 12), neuron()["out"]]),
    ("train.md", "1 − out² = {:.4f};", lambda: [neuron()["rate"]]),
    ("train.md", "∂out/∂b = {:.4f}; and", lambda: [neuron()["b"]]),
    ("train.md", "∂out/∂w₂ = {:.4f} × 1.", lambda: [neuron()["w2"]]),
    ("train.md", "the loss sticks at {:g}, the worst it can be", lambda: [round(_final_loss(2.0), 6)]),
    ("train.md", "{:d} + {:d} + {:d} = {:d} parameters",
     lambda: [3 * 8, 9 * 8, 9, parameter_count()]),
]


def number_questions():
    for page in sorted(DOCS.glob("*.md")):
        for match in QUESTION.finditer(page.read_text(encoding="utf-8")):
            options = dict(line.strip().split(": ", 1) for line in match["options"].splitlines() if ": " in line)
            # a `predicts` question has no number in the page: tests/unit/test_alive_tasks.py
            # checks the one its lab computes
            if options.get("kind", "number") == "number" and "predicts" not in options:
                yield page.name, match["id"], options


def test_every_number_question_is_checked_against_the_engine():
    unknown = [f"{page}: {qid}" for page, qid, _ in number_questions() if qid not in ANSWERS]
    assert unknown == [], "add each to ANSWERS with the engine's computation"


def test_every_number_question_says_where_to_look_after_a_wrong_answer():
    """A wrong number that is no known slip gets `look` (where to look again), never
    a bare "try again"."""
    missing = [f"{page}: {qid}" for page, qid, options in number_questions() if not options.get("look")]
    assert missing == []


@pytest.mark.parametrize(("page", "qid", "options"), list(number_questions()), ids=lambda x: x if isinstance(x, str) else "")
def test_question_answer_is_the_engines(page, qid, options):
    expected = ANSWERS[qid]()
    tolerance = float(options.get("tolerance", 1e-3))
    answer = float(options["answer"].strip("\"'").replace("−", "-"))
    assert math.isclose(answer, expected, abs_tol=tolerance), f"{page} {qid}: the page says {answer}, the engine {expected}"


def _minus(text):
    return text.replace("-", "−")


@pytest.mark.parametrize(("page", "words", "numbers"), PROSE, ids=[f"{p}:{w[:30]}" for p, w, _ in PROSE])
def test_worked_numbers_in_prose_are_the_engines(page, words, numbers):
    text = (DOCS / page).read_text(encoding="utf-8")
    values = [int(v) if float(v).is_integer() and "{:d}" in words else v for v in numbers()]
    sentence = words.format(*values)
    assert sentence in text or _minus(sentence) in text, f"{page} should say: {sentence!r}"


def test_the_nudge_errors_the_nudges_page_describes():
    """Exact central difference and 3h one-sided error on the parabola; on the cubic,
    errors that shrink like h (one-sided) and like h² (central)."""
    for h in STEPS:
        forward, central = nudge_errors("quadratic", h)
        assert central < 1e-9 and math.isclose(forward, 3 * h, rel_tol=1e-6)
    (f1, c1), (f2, c2) = nudge_errors("cubic", 0.1), nudge_errors("cubic", 0.01)
    assert 9 < f1 / f2 < 11 and 99 < c1 / c2 < 101


@pytest.mark.slow  # trains the page's networks
def test_the_trained_networks_class_is_the_pages_answer():
    text = (DOCS / "train.md").read_text(encoding="utf-8")
    block = text[text.index("/// question | trained-class"):]
    answer = re.search(r'answer: "(.+?)"', block)[1]
    assert trained_class() == answer


@pytest.mark.parametrize("number", ["L", "a.grad", "b.grad", "c.grad", "d.grad"])
def test_the_pytorch_pages_table_quotes_both_engines(number):
    """Our engine's column from the engine, PyTorch's from its recorded run."""
    row = f"| {number} | {_minus(f'{engine_numbers()[number]:.6f}')} | {_minus(f'{recorded_torch_numbers()[number]:.6f}')} |"
    assert row in (DOCS / "pytorch.md").read_text(encoding="utf-8")


# question id -> {a slip's wrong number: how that slip computes it}. A slip's message
# names a misconception, so the number it answers to must be what that misconception gives.
A, B, C, D = 2.0, 3.0, 1.0, -2.0
SLIPS = {
    "quiz-dl-da": {6: lambda: -(D * 1 * B), 3: lambda: B, -2: lambda: D * 1, -4: lambda: D * 1 * A},
    "dl-dd": {-2: lambda: D, 1: lambda: 1.0},
    "dl-dd-c10": {7: lambda: level_graph(2, 3, 1, -2)["d"], -2: lambda: D},
    "dl-dd-square": {4: lambda: chain_square(2.0, -3.0, 10.0)["d_value"], 16: lambda: chain_square(2.0, -3.0, 10.0)["d_value"] ** 2},
    "dl-da-square": {24: lambda: -chain_square(2.0, -3.0, 10.0)["a"], 8: lambda: chain_square(2.0, -3.0, 10.0)["d"],
                     -3: lambda: -3.0},
    "diamond-grad": {1: lambda: 1.0},
    "log-at-quarter": {0.25: lambda: 0.25 * 1.0, -16: lambda: -1 / 0.25 ** 2},
    "review-square": {4: lambda: chain_square(2.0, -3.0, 10.0)["d_value"]},
    "review-diamond": {1: lambda: 1.0},
    "review-tanh": {0.5: lambda: 0.5},
    "review-step": {1.2: lambda: 1.0 + 0.05 * 4.0},
    "neuron-w1": {0.961: lambda: round(neuron()["w2"], 3), 0.5: lambda: 0.5},
    "square": {9: lambda: 3.0 * 3.0, 3: lambda: 3.0 * 1.0},
    "bridge-d-grad": {0.25: lambda: 0.5 * -1.5 + 1.0, 0.4898: lambda: round(engine_numbers()["L"], 4), 2: lambda: 2.0},
    "parameter-count": {88: lambda: 2 * 8 + 8 * 8 + 8 * 1, 17: lambda: 8 + 8 + 1},
    "backward-twice": {-12: lambda: level_graph(2, 3, 1, -2, passes=2, fresh=True)["a"],
                       -6: lambda: level_graph(2, 3, 1, -2)["a"]},
}
SLIPS["dl-da"] = SLIPS["quiz-dl-da"]
SLIPS["quiz-square"] = SLIPS["square"]
SLIP_BLOCK = re.compile(r"^/// question \| (?P<id>[\w-]+)\n(?:    (?!slips:).*\n)*    slips:\n(?P<slips>(?:      .*\n)+)", re.M)


def declared_slips():
    for page in sorted(DOCS.glob("*.md")):
        for match in SLIP_BLOCK.finditer(page.read_text(encoding="utf-8")):
            values = [float(line.strip().split(":", 1)[0]) for line in match["slips"].splitlines()]
            yield page.name, match["id"], values


def test_every_slip_is_what_its_misconception_computes():
    found = list(declared_slips())
    assert {qid for _, qid, _ in found} == set(SLIPS), "each question with slips needs its computations here"
    for page, qid, values in found:
        assert sorted(values) == sorted(float(v) for v in SLIPS[qid]), f"{page} {qid}"
        for wrong, compute in SLIPS[qid].items():
            assert math.isclose(compute(), wrong, abs_tol=1e-9), f"{page} {qid}: slip {wrong} computes {compute()}"
