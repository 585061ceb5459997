"""The statements the PyTorch page makes about PyTorch and about our engine, run.

Each test quotes the page's words it holds true. The PyTorch ones need torch
(installed in the course's .venv and in CI); the engine ones run everywhere.
"""

import warnings
from pathlib import Path

import pytest

from engine import MLP, Value
from labs.bridge import engine_numbers, expression

PAGE = (Path(__file__).resolve().parents[2] / "docs/pytorch.md").read_text(encoding="utf-8")
torch = pytest.importorskip("torch")


def t(x):
    return torch.tensor(x, dtype=torch.float64, requires_grad=True)


def _torch_graph():
    """The page's L = tanh(a·b + c)·k as tensors, with its inner node a·b + c."""
    a, b, c, k = t(0.5), t(-1.5), t(1.0), t(2.0)
    inner = a * b + c
    L = inner.tanh() * k
    assert L.item() == expression(a, b, c, k).item()
    return a, inner, L


def says(words):
    assert " ".join(words.split()) in " ".join(PAGE.split()), f"the page no longer says: {words}"


def test_the_code_blocks_print_what_their_comments_say():
    says("print(a.grad)   # -2.82004…")
    says("print(L._op)    # *")
    says("print(a.grad)     # tensor(-2.8200, …)")
    says("print(L.grad_fn)  # <MulBackward0 …>")
    a, b, c, k = (Value(x) for x in (0.5, -1.5, 1.0, 2.0))
    L = (a * b + c).tanh() * k
    L.backward()
    assert f"{a.grad:.5f}" == "-2.82004" and L._op == "*"
    ta, _, tL = _torch_graph()
    tL.backward()
    assert repr(ta.grad).startswith("tensor(-2.8200") and repr(tL.grad_fn).startswith("<MulBackward0")


def test_an_inner_tensors_grad_is_never_stored_unless_retained():
    says("its `.grad` stays `None`, unless you call `retain_grad()` on it before backward")
    _, inner, L = _torch_graph()
    L.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns on reading a non-leaf's .grad
        assert inner.grad is None
    _, inner, L = _torch_graph()
    inner.retain_grad()
    L.backward()
    assert inner.grad is not None


def test_the_graph_is_freed_and_a_second_backward_raises():
    says("a second `backward()` through the same graph raises an error unless the first one passed "
         "`retain_graph=True` (a graph of sums alone saved nothing, and escapes it)")
    x, y = torch.tensor(1.0, requires_grad=True), torch.tensor(2.0, requires_grad=True)
    total = x + y
    total.backward()
    total.backward()  # sums saved nothing: no error, and the leaves add up
    assert x.grad.item() == 2.0
    a, _, L = _torch_graph()
    L.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        L.backward()
    a, _, L = _torch_graph()
    L.backward(retain_graph=True)
    first = a.grad.item()
    L.backward()
    assert a.grad.item() == pytest.approx(2 * first)  # and the second pass adds, as .grad always does


def test_a_product_saves_its_inputs_until_backward():
    says("every product keeps its inputs for its local factor")
    a, b = t(3.0), t(4.0)
    out = a * b
    assert out.grad_fn._saved_self.item() == 3.0 and out.grad_fn._saved_other.item() == 4.0
    out.backward()
    with pytest.raises(RuntimeError):
        _ = out.grad_fn._saved_self  # freed with the graph


def test_next_functions_lists_the_inputs_backward_rules():
    says("`t.grad_fn.next_functions` | the inputs the value was made from (PyTorch lists their backward rules)")
    _, _, L = _torch_graph()
    names = [type(fn).__name__ for fn, _ in L.grad_fn.next_functions]
    assert names == ["TanhBackward0", "AccumulateGrad"]  # tanh(a·b + c), and the leaf k


def test_gradient_accumulation_sums_micro_batches():
    says("call `backward()` on each loss without clearing, and step once")
    w = t(1.5)
    xs = [0.5, -2.0, 3.0, 1.0]
    for x in xs[:2], xs[2:]:  # two micro-batches, .grad never cleared
        sum((w * v - 1.0) ** 2 for v in x).backward()
    big = t(1.5)
    sum((big * v - 1.0) ** 2 for v in xs).backward()
    assert w.grad.item() == pytest.approx(big.grad.item())


def test_float16_loses_small_gradients_and_loss_scaling_keeps_them():
    says("Their smallest positive number is about $6 \\times 10^{-8}$, so a gradient of $10^{-8}$ becomes exactly 0 in `float16`")
    assert 2 ** -24 == pytest.approx(6e-8, rel=0.01)
    assert torch.tensor(2 ** -24, dtype=torch.float16).item() > 0
    assert torch.tensor(1e-8, dtype=torch.float16).item() == 0.0
    assert torch.tensor(1e-8 * 1024, dtype=torch.float16).item() > 0  # scaled, it survives


def test_our_engine_keeps_every_grad_and_its_graph():
    says("Our engine keeps every node's `.grad`")
    says("Our engine keeps its graph, which is why a second `backward()` on the same graph runs")
    a, b, c, k = (Value(x) for x in (0.5, -1.5, 1.0, 2.0))
    inner = a * b + c
    L = inner.tanh() * k
    L.backward()
    assert inner.grad != 0 and inner._children
    L.backward()  # no error


def test_a_second_pass_adds_only_at_the_leaves_as_in_pytorch():
    says("this page's engine\n  clears the inner nodes first, so only the leaves add up, as in PyTorch.")
    ours = [Value(x) for x in (0.5, -1.5, 1.0, 2.0)]
    L = (ours[0] * ours[1] + ours[2]).tanh() * ours[3]
    L.backward()
    L.backward()
    a, _, L = _torch_graph()
    L.backward(retain_graph=True)
    L.backward()
    assert ours[0].grad == pytest.approx(a.grad.item())


def test_zero_grad_clears_in_both():
    says("| `p.grad = 0.0` for every parameter (the course engine's `model.zero_grad()`) | `optimizer.zero_grad()` |"
         " clear the gradients before the next step |")
    for clear in (lambda model: [setattr(p, "grad", 0.0) for p in model.parameters()],  # the learner's MLP
                  lambda model: model.zero_grad()):  # the course engine's
        model = MLP(2, [3, 1])
        model([1.0, -1.0]).backward()
        assert any(p.grad for p in model.parameters())
        clear(model)
        assert all(p.grad == 0 for p in model.parameters())
    w = t(2.0)
    opt = torch.optim.SGD([w], lr=0.1)
    (w * w).backward()
    opt.zero_grad()
    assert w.grad is None or w.grad.item() == 0


def test_the_composite_example_gets_its_gradient_from_two_paths():
    says("`a` reaches $L$ by two paths, through `tanh` and through `exp`")
    a = Value(2.0)
    via_tanh = (a * -3.0 + 10.0).tanh() / 2.0
    via_exp = (0.5 * a).exp()
    (via_tanh + via_exp).backward()
    assert engine_numbers(which="composite")["a.grad"] == pytest.approx(a.grad)
    a1, a2 = Value(2.0), Value(2.0)
    ((a1 * -3.0 + 10.0).tanh() / 2.0).backward()
    (0.5 * a2).exp().backward()
    assert a1.grad + a2.grad == pytest.approx(a.grad) and a1.grad != 0 and a2.grad != 0


def test_the_same_expression_line_runs_on_both():
    says("The same expression, `L = (a * b + c).tanh() * k`, runs on our `Value`s and on PyTorch tensors")
    assert PAGE.count("L = (a * b + c).tanh() * k\n") == 2  # in both code blocks, word for word
