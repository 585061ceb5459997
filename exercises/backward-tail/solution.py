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

    def backward(self):
        # the order your build made in the exercise before (here the engine's own,
        # so this file shows no build): each node after all of its inputs
        from engine.given import topological_order
        topo = topological_order(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()


def grads(a, b, c, k):
    a, b, c, k = Value(a), Value(b), Value(c), Value(k)
    L = (a * b + c) * k
    L.backward()
    return [a.grad, b.grad, c.grad, k.grad]

print(grads(2, 3, 1, -2))
