"""`Value`: a scalar that remembers how it was computed, so it can backpropagate.

Every operation returns a new `Value` that records its inputs (`_children`, a
tuple so the graph's order is the same on every run), the operation's name
(`_op`) and a `_backward` closure holding the operation's local rule: take
`out.grad`, multiply by the local derivative, *add* into each input's grad.

`backward()` puts the graph in topological order without recursion (Pyodide's
recursion limit is low, and a long `sum()` chain would crash a recursive walk),
then runs the closures from the output back to the inputs.

Calling `backward()` twice: interior nodes hold per-pass scratch gradients and
are reset at the start of each pass; leaves (inputs and parameters) keep
adding, exactly like PyTorch's `.grad`. That accumulation is on purpose (it is
what gradient accumulation over micro-batches relies on) and it is why a
training loop zeroes its parameters' grads before every step.
"""

import math

from .order import topological_order


def _no_backward():
    """The `_backward` of a leaf: nothing made it, so there is nowhere to send gradient."""


class Value:
    __slots__ = ("data", "grad", "_backward", "_children", "_op", "label")

    def __init__(self, data, _children=(), _op="", label=""):
        if isinstance(data, Value):
            raise TypeError("Value(Value(...)) is not allowed: pass a plain number")
        self.data = float(data)
        self.grad = 0.0
        self._backward = _no_backward
        self._children = tuple(_children)
        self._op = _op
        self.label = label

    def __repr__(self):
        return f"Value(data={self.data:.6g}, grad={self.grad:.6g})"

    # -- arithmetic -------------------------------------------------------

    def __add__(self, other):
        other = _as_value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = _as_value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __sub__(self, other):
        other = _as_value(other)
        out = Value(self.data - other.data, (self, other), "-")

        def _backward():
            self.grad += out.grad
            other.grad -= out.grad
        out._backward = _backward
        return out

    def __truediv__(self, other):
        other = _as_value(other)
        if other.data == 0.0:
            raise ZeroDivisionError("division of a Value by zero")
        out = Value(self.data / other.data, (self, other), "/")

        def _backward():
            self.grad += out.grad / other.data
            other.grad -= self.data / (other.data * other.data) * out.grad
        out._backward = _backward
        return out

    def __pow__(self, k):
        if isinstance(k, Value):
            raise TypeError("Value ** Value is not supported: the exponent must be a "
                            "plain int or float (a constant)")
        if not isinstance(k, (int, float)):
            return NotImplemented
        try:
            result = self.data ** k
        except ZeroDivisionError:
            raise ZeroDivisionError(f"0.0 ** {k} is undefined") from None
        if isinstance(result, complex):
            raise ValueError(f"{self.data} ** {k} is not a real number")
        out = Value(result, (self,), f"**{k:g}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out

    def __neg__(self):
        out = Value(-self.data, (self,), "neg")

        def _backward():
            self.grad -= out.grad
        out._backward = _backward
        return out

    def __radd__(self, other):
        return _as_value(other) + self

    def __rmul__(self, other):
        return _as_value(other) * self

    def __rsub__(self, other):
        return _as_value(other) - self

    def __rtruediv__(self, other):
        return _as_value(other) / self

    def __rpow__(self, base):
        raise TypeError("number ** Value is not supported: the exponent must be a constant")

    # -- functions ----------------------------------------------------------

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1.0 - t * t) * out.grad
        out._backward = _backward
        return out

    def relu(self):
        positive = self.data > 0.0
        out = Value(self.data if positive else 0.0, (self,), "relu")

        def _backward():
            if positive:
                self.grad += out.grad
        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad
        out._backward = _backward
        return out

    def log(self):
        if self.data <= 0.0:
            raise ValueError(f"log of a non-positive number ({self.data:g}): "
                             "log is only defined for inputs > 0")
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += out.grad / self.data
        out._backward = _backward
        return out

    def sigmoid(self):
        s = _sigmoid(self.data)
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1.0 - s) * out.grad
        out._backward = _backward
        return out

    def softplus(self):
        x = self.data
        # log(1 + e^x) written so that neither a large nor a very negative x overflows
        out = Value(max(x, 0.0) + math.log1p(math.exp(-abs(x))), (self,), "softplus")
        rate = _sigmoid(x)  # softplus's slope is the sigmoid

        def _backward():
            self.grad += rate * out.grad
        out._backward = _backward
        return out

    # -- backpropagation ----------------------------------------------------

    def topological_order(self):
        """Every node of the graph behind `self`, each after all of its inputs."""
        return topological_order(self)

    def backward(self):
        """Fill in `.grad` of every node: d(self)/d(node)."""
        order = self.topological_order()
        for node in order:
            if node._children:
                node.grad = 0.0
        self.grad = 1.0
        for node in reversed(order):
            node._backward()



def _sigmoid(x):
    """1 / (1 + e^-x), written so that a very negative x does not overflow exp."""
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _as_value(x):
    if isinstance(x, Value):
        return x
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return Value(x)
    raise TypeError(f"cannot combine a Value with {type(x).__name__} {x!r}")
