"""The PyTorch bridge: the same expressions, run by our engine and by PyTorch.

PyTorch can't run in the browser, so its numbers are computed here, ahead of
time, into `bridge_torch.json` (`python -m labs.bridge` writes it again), and a
test recomputes them with torch in CI. The page's tables quote both columns,
and tests/build/test_prose_numbers.py holds the page to these numbers.

Two expressions: the page's four-input graph, and the second seed's composite
(reversed operands, division, exp and tanh on one input), whose a.grad = 1.35713.
"""

import json
from pathlib import Path

from engine import Value

TORCH_FILE = Path(__file__).with_name("bridge_torch.json")


def expression(a, b, c, k):
    """Written once, it runs on Values and on tensors alike."""
    e = a * b + c
    return e.tanh() * k


def composite(a):
    """The second seed's example: a float on either side of an operator, a division, exp and tanh."""
    return (a * -3.0 + 10.0).tanh() / 2.0 + (0.5 * a).exp()


EXPRESSIONS = {
    "bridge": (expression, {"a": 0.5, "b": -1.5, "c": 1.0, "k": 2.0}),
    "composite": (composite, {"a": 2.0}),
}
POINT = EXPRESSIONS["bridge"][1]
NAMES = tuple(POINT)


def engine_numbers(point=None, which="bridge"):
    fn, default = EXPRESSIONS[which]
    point = default if point is None else point
    values = {name: Value(x) for name, x in point.items()}
    out = fn(**values)
    out.backward()
    return {"L": out.data, **{f"{name}.grad": v.grad for name, v in values.items()}}


def torch_numbers(point=None, which="bridge"):
    import torch  # noqa: PLC0415 - only where torch is installed: this build step and its test

    fn, default = EXPRESSIONS[which]
    point = default if point is None else point
    tensors = {name: torch.tensor(x, dtype=torch.float64, requires_grad=True) for name, x in point.items()}
    out = fn(**tensors)
    out.backward()
    return {"L": out.item(), **{f"{name}.grad": t.grad.item() for name, t in tensors.items()},
            "grad_fn": type(out.grad_fn).__name__, "torch": torch.__version__.split("+")[0]}


def recorded_torch_numbers(which="bridge"):
    return json.loads(TORCH_FILE.read_text(encoding="utf-8"))[which]


if __name__ == "__main__":
    record = {name: torch_numbers(point, name) for name, (_, point) in EXPRESSIONS.items()}
    TORCH_FILE.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {TORCH_FILE}")
