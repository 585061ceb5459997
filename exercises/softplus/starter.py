import math


class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._children = children
        self._backward = lambda: None

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def softplus(self):
        ____  # the whole operation: its value, out, its rule, its wiring

    def backward(self):
        topo, seen = [], set()
        def build(v):
            if v not in seen:
                seen.add(v)
                for child in v._children:
                    build(child)
                topo.append(v)
        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def slope(f, x, h=1e-5):
    """The nudge oracle of the first level: the central difference."""
    return (f(x + h) - f(x - h)) / (2 * h)


# 1. Your rule against the nudge, on y = softplus(x) · x (x used twice, as in a network)
for x0 in (-2.0, 0.0, 1.5):
    x = Value(x0)
    (x.softplus() * x).backward()
    nudge = slope(lambda v: math.log(1 + math.exp(v)) * v, x0)
    same = "agree" if abs(x.grad - nudge) < 1e-6 else "DIFFER: check your rule"
    print(f"x = {x0:4}: your rule gives dy/dx = {x.grad:.6f}, the nudge {nudge:.6f}: {same}")

# 2. Train with it: one softplus unit, out = softplus(w·x + b), learns y = 2x for x > 0
xs, ys = [-2.0, -1.0, 0.5, 1.0, 2.0], [0.0, 0.0, 1.0, 2.0, 4.0]
w, b = Value(0.5), Value(0.0)
for step in range(201):
    if abs(w.data) + abs(b.data) > 50:  # a right rule keeps them near 2 and -0.4
        print(f"step {step:3}: the weights ran away (w = {w.data:.3g}): check your rule")
        break
    loss = Value(0.0)
    for x, y in zip(xs, ys):
        d = (w * Value(x) + b).softplus() + Value(-y)
        loss = loss + d * d
    w.grad, b.grad = 0.0, 0.0
    loss.backward()
    w.data -= 0.02 * w.grad
    b.data -= 0.02 * b.grad
    if step % 50 == 0:
        print(f"step {step:3}: loss {loss.data:.4f}")
print(f"w = {w.data:.3f}, b = {b.data:.3f}  (a falling loss alone proves little: the nudge above is the test)")
