"""A tiny neural-network library on top of `Value`: Neuron, Layer, MLP.

`MLP(2, [8, 8, 1])` is the course's network: 2 inputs, two hidden layers of
8 tanh neurons, one tanh output, 105 parameters. Weights start uniform in
[-1, 1) from a seeded generator, so every run (CPython or Pyodide) trains
the same network.
"""

import math
import random

from .engine import Value

# Each activation on Values (recorded, so backward() can run through it) and on
# plain floats (the same numbers, fast: the training lab draws 1,000 points).
ON_VALUES = {"tanh": Value.tanh, "relu": Value.relu, "linear": lambda v: v}
ON_FLOATS = {"tanh": math.tanh, "relu": lambda x: max(0.0, x), "linear": lambda x: x}
ACTIVATIONS = tuple(ON_VALUES)


class Module:
    def parameters(self):
        return []

    def zero_grad(self):
        """Gradients accumulate across backward passes; clear them before each step."""
        for p in self.parameters():
            p.grad = 0.0


class Neuron(Module):
    def __init__(self, nin, activation="tanh", rng=None):
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, not {activation!r}")
        rng = rng or random.Random(0)
        self.w = [Value(rng.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.activation = activation

    def __call__(self, x):
        return ON_VALUES[self.activation](sum((wi * xi for wi, xi in zip(self.w, x)), self.b))

    def on_floats(self, x):
        """The same neuron on plain floats: no graph, no gradient."""
        return ON_FLOATS[self.activation](sum(wi.data * xi for wi, xi in zip(self.w, x)) + self.b.data)

    def parameters(self):
        return self.w + [self.b]

    def __repr__(self):
        return f"{self.activation.capitalize()}Neuron({len(self.w)})"


class Layer(Module):
    def __init__(self, nin, nout, activation="tanh", rng=None):
        rng = rng or random.Random(0)
        self.neurons = [Neuron(nin, activation, rng) for _ in range(nout)]

    def __call__(self, x):
        outs = [n(x) for n in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self):
        return f"Layer of [{', '.join(str(n) for n in self.neurons)}]"


class MLP(Module):
    def __init__(self, nin, nouts, seed=42, activation="tanh", output_activation="tanh"):
        rng = random.Random(seed)
        sizes = [nin] + list(nouts)
        self.layers = [
            Layer(sizes[i], sizes[i + 1],
                  output_activation if i == len(nouts) - 1 else activation, rng)
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def layer_outputs(self, x):
        """The forward pass on plain floats: the input, then each layer's outputs."""
        outs = [list(x)]
        for layer in self.layers:
            outs.append([n.on_floats(outs[-1]) for n in layer.neurons])
        return outs

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self):
        return f"MLP of [{', '.join(str(layer) for layer in self.layers)}]"
