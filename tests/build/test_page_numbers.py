"""Every number on a page is either given or recomputed: nothing unchecked slips in.

For each page listed here, every number in its Markdown (prose, tables, code,
questions) must be one of:
- a question's answer or known slip: tests/build/test_prose_numbers.py recomputes those;
- a claim listed here, recomputed by the engine (or PyTorch's recorded run, or
  labs/tangent.py) and compared at the precision the page prints;
- a number in one of test_prose_numbers.py's worded claims, which recomputes it there;
- a given: an input the page chooses, a count, a version, a label; each with why.
A number this file does not know fails the test, so a new claim needs its computation.

(Numbers are matched as tokens: a given "2" also covers a "2" elsewhere on the page.)
"""

import math
import re
from pathlib import Path

import pytest

from engine import Value
from labs.bridge import engine_numbers, recorded_torch_numbers
from labs.tangent import descent, tangent

from .test_prose_numbers import prose_rows

DOCS = Path(__file__).resolve().parents[2] / "docs"
NUMBER = re.compile(r"(?<![\w.])[−-]?\d+(?:\.\d+)?(?:[eE][−-]?\d+)?(?![\w])")
QUESTION = re.compile(r"^/// question \| [\w-]+\n(?P<options>(?:    .*\n)*)", re.M)
SLIP = re.compile(r"^      (?P<value>[−-]?[\d.]+):", re.M)


def chain(a, b=-3.0, c=10.0):
    """L = (a·b + c)², the chain-rule level's example: L, ∂L/∂a, ∂L/∂d, d."""
    a, b, c = Value(a), Value(b), Value(c)
    d = a * b + c
    loss = d ** 2
    loss.backward()
    return {"L": loss.data, "a": a.grad, "d": d.grad, "d_value": d.data}


def autograd_graph(passes=1, inner_left_over=False):
    """L = (a·b + c)·k at 2, 3, 1, −2, named e = a·b, f = e + c as on the page."""
    a, b, c, k = Value(2.0), Value(3.0), Value(1.0), Value(-2.0)
    e = a * b
    f = e + c
    loss = f * k
    loss.backward()
    return {"a": a.grad, "f": f.grad, "e": e.grad}


def second_pass_to_a():
    """backward-twice's explanation: the second pass, with f.grad = e.grad = −2 left over."""
    f_grad = -2.0 + -2.0  # L sends another k = −2 to f
    e_grad = -2.0 + f_grad  # f passes its total on to e
    return {"f": f_grad, "e": e_grad, "to_a": 3.0 * e_grad}


def cubic_errors(h):
    row = next(r for r in tangent(3.0, h, "cubic")["errors"] if r["h"] == h)
    return row["forward_error"], row["central_error"]


def slope_of_f(x):
    return descent(x, 0.0, 0)[0]["slope"]


def layer_sizes():
    """The parameters of each layer of the capstone's MLP(2, [8, 8, 1]), as the engine counts them."""
    from engine import MLP
    return [len(layer.parameters()) for layer in MLP(2, [8, 8, 1]).layers]


GIVEN = {
    "nudges.md": {
        "0": "slopes of 0 at the bottom; the error 0", "1": "x₀ = 1, the lab's start", "2": "2h, x² and 2/3",
        "3": "3x², 3h, x³ and x = 3", "4": "−4x", "5": "+5", "10": "divide h by 10", "20": "Run 20 steps",
        "0.1": "h = 0.1 and the rate 0.1", "0.01": "h = 0.01 and the rate 0.01", "0.3": "a rate the lab offers",
        "0.4": "a rate the lab offers", "-1": "a slip (1 − 2), recomputed with the others",
    },
    "chain-rule.md": {
        "1": "∂L/∂L = 1, local rates of 1", "2": "a = 2, d², 2d", "3": "3 euros", "-3": "b = −3",
        "10": "c = 10", "0.01": "the nudge", "2.01": "a + the nudge", "6": "6 pesos (the pesos answer, given rates 3 × 2)",
    },
    "accumulate.md": {
        "0": "start from 0", "1": "c = 1; one path's 1", "2": "a = 2; a + a's 2", "3": "a = 3, b = 3",
        "-2": "k = −2", "-2.5": "m = −2.5",
    },
    "alive.md": {
        "0": "∂L/∂a = 0; relu at 0", "0.5": "c = 0.5", "-4": "b = −4", "2": "a = 2, and 2a",
        "4": "4*a in the example", "1": "per unit", "0.1": "lr = 0.1", "1.5": "p.data = 1.5", "-2": "p.grad = −2",
    },
    "pytorch.md": {
        "0.5": "a = 0.5", "-1.5": "b = −1.5", "1.0": "c = 1.0", "2.0": "k = 2.0", "1": "c = 1", "2": "k = 2",
        "2.13": "the PyTorch version the column was recorded with", "0.001": "a question's tolerance",
        "-3.0": "the seed's composite", "10.0": "the seed's composite", "16": "16-bit floats",
        "10": "10⁻⁸", "-8": "10⁻⁸ (and 6 × 10⁻⁸)", "6": "6 × 10⁻⁸: claimed by test_torch_claims.py",
        "0": "exactly 0", "0.25": "a·b + c = 0.25 (a slip, recomputed with the others)",
        "0.0": "`p.grad = 0.0`, what clearing a gradient sets",
    },
    "index.md": {str(n): "the course map's numbering" for n in range(1, 10)},
    "autograd.md": {
        "0": "a choice of the += question: what = would leave", "2.0": "Value(2.0), an example of a call",
        "0.0": "a new Value's grad, as __repr__ prints it",
        "5.01": "self = 5 nudged by 0.01", "3.01": "other = 3 nudged by 0.01",
    },
    "more-ops.md": {
        "-1": "b⁻¹", "-1.0": "`self * Value(-1.0)`, negation built from a product", "-3": "−3/4: a = 3 over b² = 4 (the div-rate answer, −0.75)",
        "2": "x = 2 and b = 2, the points chosen", "0.001": "the h suggested for a nudge",
        "0.01": "the questions' tolerance", "0.1": "pow-at-2's tolerance",
    },
    "train.md": {
        "-1": "w₂ = −1, and the class −1", "0": "sum's default start", "1.0": "the input (2.0, 1.0)",
        "2.0": "the input (2.0, 1.0)", "2": "x = (2, 1), 2 inputs, the rate 2, a point off by 2",
        "3": "by step 3; zip's example", "4": "zip's example; (4 + 4) / 8", "8": "8 points, 8 neurons",
        "10": "sum's example start, and 10 steps a message", "13": "sum([1, 2], 10), run by "
        "test_prose_numbers.py::test_python_examples_in_the_prose_say_what_python_computes",
        "120": "the lab's run of 120 steps", "0.05": "the default rate", "0.001": "a rate the lab offers; a tolerance",
        "1.5": "the test point (1.5, 1.5)",
        "1e-05": "a bound, held by test_prose_numbers.py::test_the_learning_rates_the_training_page_describes",
    },
    "capstone.md": {"1": "MLP(2, [8, 8, 1]), and the 1 in log(1 + eˣ)", "2": "MLP(2, [8, 8, 1]); x = 2, the point chosen",
                    "8": "MLP(2, [8, 8, 1])", "3": "section 3, three points", "0.001": "the h suggested for a nudge",
                    "0.01": "the question's tolerance", "0": "flat near 0"},
}

# page -> {the number as printed: what computes it}
CLAIMS = {
    "nudges.md": {
        "14": lambda: slope_of_f(3.0),
        "6": lambda: slope_of_f(1.0) - slope_of_f(0.0),  # f′(x) = 6x − 4
        "0.91": lambda: cubic_errors(0.1)[0], "0.09": lambda: cubic_errors(0.01)[0],
        "0.0001": lambda: cubic_errors(0.01)[1],
        "0.666667": lambda: descent(1.0, 0.1, 20)[-1]["x"], "0.7634": lambda: descent(1.0, 0.01, 20)[-1]["x"],
        "0.94": lambda: 1 - 6 * 0.01, "-0.8": lambda: 1 - 6 * 0.3, "-1.4": lambda: 1 - 6 * 0.4,
        "0.2": lambda: 0.1 * slope_of_f(1.0),
    },
    "chain-rule.md": {
        "4": lambda: chain(2.0)["d_value"], "8": lambda: chain(2.0)["d"], "-24": lambda: chain(2.0)["a"],
        "24": lambda: -chain(2.0)["a"], "16": lambda: chain(2.0)["L"], "15.76": lambda: chain(2.0)["L"] + chain(2.0)["a"] * 0.01,
        "15.7609": lambda: chain(2.01)["L"], "-0.24": lambda: chain(2.0)["a"] * 0.01,
        "16.24": lambda: chain(2.0)["L"] - chain(2.0)["a"] * 0.01, "-8": lambda: chain(2.0)["L"] + chain(2.0)["a"],
        "9": lambda: chain(3.0)["L"] - (chain(2.0)["L"] + chain(2.0)["a"]), "-6": lambda: chain(3.0)["a"],
    },
    "accumulate.md": {
        "-6": lambda: autograd_graph()["a"], "-12": lambda: 2 * autograd_graph()["a"],
        "-4": lambda: second_pass_to_a()["f"], "-18": lambda: second_pass_to_a()["to_a"],
        "-24": lambda: autograd_graph()["a"] + second_pass_to_a()["to_a"],
        "-5": lambda: 2 * -2.5, "5": lambda: 2 * 2.5, "6.25": lambda: (-2.5) ** 2,
    },
    "alive.md": {
        "1.7": lambda: 1.5 - 0.1 * -2.0, "0.2": lambda: -0.1 * -2.0, "1.3": lambda: 1.5 + 0.1 * -2.0,
        "-0.2": lambda: 0.1 * -2.0, "3.5": lambda: 1.5 - -2.0,
    },
    "pytorch.md": {
        "-2.82004": lambda: engine_numbers()["a.grad"], "-2.8200": lambda: recorded_torch_numbers()["a.grad"],
        "0.2449": lambda: engine_numbers()["k.grad"], "0.4898": lambda: engine_numbers()["L"],
        **{f"{v:.6f}": (lambda v=v: v) for v in engine_numbers().values()},
        **{f"{v:.6f}": (lambda v=v: v) for v in engine_numbers(which="composite").values()},
    },
    "index.md": {},
    "autograd.md": {},
    "more-ops.md": {},
    "train.md": {"0.25": lambda: 0.5 ** 2,  # review-tanh: 1 − t² = 1 − 0.25
                 "0.96104": lambda: 1 - math.tanh(0.5 * 2 - 1 * 1 + 0.2) ** 2},  # the neuron by hand
    "capstone.md": {
        "7.389": lambda: math.exp(2.0),
        "24": lambda: layer_sizes()[0], "72": lambda: layer_sizes()[1], "9": lambda: layer_sizes()[2],
    },
}


def page_numbers(page):
    text = re.sub(r"\]\(https?://[^)]*\)", "]", (DOCS / page).read_text(encoding="utf-8"))
    return {n.replace("−", "-") for n in NUMBER.findall(text)}


def checked_by_prose(page):
    """The numbers that fill the placeholders of test_prose_numbers.py's sentences: that
    test recomputes each one (the training page's losses, for one, need three runs)."""
    text = (DOCS / page).read_text(encoding="utf-8").replace("−", "-")
    found = set()
    for where, words, _numbers in prose_rows():
        if where != page:
            continue
        pattern = "".join(r"([-]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)" if part.startswith("{") else re.escape(part)
                          for part in re.split(r"(\{[^}]*\})", words.replace("−", "-")) if part)
        match = re.search(pattern, text)
        assert match, f"{page} no longer says {words!r}: test_prose_numbers.py fails too"
        found |= set(match.groups())
    return found


def checked_by_questions(page):
    """Answers and slips: test_prose_numbers.py recomputes every one."""
    found = set()
    for match in QUESTION.finditer((DOCS / page).read_text(encoding="utf-8")):
        for line in match["options"].splitlines():
            if line.strip().startswith("answer:"):
                found.add(line.split(":", 1)[1].strip().strip("\"'").replace("−", "-"))
        found |= {m["value"].replace("−", "-") for m in SLIP.finditer(match["options"])}
    return found


@pytest.mark.parametrize("page", sorted(GIVEN))
def test_every_number_on_the_page_is_given_or_recomputed(page):
    known = set(GIVEN[page]) | set(CLAIMS[page]) | checked_by_questions(page) | checked_by_prose(page)
    unknown = sorted(page_numbers(page) - known, key=float)
    assert unknown == [], f"{page}: add each to CLAIMS with its computation, or to GIVEN with why"


@pytest.mark.parametrize(("page", "printed"), [(p, n) for p, claims in CLAIMS.items() for n in claims])
def test_each_claimed_number_is_what_the_engine_computes(page, printed):
    assert printed.replace("-", "−") in (DOCS / page).read_text(encoding="utf-8") or printed in (DOCS / page).read_text(encoding="utf-8"), \
        f"{page} no longer prints {printed}: drop it here"
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    value = CLAIMS[page][printed]()
    assert math.isclose(value, float(printed), abs_tol=0.5 * 10 ** -decimals + 1e-12), f"{page}: {printed} is {value}"


def test_every_learner_page_is_checked():
    """The instructor guide is the only page a learner does not study."""
    pages = {p.name for p in DOCS.glob("*.md")} - {"instructors.md"}
    assert pages == set(GIVEN) == set(CLAIMS)
