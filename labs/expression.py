"""Evaluate a small math expression typed by a learner, on `Value`s.

Only what the engine knows is allowed: numbers, single-letter variables,
+ - * / **, unary minus, and the methods tanh, exp, log, relu, sigmoid
(written `c.tanh()` or `tanh(c)`). Anything else is refused with a message,
never executed.
"""

import ast

from engine import Value
from engine.gradcheck import finite_difference
from engine.graph import backward_steps, to_graph

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
            "steps": backward_steps(out)}  # for stepping backward one node at a time
