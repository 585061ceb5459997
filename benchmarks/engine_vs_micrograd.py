"""`make bench`: our engine side by side with micrograd 0.1.0 (PyPI), as ratios.

(a) the course's training run: MLP 2->8->8->1 on 8 points, 120 full-batch steps
    (ReLU hidden layers and a linear output, micrograd's own network shape,
    so both engines do the same arithmetic; ours with tanh is printed too);
(b) forward + backward over a 1,000-node chain;
(c) the deepest chain each engine can backpropagate.
Figures are medians of several repeats; a ratio < 1 means ours is faster.
"""

import statistics
import sys
import time

from micrograd import engine as mg_engine
from micrograd import nn as mg_nn

from engine import MLP, Value

XS = [[1.0, 1.0], [1.5, 0.5], [0.5, 1.5], [2.0, 1.0],
      [-1.0, -1.0], [-1.5, -0.5], [-0.5, -1.5], [-2.0, -1.0]]
YS = [1.0] * 4 + [-1.0] * 4


def median_seconds(fn, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def train(model, zero):
    for _ in range(120):
        loss = sum(((model(x) - y) ** 2 for x, y in zip(XS, YS)), zero())
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data -= 0.05 * p.grad
    return loss.data


def ours_training(activation="relu", output="linear"):
    return lambda: train(MLP(2, [8, 8, 1], activation=activation, output_activation=output),
                         lambda: Value(0.0))


def micrograd_training():
    return train(mg_nn.MLP(2, [8, 8, 1]), lambda: mg_engine.Value(0.0))


def chain(value_cls, n):
    def run():
        x = value_cls(0.5)
        out = x
        for _ in range(n // 2):
            out = out * 1.0001 if isinstance(out, value_cls) else out
        out.backward()
        return x.grad
    return run


def deepest_chain(value_cls, limit):
    """Double the depth until backward fails or `limit` nodes pass."""
    depth, survived = 1000, 0
    while depth <= limit:
        x = value_cls(1.0)
        out = x
        for _ in range(depth):
            out = out + 1.0
        try:
            out.backward()
        except RecursionError:
            return survived, f"RecursionError at {depth:,}"
        survived = depth
        depth *= 2
    return survived, f"no failure up to {limit:,} (not bounded by recursion)"


def main():
    print(f"Python {sys.version.split()[0]}; medians of 5 runs\n")
    rows = []
    ours = median_seconds(ours_training())
    theirs = median_seconds(micrograd_training)
    rows.append(("(a) training 120 steps, MLP 2-8-8-1 ReLU", ours, theirs))
    ours_tanh = median_seconds(ours_training("tanh", "tanh"))
    ours_chain = median_seconds(chain(Value, 1000), repeats=51)
    theirs_chain = median_seconds(chain(mg_engine.Value, 1000), repeats=51)
    rows.append(("(b) forward+backward, 1,000-node chain", ours_chain, theirs_chain))
    print(f"{'benchmark':<44}{'ours':>11}{'micrograd':>12}{'ours/micrograd':>16}")
    for name, a, b in rows:
        print(f"{name:<44}{a * 1000:>9.2f}ms{b * 1000:>10.2f}ms{a / b:>16.2f}")
    print(f"{'    ours with tanh (the course network)':<44}{ours_tanh * 1000:>9.2f}ms")

    ours_depth, ours_note = deepest_chain(Value, 1_024_000)
    mg_depth, mg_note = deepest_chain(mg_engine.Value, 1_024_000)
    print(f"\n(c) deepest chain (additions) that backpropagates, recursion limit {sys.getrecursionlimit()}:")
    print(f"    ours:      {ours_depth:>9,} nodes  {ours_note}")
    print(f"    micrograd: {mg_depth:>9,} nodes  {mg_note}")


if __name__ == "__main__":
    main()
