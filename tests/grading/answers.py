"""Answers the grader must get right, as (exercise, fillings or edits, why).

WRONG: real misconceptions and forum-pasted code that must not pass.
RIGHT: correct rewrites that must pass (rejecting them is the third-worst bug).
Each entry is (exercise id, fill list | ("edit", [(old, new), ...]), note).
"""

RIGHT = [
    ("mul-backward", ["out.grad * other.data", "out.grad * self.data"], "factors swapped"),
    ("mul-backward", ("edit", [("self.grad += other.data * out.grad", "self.grad = self.grad + other.data * out.grad")]), "spelled-out +="),
    ("sub-backward", ["out = Value(self.data - other.data, (self, other))\ndef _backward():\n    self.grad += 1 * out.grad\n    other.grad += -1 * out.grad\nout._backward = _backward\nreturn out"], "explicit local factors"),
    ("sub-backward", ["out = Value(self.data - other.data, (self, other))\ndef _backward():\n    other.grad = other.grad - out.grad\n    self.grad = self.grad + out.grad\nout._backward = _backward\nreturn out"], "other order, spelled out"),
    ("sub-backward", ["return self + other * Value(-1.0)"], "built from + and *: their rules give subtraction's"),
    ("div-backward", ["out.grad * (1 / other.data)", "-out.grad * self.data / (other.data * other.data)"], "rearranged"),
    ("exp-backward", ["out.data * out.grad"], "out.data is exp(x)"),
    ("log-backward", ["(1 / self.data) * out.grad"], "local factor first"),
    ("log-backward", ["out.grad * self.data ** -1"], "a negative power"),
    ("log-backward", ["out.grad / abs(self.data)"], "abs: the same for x > 0, which is all log takes"),
    ("tanh-backward", ["(1 - out.data ** 2) * out.grad"], "out.data is t"),
    ("tanh-backward", ["(1 - t) * (1 + t) * out.grad"], "factored"),
    ("relu-backward", ["(self.data > 0) * out.grad"], "micrograd's own line"),
    ("relu-backward", ["out.grad if out.data > 0 else 0.0"], "a conditional"),
    ("backward-tail", ["self.grad = 1\nfor node in topo[::-1]:\n    node._backward()"], "a slice"),
    ("backward-tail", ["self.grad = 1.0\nwhile topo:\n    topo.pop()._backward()"], "pop from the end"),
    ("backward-tail", ["self.grad = 1.0\nfor v in reversed(topo):\n    if v._children:\n        v._backward()"], "skips leaves"),
    ("backward-tail", ["self.grad = 1.0\nwaiting = {}\nfor v in topo:\n    for c in v._children:\n"
                       "        waiting[c] = waiting.get(c, 0) + 1\nready = [self]\nwhile ready:\n"
                       "    v = ready.pop()\n    v._backward()\n    for c in v._children:\n"
                       "        waiting[c] -= 1\n        if waiting[c] == 0:\n            ready.append(c)"],
     "Kahn's algorithm from the output: another valid reverse topological order"),
    ("topo-order", ["if v in seen:\n    return\nseen.add(v)\nfor child in v._children:\n    build(child)\ntopo.append(v)"], "an early return"),
    ("topo-order", ["if v not in seen:\n    seen.add(v)\n    for child in v._children:\n        if child not in seen:\n            build(child)\n    topo.append(v)"],
     "checks seen before each call too"),
    ("topo-order", ["for child in v._children:\n    build(child)\nif v not in topo:\n    topo.append(v)"],
     "no seen set: a shared node's inputs are walked again, but topo lists each node once"),
    ("central-difference", ["(f(x + h) - f(x - h)) / 2 / h"], "divides twice"),
    ("chain-by-hand", ["dL_dd * 1", "dL_dd", "dL_de * b", "a * dL_de"], "reordered"),
    ("sgd-step", ["p.grad = 0", "p.data += -lr * p.grad"], "adds the negative step"),
    ("neuron", ["self.b + sum(wi * xi for wi, xi in zip(self.w, x))", "[self.b] + self.w"], "bias first, also in parameters()"),
    ("neuron", ["sum([self.w[i] * x[i] for i in range(len(x))], self.b)", "list(self.w) + [self.b]"], "indices instead of zip"),
    ("layer", ["list(map(lambda n: n(x), self.neurons))", "sum((n.parameters() for n in self.neurons), [])"],
     "map; flattened with sum"),
    ("mlp", ["layer(x)", "sum((layer.parameters() for layer in self.layers), [])"], "flattened with sum"),
    ("value-init", ["self.data = data\nself.grad = 0.0\nself._children = set(children)\nself._backward = lambda: None"],
     "micrograd's own set of children"),
]

WRONG = [
    # diamond: the three that used to pass
    ("diamond", ("edit", [("            self.grad += out.grad\n            other.grad += out.grad",
                           "            self.grad = out.grad\n            other.grad += out.grad")]), "leaves self.grad = out.grad in __add__"),
    ("diamond", ("edit", [("            self.grad += out.grad\n            other.grad += out.grad",
                           "            self.grad += out.grad\n            other.grad += self.grad")]), "other.grad += self.grad"),
    ("diamond", ("edit", [("            self.grad += out.grad\n            other.grad += out.grad",
                           "            if self is other:\n                self.grad = 2 * out.grad\n            else:\n"
                           "                self.grad = out.grad\n                other.grad = out.grad")]), "special-cases self is other"),
    ("div-backward", ("edit", [("self.grad += out.grad / other.data", "self.grad = out.grad / other.data")]), "= instead of +="),
    ("backward-tail", ["self.grad = 1.0\ndef walk(v):\n    v._backward()\n    for c in v._children:\n        walk(c)\nwalk(self)"],
     "recursive depth-first walk"),
    ("backward-tail", ["self.grad = 1.0\nqueue, seen = [self], {self}\nwhile queue:\n    v = queue.pop(0)\n    v._backward()\n"
                       "    for c in v._children:\n        if c not in seen:\n            seen.add(c)\n            queue.append(c)"],
     "breadth-first from the output with a seen set"),
    ("relu-backward", ["(1.0 if self.data > -0.25 else 0.0) * out.grad"], "passes gradient just below zero"),
    ("relu-backward", ["(1.0 if self.data >= -0.01 else 0.0) * out.grad"], "passes gradient very near zero"),
    ("mul-backward", ["out.data / self.data * out.grad", "out.data / other.data * out.grad"], "divides by an input: wrong at 0"),
    ("exp-backward", ["out.data * out.grad * (1 if self.data != 0 else 0)"], "drops the gradient at 0"),
    ("tanh-backward", ["(1 - t ** 2)"], "forgets out.grad"),
    ("log-backward", ["out.grad / (self.data + 1e-3)"], "a small epsilon against division by zero"),
    ("sub-backward", ["out = Value(self.data - other.data, (self, other))\ndef _backward():\n    self.grad -= out.grad\n    other.grad += out.grad\nout._backward = _backward\nreturn out"], "both signs flipped"),
    ("sub-backward", ["return self + Value(-other.data)"], "a new Value for −other: other's gradient is cut off"),
    ("topo-order", ["if v not in seen:\n    seen.add(v)\n    topo.append(v)\n    for child in v._children:\n        build(child)"],
     "appends before the children"),
    ("sgd-step", ["p.grad = 0.0", "p.data -= 0.05 * p.grad"], "a fixed learning rate"),
    ("sgd-step", ["pass", "p.data -= lr * p.grad"], "never zeroes"),
    ("sgd-step", ["p.grad = 0.0", "p.data -= lr * max(-5.0, min(5.0, p.grad))"], "clips the gradient at 5"),
    ("sgd-step", ["p.grad = 0.0", "p.data -= lr * max(-20.0, min(20.0, p.grad))"], "clips the gradient at 20"),
    ("central-difference", ["(f(x) - f(x - h)) / h"], "backward one-sided difference"),
    ("neuron", ["sum(wi * xi for wi, xi in zip(self.w, x)) + self.b.data", "self.w + [self.b]"],
     "the bias added as a float: right outputs, but b gets no gradient"),
    ("neuron", ["sum((wi * xi for wi, xi in zip(self.w, x)), self.b)", "self.w + [self.b, self.b]"], "lists the bias twice: it would step twice"),
    ("layer", ["[self.neurons[0](x)] * len(self.neurons)", "[p for n in self.neurons for p in n.parameters()]"],
     "every output is the first neuron's"),
    ("mlp", ["layer(x)", "[p for layer in self.layers for p in layer.parameters()] + self.layers[-1].parameters()"],
     "lists the last layer twice: it would step twice"),
    ("central-difference", ["(f(x + 2 * h) - f(x - 2 * h)) / (4 * h)"], "nudges by 2h: still central but not the h given"),
    # a red-team pass found these passing (2026-12-07)
    ("relu-backward", ["out.data / self.data * out.grad"], "relu(x) / x as the slope: crashes where the input is 0"),
    ("pow-backward", ["(k * out.data / self.data if self.data else 0.0) * out.grad"],
     "a guarded x ** k / x: 0 for x ** 1 at 0, where the slope is 1"),
    ("chain-by-hand", ["dL_dd", "dL_dd", "e / a * dL_de", "e / b * dL_de"], "e / a for b: undefined at a = 0"),
    ("neuron", ["sum((wi * getattr(xi, 'data', xi) for wi, xi in zip(self.w, x)), self.b)", "self.w + [self.b]"],
     "reads the inputs' .data: no gradient reaches a layer before"),
]
