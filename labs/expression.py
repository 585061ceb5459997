"""Evaluate a small math expression typed by a learner, on `Value`s.

Only what the engine knows is allowed: numbers, single-letter variables,
+ - * / **, unary minus, and the methods tanh, exp, log, relu, sigmoid
(written `c.tanh()` or `tanh(c)`). Anything else is refused with a message,
never executed.

Two graded tasks of the live-graph level read the engine's numbers from here:
`predictions` (the gradient a "predict, then check" question asks for, how it is
made, and what each known slip would give instead) and `gradient_facts` (the
gradient of a learner's expression at a point, what each use of the input sends
back, and whether the output changes with that input at all). Both return facts
only: the page decides the verdict.
"""

import ast
import math

from engine import Value
from engine.gradcheck import finite_difference
from engine.graph import backward_steps, local_factors, to_graph
from engine.order import topological_order

from .entry import Lab, Page, flag, graph_rows, numbers_by_name, text

FUNCTIONS = ("tanh", "exp", "log", "relu", "sigmoid")
BINARY = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__", ast.Div: "__truediv__"}
MAX_NODES = 200


class ExpressionError(ValueError):
    pass


def variables(source):
    """The variable names an expression uses, sorted."""
    names = []
    for node in ast.walk(_parse(source)):
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in names:
            names.append(node.id)
    return sorted(names)


def _parse(source):
    if len(source) > 300:
        raise ExpressionError("That expression is too long (300 characters at most).")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as e:
        raise ExpressionError(f"Python cannot read that expression: {e.msg}.") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExpressionError("That expression is too big to draw.")
    return tree


def evaluate(source, values):
    """Build the graph of `source` with Values named after its variables."""
    inputs = {name: Value(float(values.get(name, 1.0)), label=name) for name in variables(source)}

    def build(node):
        if isinstance(node, ast.Expression):
            return build(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if len(node.id) > 12 or node.id in FUNCTIONS:
                raise ExpressionError(f"`{node.id}` cannot be a variable name here.")
            return inputs[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = build(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            left, right = build(node.left), build(node.right)
            if not isinstance(left, Value) and not isinstance(right, Value):
                return _plain(node.op, left, right)
            return getattr(Value(left) if not isinstance(left, Value) else left, BINARY[type(node.op)])(right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base, exponent = build(node.left), build(node.right)
            if isinstance(exponent, Value):
                raise ExpressionError("The exponent must be a plain number, like x**2.")
            return (base if isinstance(base, Value) else Value(base)) ** exponent
        if isinstance(node, ast.Call) and not node.keywords:
            if isinstance(node.func, ast.Attribute) and node.func.attr in FUNCTIONS and not node.args:
                target = build(node.func.value)
                name = node.func.attr
            elif isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and len(node.args) == 1:
                target = build(node.args[0])
                name = node.func.id
            else:
                raise ExpressionError("Only tanh, exp, log, relu and sigmoid can be called.")
            return getattr(target if isinstance(target, Value) else Value(target), name)()
        raise ExpressionError(f"`{ast.unparse(node)}` is not something this engine can build.")

    try:
        out = build(_parse(source))
    except (ValueError, ZeroDivisionError, OverflowError, TypeError) as e:
        if isinstance(e, ExpressionError):
            raise
        raise ExpressionError(str(e)) from None
    if not isinstance(out, Value):
        out = Value(out)
    return out, inputs


def _plain(op, a, b):
    if isinstance(op, ast.Div) and b == 0:
        raise ExpressionError("Division by zero.")
    return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(op)) if not isinstance(op, ast.Div) else a / b


def expression_graph(source, values, h=1e-6):
    """The graph with data and grad on every node, plus a finite-difference check per input."""
    out, inputs = evaluate(source, values)
    out.label = out.label or "L"
    out.backward()
    predict = predictions(out, inputs)
    checks = {}
    names = list(inputs)
    point = [inputs[n].data for n in names]

    def forward(*xs):
        return evaluate(source, dict(values, **dict(zip(names, xs))))[0].data

    for i, (name, v) in enumerate(inputs.items()):
        checks[name] = {"autograd": v.grad, "numeric": finite_difference(forward, point, i, h)}
    graph = to_graph(out)
    return {"graph": graph, "inputs": {n: v.data for n, v in inputs.items()},
            "checks": checks, "output": out.data,
            "predict": predict,  # for a question that asks for one input's gradient
            "steps": backward_steps(out)}  # for stepping backward one node at a time


# -- "Predict, then check": the answer, how it is made, and the known slips ------------

SLIP_TOLERANCE = 1e-3  # a question's default tolerance: slips closer than this to the answer are dropped
MINUS = "\u2212"


def number(x):
    """A number as the course writes it: at most four decimals, − for minus."""
    if x == 0:
        return "0"
    text = f"{x:.4f}".rstrip("0").rstrip(".") if abs(x) >= 1e-4 else f"{x:.4g}"
    return text.replace("-", MINUS)


def _factor(x):
    """A number inside a product: negative ones in parentheses."""
    return f"({number(x)})" if x < 0 else number(x)


def describe(node, depth=0):
    """A node as a short formula: `a·b`, `tanh(c)`, `(a·b + b**2)·tanh(c)`."""
    if not node._children:
        return node.label or number(node.data)
    if depth > 6:
        return "…"
    op, kids = node._op, [describe(c, depth + 1) for c in node._children]

    def wrapped(i, ops):
        child = node._children[i]
        return f"({kids[i]})" if child._children and child._op in ops else kids[i]

    if op == "+":
        return f"{kids[0]} + {kids[1]}"
    if op == "-":
        return f"{kids[0]} {MINUS} {wrapped(1, ('+', '-'))}"
    if op == "*":
        return f"{wrapped(0, ('+', '-'))}·{wrapped(1, ('+', '-'))}"
    if op == "/":
        return f"{wrapped(0, ('+', '-'))}/{wrapped(1, ('+', '-', '*', '/'))}"
    if op.startswith("**"):
        return f"{wrapped(0, ('+', '-', '*', '/', 'neg'))}{op}"
    if op == "neg":
        return f"{MINUS}{wrapped(0, ('+', '-', '*', '/'))}"
    return f"{op}({kids[0]})"


def _d(node):
    """`∂(a·b)` or `∂tanh(c)`: a formula after ∂, in parentheses unless it is a call or a name."""
    text = describe(node)
    return f"∂{text}" if not node._children or node._op in FUNCTIONS else f"∂({text})"


def _local_formula(node, i):
    """The local factor ∂node/∂(its input i) as a formula, where the rule has a short one."""
    kids = [describe(c) for c in node._children]
    x = kids[0]
    op = node._op
    if op == "+":
        return "1"
    if op == "-":
        return "1" if i == 0 else f"{MINUS}1"
    if op == "*":
        return kids[1 - i]
    if op == "/":
        return f"1/{kids[1]}" if i == 0 else f"{MINUS}{kids[0]}/{kids[1]}²"
    if op.startswith("**"):
        k = float(op[2:])
        power = "" if k - 1 == 1 else f"**{number(k - 1)}"
        return f"{number(k)}·{x}{power}"
    return {"neg": f"{MINUS}1", "tanh": f"1 {MINUS} tanh({x})²", "exp": f"exp({x})", "log": f"1/{x}",
            "relu": "1" if node._children[0].data > 0 else "0",
            "sigmoid": f"sigmoid({x})·(1 {MINUS} sigmoid({x}))"}.get(op, "")


def _with_value(formula, value):
    return formula if formula == number(value) else f"{formula} = {number(value)}"


def uses(x, out):
    """Each input slot that `x` fills (a·a has two), with the node, its local factor
    ∂node/∂x through that slot, and the part of ∂out/∂x that comes that way.
    Call after out.backward()."""
    found = []
    for node in out.topological_order():
        if any(child is x for child in node._children):
            factors = local_factors(node)
            found += [{"node": node, "index": i, "factor": f, "part": node.grad * f}
                      for i, (child, f) in enumerate(zip(node._children, factors)) if child is x]
    return found


def _chain(x, out):
    """The local factors on the single path from x up to out (x first), or None when
    some node on the way feeds more than one place."""
    factors, node = [], x
    while node is not out:
        up = uses(node, out)
        if len(up) != 1:
            return None
        factors.append(up[0]["factor"])
        node = up[0]["node"]
    return factors


def _joined(items):
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def predictions(out, inputs):
    """For each input: the engine's ∂out/∂input, an explanation, where to look, and
    [[wrong number, what it is]] for each known slip that gives a different number.
    Call after out.backward()."""
    result = {}
    for name, x in inputs.items():
        found, chain = uses(x, out), _chain(x, out)
        slips = _use_slips(name, x, found) + [(-x.grad, f"the right size with the wrong sign: "
                                                        f"{_signs(name, chain, found)}.")]
        # the numbers the graph shows before any gradient: a learner may copy one of them
        slips += [(node.data, f"the value of {describe(node)} on the graph, not a gradient: ∂L/∂{name} is "
                              f"how far L moves per unit nudge of {name}.")
                  for node in reversed(topological_order(out))]  # out first
        result[name] = {"answer": x.grad, "explain": _explain(name, x.grad, chain, found),
                        "look": f"Start at L with ∂L/∂L = 1 and walk back to {name}, multiplying the local factor "
                                "at each node; the forward values are on the graph.",
                        "slips": [[round(v, 9), m] for v, m in _distinct(slips, x.grad)]}
    return result


def _explain(name, g, chain, found):
    """How ∂L/∂name comes about: L itself, one chain of local factors, or a sum over uses."""
    if chain == []:
        return f"L is {name} itself: ∂L/∂{name} = 1."
    if chain is not None and len(chain) == 1:
        return f"∂L/∂{name} is the local factor of L itself: {number(g)}."
    if chain is not None:
        product = " × ".join(_factor(f) for f in reversed(chain))
        return (f"On the way back from L to {name}, the local factors are "
                f"{_joined([number(f) for f in reversed(chain)])}: ∂L/∂{name} = {product} = {number(g)}.")
    parts = " + ".join(_factor(u["part"]) for u in found)
    return (f"{name} feeds {len(found)} places, and its gradient is the sum of what each sends back: "
            f"{parts} = {number(g)}.")


def _signs(name, chain, found):
    """Where the sign of ∂L/∂name comes from, for a learner who got only the sign wrong."""
    if chain == []:
        return "nothing lies on the way back from L, and ∂L/∂L = 1 is positive"
    if chain is not None and len(chain) == 1:
        return f"the one factor on the way back from L is {number(chain[0])}"
    if chain is not None:
        return (f"the factors on the way back from L are {_joined([number(f) for f in reversed(chain)])}; "
                "count their minus signs")
    return (f"the parts {name}'s uses send back are {_joined([number(u['part']) for u in found])}; "
            "count their minus signs")


def _use_slips(name, x, found):
    """The slips of one step: half of the chain rule at the one use, or one use of several."""
    if len(found) > 1:
        return [(use["part"], f"one use's worth, through {describe(use['node'])}: {name} feeds "
                              f"{len(found)} places, and each sends back its own part; add them all.")
                for use in found]
    if not found:
        return []
    use = found[0]
    node, factor, upstream = use["node"], use["factor"], use["node"].grad
    formula = _local_formula(node, use["index"])
    local = f"{_d(node)}/∂{name} = {_with_value(formula, factor)}"
    slips = [(upstream, f"∂L/{_d(node)}, the gradient that reaches {describe(node)}: one step to go, "
                        f"times the local factor {local}."),
             (factor, f"the local factor at {describe(node)} alone, {local}: multiply in what reaches "
                      f"{describe(node)} from L, ∂L/{_d(node)} = {number(upstream)}.")]
    if node._op == "*":
        other = describe(node._children[1 - use["index"]])
        slips.append((upstream * x.data, f"what {name}'s own value gives in place of {other}: "
                                         "a product sends each input the other input's value."))
    if node._op in FUNCTIONS or node._op.startswith("**"):
        slips.append((upstream * node.data, f"{describe(node)} itself in place of its slope: the local factor "
                                            f"at {describe(node)} is {formula}."))
    return slips


def _distinct(slips, answer):
    """The slips whose numbers differ from the answer and from each other (the first
    message for a number wins): a number two slips share can't tell them apart."""
    kept = []
    for value, message in slips:
        if not math.isfinite(value) or abs(value - answer) <= SLIP_TOLERANCE:
            continue
        if any(abs(value - v) <= SLIP_TOLERANCE for v, _ in kept):
            continue
        kept.append((value, message))
    return kept


# -- "Make ∂L/∂a vanish": the facts about a learner's expression at a point --------------

# Where else `wrt` is put to see whether the output changes with it at all (offsets
# from the point: near, far, and not on a pattern a formula could hide behind).
OFFSETS = (-997.3, -96.1, -31.7, -7.3, -3.1, -1.7, -0.6, 0.45, 1.3, 2.9, 6.1, 11.7, 33.3, 101.9, 1003.7)


def _output(source, values):
    try:
        out = evaluate(source, values)[0].data
    except ExpressionError:
        return None
    return out if math.isfinite(out) else None


NUDGE = 1e-6  # the oracle's h: the nudges level's central difference, on floats
KINK_STEPS = (1e-4, 1e-5)  # one-sided slopes at two nudge sizes, to tell a kink from a curve


def _one_sided(source, values, wrt, at, out, h):
    up = _output(source, dict(values, **{wrt: at + h}))
    down = _output(source, dict(values, **{wrt: at - h}))
    return None if up is None or down is None else ((out - down) / h, (up - out) / h, (up - down) / (2 * h))


def _nudged_slopes(source, values, wrt, at, out):
    """The oracle's slope at the point (central difference) and the one-sided slopes
    either side, and whether the point is a kink. The engine's rule at a kink (relu at
    exactly 0 gives 0) is a choice; the nudges show the kink itself. On a smooth curve
    the two sides' slopes differ by about curvature × h, so their gap shrinks tenfold
    when h does; at a kink the gap stays (relu(a − 2) at 2: 0 on the left, 1 on the right)."""
    wide = _one_sided(source, values, wrt, at, out, KINK_STEPS[0])
    narrow = _one_sided(source, values, wrt, at, out, KINK_STEPS[1])
    exact = _one_sided(source, values, wrt, at, out, NUDGE)
    if wide is None or narrow is None or exact is None:
        return {}
    gap_wide, gap_narrow = abs(wide[1] - wide[0]), abs(narrow[1] - narrow[0])
    kink = gap_narrow > 1e-4 * (1 + abs(narrow[0]) + abs(narrow[1])) and gap_narrow > 0.5 * gap_wide
    return {"nudged": exact[2], "left": narrow[0], "right": narrow[1], "kink": kink}


def agrees(grad, nudged):
    """The lab's test for engine against oracle (expression.js's table uses the same bound)."""
    return abs(grad - nudged) <= 1e-4 * (1 + abs(nudged))


def gradient_facts(source, values, wrt):
    """∂L/∂wrt of `source` at `values`, the part each use of `wrt` sends back, the
    nudge oracle's slopes there (central, left and right: a kink shows as the sides
    disagreeing), and whether L changes with `wrt` at all (tried at OFFSETS from the
    point). Raises ExpressionError for an expression the engine cannot build or
    differentiate there."""
    out, inputs = evaluate(source, values)
    try:
        out.backward()
    except (ValueError, ZeroDivisionError, OverflowError) as e:
        raise ExpressionError(f"The engine cannot take its slope at this point: {e}.") from None
    facts = {"variables": sorted(inputs), "output": out.data, "grad": None, "parts": [], "varies": False}
    if not math.isfinite(out.data):
        raise ExpressionError("Its value at this point is not a finite number.")
    x = inputs.get(wrt)
    if x is None:
        return facts
    if not math.isfinite(x.grad):
        raise ExpressionError(f"Its slope in {wrt} at this point is not a finite number.")
    facts["grad"] = x.grad
    merged = {}
    for use in uses(x, out):  # a·a: one part, from both of its slots
        merged[use["node"]] = merged.get(use["node"], 0.0) + use["part"]
    facts["parts"] = [{"via": describe(node), "part": part} for node, part in merged.items()]
    at = x.data
    facts.update({"kink": False, **_nudged_slopes(source, values, wrt, at, out.data)})
    facts["agrees"] = "nudged" not in facts or agrees(x.grad, facts["nudged"])
    for offset in OFFSETS:
        moved = _output(source, dict(values, **{wrt: at + offset}))
        if moved is not None and abs(moved - out.data) > 1e-9 * (1 + abs(out.data)):
            facts["varies"] = True
            break
    return facts


# -- The lab: its block's options, its page and what its widget recomputes ------------

def page(options, _exercises):
    """The graph of the block's expression at its values (1 where not given)."""
    source = options["expr"]
    try:
        names = variables(source)
        data = expression_graph(source, {n: options["values"].get(n, 1.0) for n in names})
    except ExpressionError as e:
        raise ValueError(f"{source!r}: {e}") from None
    return Page({"expression": {"expr": source, "editable": options["editable"], "variables": names, **data}},
                ("node", "made by", "data"), graph_rows(data["graph"]))


def _recompute(source, values):
    """The whole graph of a typed expression; a message instead when it can't be built."""
    try:
        return {"variables": variables(source), **expression_graph(source, values)}
    except ExpressionError as e:
        return {"error": str(e)}


def _gradient_at(source, values, wrt):
    """The facts the "make ∂L/∂a vanish" task judges (`gradient_facts`); a message
    instead when the expression can't be built or differentiated there."""
    if not isinstance(source, str) or not isinstance(wrt, str) or not isinstance(values, dict):
        raise ValueError("gradient_at needs an expression, a mapping of values and an input name")
    point = {str(k): float(v) for k, v in values.items()}
    try:
        return gradient_facts(source, point, wrt)
    except ExpressionError as e:
        return {"error": str(e)}


LAB = Lab(options={"expr": ("(a*b + b**2) * c.tanh()", text), "values": ({}, numbers_by_name),
                   "editable": (True, flag)},
          page=page, worker={"expression": _recompute, "gradient_at": _gradient_at})
