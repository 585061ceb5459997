from engine.walk import walk_in_reverse  # the end of backward, until you write it

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
        topo, seen = [], set()
        def build(v):
            ____  # put v into topo once, after every node it was made from
        build(self)
        walk_in_reverse(self, topo)  # given for now: the next exercise has you write it


a, b, c = Value(1.0), Value(2.0), Value(3.0)
e = a * b
L = e * (e + c)          # e is used twice, at two depths
L.backward()
print("dL/da =", a.grad, " (should be 14.0)")
