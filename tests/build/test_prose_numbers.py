"""Every worked number in the levels' prose is the engine's number.

Each number question's answer is recomputed here with the reference engine (or,
where the page speaks of the learner's own engine, with the exercise's
solution), and a number question that this file does not know fails the test:
a new worked number cannot slip in unchecked. Worked numbers in running text
are checked the same way, by the exact words the page uses.
"""

import functools
import math
import re
from pathlib import Path

import pytest

from engine import MLP, Value, finite_difference
from grader.catalog import load
from labs.bridge import engine_numbers, recorded_torch_numbers
from labs.tangent import STEPS, descent, tangent
from runner.facts import QUESTION_TOLERANCE
from tests.marks import slow

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
QUESTION = re.compile(r"^/// question \| (?P<id>[\w-]+)\n(?P<options>(?:    .*\n)*)", re.M)


def learner_engine():
    """The Value class a learner has after solving `backward-tail` (its solution)."""
    source = load("backward-tail").solution.split("\ndef grads")[0]
    namespace = {}
    exec(compile(source, "backward-tail's solution", "exec"), namespace)  # noqa: S102 - our own file
    return namespace["Value"]


def level_graph(a, b, c, k, engine=Value, passes=1, fresh=False):
    """L = (a·b + c)·k, the autograd level's graph; returns the leaves' grads."""
    a, b, c, k = (engine(float(x)) for x in (a, b, c, k))
    loss = None
    for _ in range(passes):
        if loss is None or fresh:
            loss = (a * b + c) * k
        loss.backward()
    return {"a": a.grad, "b": b.grad, "c": c.grad, "k": k.grad, "L": loss.data}


def shared_graph(a, b, c, order="topological"):
    """e = a·b, L = e·(e + c), the autograd level's shared-node graph, walked in
    reverse topological order or breadth-first (the lab's wrong order)."""
    from labs.level_graph import shared_graph as lab
    data = lab(a, b, c)
    grads = (data["steps"] if order == "topological" else data["wrong"])[-1]["grads"]
    return {**{n["label"]: g for n, g in zip(data["graph"]["nodes"], grads)},
            **{n["label"] + " value": n["data"] for n in data["graph"]["nodes"]}}


def rate(fn, x, h=0.01):
    """What the learner measures by a nudge: (fn(x + h) − fn(x)) / h."""
    return (fn(x + h) - fn(x)) / h


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
    return {"d": d.grad, "a": a.grad, "d_value": d.data, "L": loss.data}


def predicted_L(a_to, a=2.0, b=-3.0, c=10.0):
    """The straight-line prediction from a = 2: L + ∂L/∂a × the nudge."""
    at = chain_square(a, b, c)
    return at["L"] + at["a"] * (a_to - a)


def nudge_errors(function, h):
    row = next(r for r in tangent(3.0, h, function)["errors"] if r["h"] == h)
    return [row["forward_error"], row["central_error"]]


def trained_class(point=(1.5, 1.5)):
    """The training lab's run (120 steps, as course_browser/labs/training.js asks), then one point."""
    from labs.training import Run
    run = Run()
    run.train(120)
    return "+1" if run.model.layer_outputs(list(point))[-1][0] >= 0 else "−1"


@functools.cache
def _losses(lr):
    from labs.training import Run
    return Run(lr=lr).train(120)


@functools.cache
def _saturated():
    """The run at rate 2 after 120 steps: the output's 1 − t² at each point on the
    wrong side, and the largest gradient of any parameter."""
    from labs.training import XOR_XS as XS
    from labs.training import XOR_YS as YS
    from labs.training import Run, squared_error
    run = Run(lr=2.0)
    run.train(120)
    outs = [run.model.layer_outputs(x)[-1][0] for x in XS]
    wrong = [1 - t * t for t, y in zip(outs, YS) if t * y < 0]
    loss = squared_error(run.model)
    run.model.zero_grad()
    loss.backward()
    return wrong, max(abs(p.grad) for p in run.model.parameters())


@pytest.mark.slow  # trains the page's networks
def test_the_learning_rates_the_training_page_describes():
    smooth, crawl, big = _losses(0.05), _losses(0.001), _losses(2.0)
    # the default learns over the run, not in one step
    assert smooth[1] > 0.9 * smooth[0] and smooth[29] < 0.25 * smooth[0] and smooth[-1] < 0.02
    assert crawl[-1] > 0.9 * crawl[0]  # a real crawl
    assert max(big[:5]) > 2 * big[0]  # overshoots
    assert all(abs(loss - 1.0) < 1e-4 for loss in big[-40:])  # then stuck: two points off by 2
    wrong, largest = _saturated()
    assert len(wrong) == 2 and max(wrong) < 1e-5 and largest < 1e-5


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
    "descent-first-step": lambda: descent(1.0, 0.1, 1)[1]["x"],
    "predict-small-nudge": lambda: predicted_L(2.01),
    "predict-big-nudge": lambda: chain_square(3.0, -3.0, 10.0)["L"],
    "grad-two-passes": lambda: level_graph(2, 3, 1, -2, passes=2, fresh=True)["a"],
    "pesos": lambda: 3 * 2,
    "dl-dd-square": lambda: chain_square(2.0, -3.0, 10.0)["d"],
    "dl-da-square": lambda: chain_square(2.0, -3.0, 10.0)["a"],
    "quiz-dl-da": lambda: level_graph(3, 4, -1, -2)["a"],
    "dl-dd": lambda: level_graph(2, 3, 1, -2)["k"],
    "dl-da": lambda: level_graph(2, 3, 1, -2)["a"],
    "dl-dd-c10": lambda: level_graph(2, 3, 10, -2)["k"],
    "quiz-square": lambda: grad_of(lambda x: x * x, x=5)["x"],
    "sub-rate-self": lambda: rate(lambda s: s - 3.0, 5.0),
    "sub-rate-other": lambda: rate(lambda o: 5.0 - o, 3.0),
    "shared-dl-da": lambda: shared_graph(2, 3, 1)["a"],
    "square": lambda: grad_of(lambda x: x * x, x=3)["x"],
    "diamond-grad": lambda: grad_of(lambda a: a + a, a=3)["a"],
    "backward-twice": lambda: level_graph(2, 3, 1, -2, engine=learner_engine(), passes=2)["a"],
    "pow-at-2": lambda: grad_of(lambda x: x**3, x=2)["x"],
    # more-ops: each rate measured before its exercise (the engine's rule, which the nudge approximates)
    "tanh-rate": lambda: grad_of(lambda x: x.tanh(), x=0.5)["x"],
    "exp-rate": lambda: grad_of(lambda x: x.exp(), x=1.0)["x"],
    "log-rate": lambda: grad_of(lambda x: x.log(), x=4.0)["x"],
    "relu-rate": lambda: grad_of(lambda x: x.relu(), x=-2.0)["x"],
    "div-rate": lambda: grad_of(lambda a, b: a / b, a=3.0, b=2.0)["b"],
    "log-at-quarter": lambda: grad_of(lambda a: a.log(), a=0.25)["a"],
    "softplus-rate": lambda: grad_of(lambda x: x.softplus(), x=2.0)["x"],
    "parameter-count": parameter_count,
    "bridge-d-grad": lambda: engine_numbers()["k.grad"],
    "capstone-params": parameter_count,
    "review-square": lambda: grad_of(lambda m: m * m, m=-2.5)["m"],
    "review-diamond": lambda: grad_of(lambda a: a + a + a, a=7)["a"],
    "review-tanh": lambda: grad_of(lambda x: x.tanh(), x=math.atanh(0.5))["x"],
    "review-step": lambda: sgd_once(1.5, -2.0, 0.1),
    "neuron-w1": lambda: neuron()["w1"],
    "graph-size": lambda: len(((Value(1.0) * Value(2.0) + Value(3.0)).tanh()).topological_order()),
}

def prose_rows():
    """PROSE as (page, words, numbers), marks set aside."""
    return [row.values if hasattr(row, "values") else row for row in PROSE]


# (page, the words it uses with {} for each number, the engine's numbers)
PROSE = [
    ("chain-rule.md", "d = a·b + c = {:g}", lambda: [chain_square(2.0, -3.0, 10.0)["d_value"]]),
    ("autograd.md", "L goes from {:g} to {:g}, and only ∂L/∂k changes, from {:g} to {:g}",
     lambda: [level_graph(2, 3, 1, -2)["L"], level_graph(2, 3, 10, -2)["L"],
              level_graph(2, 3, 1, -2)["k"], level_graph(2, 3, 10, -2)["k"]]),
    ("autograd.md", "∂L/∂e collects two parts: f = {:g} straight from the product L = e·f, and e = {:g}",
     lambda: [shared_graph(2, 3, 1)["f value"], shared_graph(2, 3, 1)["e value"]]),
    ("autograd.md", "So ∂L/∂e = {:g} + {:g} = {:g}, and ∂L/∂a = {:g} × b = {:g}.",
     lambda: [shared_graph(2, 3, 1)["f value"], shared_graph(2, 3, 1)["e value"], shared_graph(2, 3, 1)["e"],
              shared_graph(2, 3, 1)["e"], shared_graph(2, 3, 1)["a"]]),
    ("autograd.md", "In the wrong order, ∂L/∂a comes out {:g}, not {:g}.",
     lambda: [shared_graph(2, 3, 1, "breadth-first")["a"], shared_graph(2, 3, 1)["a"]]),
    ("autograd.md", "but e has already passed on {:g} × 3 = {:g} to a",
     lambda: [shared_graph(2, 3, 1)["f value"], shared_graph(2, 3, 1, "breadth-first")["a"]]),
    ("autograd.md", "The gradients of a, b and c ({:g}, {:g}, {:g}) stay put",
     lambda: [level_graph(2, 3, 10, -2)[k] for k in "abc"]),
    ("accumulate.md", "one\npass gives `a.grad` $= {:g}$", lambda: [level_graph(2, 3, 1, -2)["a"]]),
    ("accumulate.md", "to a, on top of the {:g} from the first pass", lambda: [level_graph(2, 3, 1, -2)["a"]]),
    ("nudges.md", "with $h = 0.1$ the one-sided nudge is off by {:.2g}, the central one by\n{:.2g}.",
     lambda: nudge_errors("cubic", 0.1)),
    ("nudges.md", "with $h = 0.01$, the one-sided slope\n    is off by {:.1g} and the central one by {:.1g}.",
     lambda: nudge_errors("cubic", 0.01)),
    ("train.md", "z = 0.5·2 + (−1)·1 + 0.2 = {:g}, and\nout = tanh(0.2) = {:.4f}.", lambda: [round(neuron()["z"], 12), neuron()["out"]]),
    ("train.md", "1 − out² = {:.4f};", lambda: [neuron()["rate"]]),
    ("train.md", "∂out/∂b = {:.4f}; and", lambda: [neuron()["b"]]),
    ("train.md", "∂out/∂w₂ = {:.4f} × 1.", lambda: [neuron()["w2"]]),
    ("more-ops.md", "The output there is $t = \\tanh 0.5 = {:.4f}$, and $1 - t^2 = {:.4f}$",
     lambda: [math.tanh(0.5), grad_of(lambda x: x.tanh(), x=0.5)["x"]]),
    # the rows below train the page's network: seconds each
    slow("train.md", "from {:.3f} at step 1 to {:.3f} at step 10\n  and {:.3f} at step 120;",
     lambda: [_losses(0.05)[0], _losses(0.05)[9], _losses(0.05)[-1]]),
    slow("train.md", "at 0.001 it crawls: at step 120 it is still {:.3f};", lambda: [_losses(0.001)[-1]]),
    slow("train.md", "(the loss climbs to {:.3f} by step 3)", lambda: [_losses(2.0)[2]]),
    slow("train.md", "loss sticks at (4 + 4) / 8 = {:.0f}.", lambda: [_losses(2.0)[-1]]),
    slow("train.md", "no\n  parameter's gradient is bigger than {:.1e},", lambda: [_saturated()[1]]),
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
    tolerance = float(options.get("tolerance", QUESTION_TOLERANCE))
    answer = float(options["answer"].strip("\"'").replace("−", "-"))
    assert math.isclose(answer, expected, abs_tol=tolerance), f"{page} {qid}: the page says {answer}, the engine {expected}"


def _minus(text):
    return text.replace("-", "−")


@pytest.mark.parametrize(("page", "words", "numbers"), PROSE, ids=[f"{page}:{words[:30]}" for page, words, _ in prose_rows()])
def test_worked_numbers_in_prose_are_the_engines(page, words, numbers):
    text = (DOCS / page).read_text(encoding="utf-8")
    values = [int(v) if float(v).is_integer() and "{:d}" in words else v for v in numbers()]
    sentence = words.format(*values)
    assert sentence in text or _minus(sentence) in text, f"{page} should say: {sentence!r}"


# more-ops: the functions whose rates the learner measures, at the page's points
MEASURED = {"tanh-rate": (math.tanh, 0.5), "exp-rate": (math.exp, 1.0), "log-rate": (math.log, 4.0),
            "relu-rate": (lambda x: max(0.0, x), -2.0), "pow-at-2": (lambda x: x ** 3, 2.0),
            "div-rate": (lambda b: 3.0 / b, 2.0),
            "softplus-rate": (lambda x: math.log1p(math.exp(x)), 2.0)}


def test_a_nudge_measures_each_rate_within_the_questions_tolerance():
    """The page tells the learner to nudge by h = 0.001 both ways and divide by 2h; one
    who nudges one way only, as the first level did before the central difference,
    must count as right too."""
    options = {qid: o for _, qid, o in number_questions()}
    for qid, (fn, x) in MEASURED.items():
        answer = float(options[qid]["answer"].replace("−", "-"))
        for measured in ((fn(x + 0.001) - fn(x - 0.001)) / 0.002, (fn(x + 0.001) - fn(x)) / 0.001):
            assert abs(measured - answer) <= float(options[qid].get("tolerance", QUESTION_TOLERANCE)), (qid, measured)


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


@pytest.mark.parametrize(("which", "number"), [("bridge", n) for n in ("L", "a.grad", "b.grad", "c.grad", "k.grad")]
                         + [("composite", n) for n in ("L", "a.grad")])
def test_the_pytorch_pages_tables_quote_both_engines(which, number):
    """Our engine's column from the engine, PyTorch's from its recorded run."""
    ours, theirs = engine_numbers(which=which)[number], recorded_torch_numbers(which)[number]
    row = f"| {number} | {_minus(f'{ours:.6f}')} | {_minus(f'{theirs:.6f}')} |"
    assert row in (DOCS / "pytorch.md").read_text(encoding="utf-8")


def test_the_composite_example_is_the_seeds():
    """The second seed prints Value(data=2, grad=1.35713) for its composite expression."""
    assert round(engine_numbers({"a": 2.0}, "composite")["a.grad"], 5) == 1.35713


# question id -> {a slip's wrong number: how that slip computes it}. A slip's message
# names a misconception, so the number it answers to must be what that misconception gives.
A, B, C, K = 2.0, 3.0, 1.0, -2.0
QA, QB, QK = 3.0, 4.0, -2.0  # the skip test's own numbers, which no lab on the page shows
SLIPS = {
    "dl-da": {6: lambda: -(K * 1 * B), 3: lambda: B, -2: lambda: K * 1, -4: lambda: K * 1 * A},
    "quiz-dl-da": {8: lambda: -(QK * 1 * QB), 4: lambda: QB, -2: lambda: QK * 1, -6: lambda: QK * 1 * QA},
    "dl-dd": {-2: lambda: K, 1: lambda: 1.0},
    "dl-dd-c10": {7: lambda: level_graph(2, 3, 1, -2)["k"], -2: lambda: K},
    "quiz-square": {25: lambda: 5.0 * 5.0, 5: lambda: 5.0 * 1.0},
    "sub-rate-self": {2: lambda: 5.0 - 3.0, 0.01: lambda: (5.01 - 3.0) - (5.0 - 3.0)},
    "sub-rate-other": {1: lambda: -rate(lambda o: 5.0 - o, 3.0), -0.01: lambda: (5.0 - 3.01) - (5.0 - 3.0)},
    # e's two parts alone (from L straight, through f), and ∂L/∂e itself
    "shared-dl-da": {21: lambda: shared_graph(2, 3, 1, "breadth-first")["a"], 18: lambda: shared_graph(2, 3, 1)["e value"] * B,
                     13: lambda: shared_graph(2, 3, 1)["e"]},
    "dl-dd-square": {4: lambda: chain_square(2.0, -3.0, 10.0)["d_value"], 16: lambda: chain_square(2.0, -3.0, 10.0)["d_value"] ** 2},
    "dl-da-square": {24: lambda: -chain_square(2.0, -3.0, 10.0)["a"], 8: lambda: chain_square(2.0, -3.0, 10.0)["d"],
                     -3: lambda: -3.0},
    "diamond-grad": {1: lambda: 1.0},
    "log-at-quarter": {0.25: lambda: 0.25 * 1.0, -16: lambda: -1 / 0.25 ** 2},
    "review-square": {-2.5: lambda: -2.5, 6.25: lambda: (-2.5) ** 2, 5: lambda: -grad_of(lambda m: m * m, m=-2.5)["m"]},
    "descent-first-step": {1.2: lambda: 1.0 + 0.1 * descent(1.0, 0.1, 0)[0]["slope"],
                           -1: lambda: 1.0 - descent(1.0, 0.1, 0)[0]["slope"],
                           0.2: lambda: 0.1 * descent(1.0, 0.1, 0)[0]["slope"]},
    "predict-small-nudge": {16.24: lambda: chain_square(2.0, -3.0, 10.0)["L"] - chain_square(2.0, -3.0, 10.0)["a"] * 0.01,
                            -0.24: lambda: chain_square(2.0, -3.0, 10.0)["a"] * 0.01,
                            -8: lambda: predicted_L(3.0)},
    "predict-big-nudge": {-8: lambda: predicted_L(3.0)},
    "grad-two-passes": {-6: lambda: level_graph(2, 3, 1, -2)["a"],
                        -24: lambda: level_graph(2, 3, 1, -2, engine=learner_engine(), passes=2)["a"]},
    "tanh-rate": {0.4621: lambda: round(math.tanh(0.5), 4)},
    "log-rate": {1.3863: lambda: round(math.log(4.0), 4)},
    "relu-rate": {1: lambda: grad_of(lambda x: x.relu(), x=3.0)["x"], -2: lambda: -2.0},
    "pow-at-2": {8: lambda: 2.0 ** 3},
    "softplus-rate": {2.1269: lambda: round(math.log1p(math.exp(2.0)), 4), 7.3891: lambda: round(math.exp(2.0), 4),
                      0.1192: lambda: round(1 / (1 + math.exp(2.0)), 4)},
    "div-rate": {0.5: lambda: grad_of(lambda a, b: a / b, a=3.0, b=2.0)["a"], 1.5: lambda: 3.0 / 2.0},
    "review-diamond": {1: lambda: 1.0, 7: lambda: 7.0},
    "review-tanh": {0.5: lambda: 0.5},
    "slope-at-3": {20: lambda: 3 * 3.0**2 - 4 * 3.0 + 5},
    "review-step": {1.3: lambda: 1.5 + 0.1 * -2.0, -0.2: lambda: 0.1 * -2.0, 3.5: lambda: 1.5 - -2.0},
    "neuron-w1": {0.961: lambda: round(neuron()["w2"], 3), 0.5: lambda: 0.5},
    "square": {9: lambda: 3.0 * 3.0, 3: lambda: 3.0 * 1.0},
    "bridge-d-grad": {0.25: lambda: 0.5 * -1.5 + 1.0, 0.4898: lambda: round(engine_numbers()["L"], 4), 2: lambda: 2.0},
    "parameter-count": {88: lambda: 2 * 8 + 8 * 8 + 8 * 1, 17: lambda: 8 + 8 + 1},
    "backward-twice": {-12: lambda: level_graph(2, 3, 1, -2, passes=2, fresh=True)["a"],
                       -6: lambda: level_graph(2, 3, 1, -2)["a"]},
}
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


PYTHON_CLAIM = re.compile(r"`([^`]+)` is\s+`([^`]+)`")


@pytest.mark.parametrize("page", ["autograd.md", "more-ops.md", "train.md"])
def test_python_examples_in_the_prose_say_what_python_computes(page):
    """"`list(reversed([1, 2, 3]))` is `[3, 2, 1]`": each such claim is run."""
    claims = PYTHON_CLAIM.findall((DOCS / page).read_text(encoding="utf-8"))
    assert claims or page == "more-ops.md"
    for expression, value in claims:
        assert eval(expression) == eval(value), f"{page}: {expression} is {eval(expression)!r}"  # noqa: S307 - our own pages
