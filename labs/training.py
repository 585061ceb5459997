"""The training level's run: MLP(2, [8, 8, 1]) on eight points, in chunks.

The browser trains a few steps per call so the worker can report the loss
curve as it goes; the state lives here between calls.

The points are an XOR pattern (+1 where x and y have the same sign), which no
single line separates, so the hidden layers have work to do and learning takes
tens of steps. The loss is the squared error *averaged* over the points. With
these two choices the lab's rates show what the page says (checked by
tests/build/test_prose_numbers.py): 0.05 learns smoothly over the run, 0.001
crawls, and 2 overshoots into saturated tanh units whose gradients all but vanish.
"""


from engine import MLP, Value

from .entry import Lab, Page

XOR_XS = [[1.0, 1.0], [1.5, 0.5], [-1.0, -1.0], [-0.5, -1.5],
          [1.0, -1.0], [0.5, -1.5], [-1.0, 1.0], [-1.5, 0.5]]
XOR_YS = [1.0] * 4 + [-1.0] * 4
# The capstone (labs/capstone.py) trains on these, which one line separates: its
# numbers and page are its own, so they stay as they were.
XS = [[1.0, 1.0], [1.5, 0.5], [0.5, 1.5], [2.0, 1.0],
      [-1.0, -1.0], [-1.5, -0.5], [-0.5, -1.5], [-2.0, -1.0]]
YS = [1.0] * 4 + [-1.0] * 4


def squared_error(model, xs=XOR_XS, ys=XOR_YS):
    """The mean of the squared errors over the points."""
    total = sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))
    return total * (1.0 / len(xs))


def sgd_step(model, lr=0.05):
    """One full-batch step: forward, zero the grads, backward, move downhill."""
    loss = squared_error(model)
    model.zero_grad()
    loss.backward()
    for p in model.parameters():
        p.data -= lr * p.grad
    return loss.data


class Run:
    def __init__(self, seed=1, lr=0.05):
        self.model = MLP(2, [8, 8, 1], seed=seed)
        self.lr = lr
        self.losses = []

    def train(self, steps):
        for _ in range(steps):
            self.losses.append(sgd_step(self.model, self.lr))
        return self.losses

    def parameter_breakdown(self):
        rows = []
        for i, layer in enumerate(self.model.layers):
            nin, nout = len(layer.neurons[0].w), len(layer.neurons)
            rows.append({"layer": i, "neurons": nout, "inputs": nin, "parameters": nout * (nin + 1)})
        return {"rows": rows, "total": len(self.model.parameters())}

    def boundary(self, nx=36, ny=30, x_range=(-3.0, 3.0), y_range=(-2.5, 2.5)):
        """The model's output on a grid (plain floats, no graph kept)."""
        xs = [x_range[0] + (x_range[1] - x_range[0]) * i / (nx - 1) for i in range(nx)]
        ys = [y_range[0] + (y_range[1] - y_range[0]) * j / (ny - 1) for j in range(ny)]
        return {"xs": xs, "ys": ys, "z": [[self.model.layer_outputs([x, y])[-1][0] for x in xs] for y in ys],
                "points": XOR_XS, "labels": XOR_YS}

    def network(self, point):
        """Weights of every layer and every neuron's activation for one input point."""
        activations = self.model.layer_outputs(point)
        weights = [[[w.data for w in n.w] for n in layer.neurons] for layer in self.model.layers]
        return {"weights": weights, "activations": activations, "input": list(point)}


def page(_options, _exercises):
    breakdown = Run().parameter_breakdown()
    return Page({"breakdown": breakdown}, ("layer", "neurons × (inputs + 1 bias)", "parameters"),
                [(str(r["layer"] + 1), f"{r['neurons']} × ({r['inputs']} + 1)", str(r["parameters"]))
                 for r in breakdown["rows"]] + [("total", "", str(breakdown["total"]))])


# The page's run, between the worker's calls: the lab interpreter keeps it.
_current = {}


def start(seed=1, lr=0.05):
    lr = float(lr)
    if not 0 < lr <= 10:
        raise ValueError("the learning rate must be in (0, 10]")
    _current["run"] = Run(seed=int(seed), lr=lr)
    return _current["run"].parameter_breakdown()


def steps(count):
    run = _current.get("run") or _current.setdefault("run", Run())  # a new network only when there is none
    before = len(run.losses)
    losses = run.train(max(1, min(int(count), 200)))
    return {"step": len(losses), "losses": losses[before:]}


LAB = Lab(options={}, page=page, worker={
    "train_start": start, "train_steps": steps,
    "train_boundary": lambda: _current["run"].boundary(),
    "train_network": lambda x, y: _current["run"].network([float(x), float(y)]),
})
