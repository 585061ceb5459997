"""The level-graph lab: a small graph stepped through, forward then backward.

Two graphs, named as the page names them:
- `tree`: L = (a·b + c)·k, every node used once, so any walk down from L that
  reaches each node through the node that uses it is right;
- `shared`: e = a·b, f = e + c, L = e·f. e feeds L directly and through f, at two
  depths, so it must wait for both before it passes its gradient on. The lab also
  walks it breadth-first (L, then e, then f: nearest to L first), the order a
  learner reaches for, and that walk gives a wrong ∂L/∂a.
"""

from engine import Value
from engine.graph import backward_steps, to_graph

from .entry import Lab, Page, graph_rows, number, one_of


def level_graph(a, b, c, k):
    """L = (a·b + c)·k with named nodes: the graph, and the backward pass step by step."""
    a, b, c, k = (Value(v, label=n) for v, n in zip((a, b, c, k), "abck"))
    e = a * b
    f = e + c
    L = f * k
    e.label, f.label, L.label = "e", "f", "L"
    return {"graph": to_graph(L), "steps": backward_steps(L)}


def shared_graph(a, b, c):
    """e = a·b, f = e + c, L = e·f: the graph, the backward pass in reverse
    topological order (`steps`), and the same pass visited breadth-first (`wrong`)."""
    a, b, c = (Value(v, label=n) for v, n in zip((a, b, c), "abc"))
    e = a * b
    f = e + c
    L = e * f
    e.label, f.label, L.label = "e", "f", "L"
    graph = to_graph(L)
    order = L.topological_order()
    wrong = _steps_in(order, _breadth_first(L))
    return {"graph": graph, "steps": backward_steps(L), "wrong": wrong}


def _breadth_first(root):
    """The operations nearest to the output first: each node's inputs join the
    queue the first time it is reached."""
    queue = [root]
    for node in queue:
        queue.extend(child for child in node._children if child not in queue)
    return queue


def _steps_in(order, visits):
    """Like engine.graph.backward_steps, but visiting the nodes in `visits`
    (each once); node ids are positions in the topological `order`."""
    ids = {node: i for i, node in enumerate(order)}
    for node in order:
        node.grad = 0.0
    order[-1].grad = 1.0
    steps = [{"visit": None, "grads": [n.grad for n in order]}]
    for node in visits:
        if node._children:
            node._backward()
            steps.append({"visit": ids[node], "grads": [n.grad for n in order]})
    return steps


def page(options, _exercises):
    """The tree's inputs are the block's options (and the worker recomputes it when the
    learner changes one); the shared graph's numbers are fixed, so it has no inputs."""
    tree = options["graph"] == "tree"
    names = ("a", "b", "c", "k") if tree else ("a", "b", "c")
    values = [options[n] for n in names]
    data = (level_graph if tree else shared_graph)(*values)
    return Page({"graph": data, "inputs": dict(zip(names, values)) if tree else {}},
                ("node", "made by", "data"), graph_rows(data["graph"]))


def _recompute(a, b, c, k):
    return level_graph(float(a), float(b), float(c), float(k))


LAB = Lab(options={"a": (2, number), "b": (3, number), "c": (1, number), "k": (-2, number),
                   "graph": ("tree", one_of("tree", "shared"))},
          page=page, worker={"lab_graph": _recompute})
