import random

from engine import Value


class Neuron:
    def __init__(self, nin):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh()

    def parameters(self):
        return self.w + [self.b]


n = Neuron(2)
print(n([2.0, 1.0]))                  # a Value between −1 and 1
print(len(n.parameters()), "parameters (should be 3)")
