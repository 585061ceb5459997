"""The PyTorch bridge: one expression, run by our engine and by PyTorch.

PyTorch can't run in the browser, so its numbers are computed here, ahead of
time, into `bridge_torch.json` (`python -m labs.bridge` writes it again), and a
test recomputes them with torch in CI. The page's table quotes both columns,
and tests/build/test_prose_numbers.py holds the page to these numbers.
"""

import json
from pathlib import Path

from engine import Value

TORCH_FILE = Path(__file__).with_name("bridge_torch.json")
POINT = {"a": 0.5, "b": -1.5, "c": 1.0, "d": 2.0}
NAMES = tuple(POINT)


def expression(a, b, c, d):
    """Written once, it runs on Values and on tensors alike."""
    e = a * b + c
    return e.tanh() * d


def engine_numbers(point=POINT):
    values = {name: Value(x) for name, x in point.items()}
    out = expression(**values)
    out.backward()
    return {"L": out.data, **{f"{name}.grad": v.grad for name, v in values.items()}}


def torch_numbers(point=POINT):
    import torch  # noqa: PLC0415 - only where torch is installed: this build step and its test

    tensors = {name: torch.tensor(x, dtype=torch.float64, requires_grad=True) for name, x in point.items()}
    out = expression(**tensors)
    out.backward()
    return {"L": out.item(), **{f"{name}.grad": t.grad.item() for name, t in tensors.items()},
            "grad_fn": type(out.grad_fn).__name__, "torch": torch.__version__.split("+")[0]}


def recorded_torch_numbers():
    return json.loads(TORCH_FILE.read_text(encoding="utf-8"))


if __name__ == "__main__":
    TORCH_FILE.write_text(json.dumps(torch_numbers(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {TORCH_FILE}")
