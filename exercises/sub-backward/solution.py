from engine.given import backward_pass  # the backward pass, until you write your own

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

    def __sub__(self, other):
        out = Value(self.data - other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad -= out.grad
        out._backward = _backward
        return out

    def backward(self):
        backward_pass(self)  # given for now: section 5 has you write it


# Try it: a difference, then a value used on both sides of one
a, b = Value(5.0), Value(3.0)
L = (a - b) * a
L.backward()
print("dL/da =", a.grad, " (should be 7.0)")
print("dL/db =", b.grad, " (should be -5.0)")

c = Value(2.0)
M = c - c
M.backward()
print("d(c - c)/dc =", c.grad, " (should be 0.0)")
