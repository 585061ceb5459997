from engine.given import backward_pass  # the backward pass, until you write your own

class Value:
    def __init__(self, data, children=()):
        ____  # four attributes: data, grad, _children, _backward

    def __repr__(self):  # what print shows for a Value: given, not graded
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other):
        out = Value(self.data + other.data, (self, other))
        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def backward(self):
        backward_pass(self)  # given for now: section 5 has you write it


a, b = Value(2.0), Value(3.0)
L = a + b
L.backward()
print(L)     # Value(data=5.0, grad=1.0)
print(a, b)  # each input's grad: how much L moves per unit of it
