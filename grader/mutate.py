"""Mutation testing of the hidden cases: every small wrong edit of the lines a
learner writes must fail. Run by `python -m grader mutate`, `make check` and pytest.

The learner-written region is the lines of the solution that its fillings (or,
for a starter without blanks, its edits) span: `Exercise.written`. A focused
AST mutator rewrites one thing at a time in that region and puts the rewritten
statement back in place (same indentation, same trailing comment):

    operator        + - * / ** swapped for one another
    unary-minus     a value negated, or a minus removed
    assign          `+=` / `-=` written as `=`, and `=` as `+=` / `-=`
    aug-op          the operator of an augmented assignment changed
    drop-operand    a * b written as a, or as b
    swap-operands   the operands of - / ** swapped
    attribute       .data and .grad swapped
    name            a name swapped for another in scope (self/other/out, a/b, x/h)
    constant        a number plus or minus 1 (so 1.0 -> 0.0, 2 -> 1)
    comparison      > >= < <= swapped for one another, == and !=
    loop-order      reversed(x) -> x, x[::-1] -> x, and a loop's x -> reversed(x)
    remove          a statement replaced by `pass`

Mutants are deduplicated by their source. A mutant is *killed* when the
verdict on it is not "passed" (a crash or a syntax error kills it too). A
mutant that survives must be listed in `exercises/<id>/equivalent.toml`, with
the text of its line after mutation and why it is really correct:

    [[mutants]]
    after = "self.grad += 1.0"
    reason = "the output's grad is 0 before backward() runs, so += 1 is = 1"

Any other survivor is a weakness of the hidden cases.
"""

import ast
import builtins
import copy
import io
import tokenize
from dataclasses import dataclass, field

from runner.execute import collect

from .cases import worker_inputs
from .compare import verdict
from .grading import data_for

KINDS = ("operator", "unary-minus", "assign", "aug-op", "drop-operand", "swap-operands",
         "attribute", "name", "constant", "comparison", "loop-order", "remove")

ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
AUGMENTED = (ast.Add, ast.Sub, ast.Mult, ast.Div)
NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.Pow)
ORDERINGS = (ast.Gt, ast.GtE, ast.Lt, ast.LtE)
EQUALITIES = (ast.Eq, ast.NotEq)
SWAPPED_ATTRIBUTES = {"data": "grad", "grad": "data"}
MUTANT_TIMEOUT = 2.0
COMPOUND = (ast.For, ast.While, ast.If, ast.With)
BUILTIN_NAMES = set(dir(builtins))
SKIPPED_TOKENS = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                  tokenize.ENDMARKER}


@dataclass
class Mutant:
    line: int                 # first line it changes, 1-based, in the solution
    before: str               # the line(s) as the solution has them
    after: str                # the same line(s) after mutation
    source: str               # the whole mutated solution
    kinds: set = field(default_factory=set)


# -- where the learner writes --------------------------------------------------

def learner_lines(exercise):
    """1-based numbers of the solution's lines that the learner writes."""
    return [i + 1 for i in exercise.written]


def _header_end(stmt):
    """Last line of a compound statement's header (the line before its body)."""
    return stmt.body[0].lineno - 1 if stmt.body else stmt.lineno


def _targets(tree, lines):
    """Statements to mutate: simple statements touching the region, and compound
    statements whose header is in it. Function and class definitions are not."""
    region = set(lines)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                ast.ClassDef)):
            continue
        if isinstance(node, COMPOUND):
            span = range(node.lineno, _header_end(node) + 1)
        elif hasattr(node, "body"):
            continue    # try, match, async blocks: the statements inside them are targets
        else:
            span = range(node.lineno, node.end_lineno + 1)
        if region.intersection(span):
            found.append(node)
    return sorted(found, key=lambda s: (s.lineno, s.col_offset))


def _enclosing_functions(tree, stmt):
    """Function definitions that contain the statement, outermost first."""
    chain = []

    def visit(node, stack):
        for child in ast.iter_child_nodes(node):
            if child is stmt:
                chain.extend(stack)
                return True
            inner = stack + [child] if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else stack
            if visit(child, inner):
                return True
        return False

    visit(tree, [])
    return chain


def _own_nodes(function):
    """The nodes of a function's body, not those of functions defined inside it."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _scope(tree, targets):
    """Names a mutant may swap: the enclosing functions' parameters and the names
    they assign, and the names the region reads (builtins and modules excepted)."""
    modules = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
               if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    names = set()
    for stmt in targets:
        for function in _enclosing_functions(tree, stmt):
            args = function.args
            names.update(a.arg for a in args.posonlyargs + args.args + args.kwonlyargs)
            names.update(a.arg for a in (args.vararg, args.kwarg) if a)
            names.update(n.id for n in _own_nodes(function) if isinstance(n, ast.Name)
                         and isinstance(n.ctx, ast.Store))
        names.update(n.id for n in _header_nodes(stmt) if isinstance(n, ast.Name))
    return sorted(names - BUILTIN_NAMES - modules)


# -- mutations -----------------------------------------------------------------

def _header_nodes(stmt):
    """The expression nodes of a statement (a compound statement's header only)."""
    if isinstance(stmt, ast.For):
        parts = [stmt.target, stmt.iter]
    elif isinstance(stmt, (ast.While, ast.If)):
        parts = [stmt.test]
    elif isinstance(stmt, ast.With):
        parts = list(stmt.items)
    else:
        parts = [child for child in ast.iter_child_nodes(stmt)]
    for part in parts:
        yield from ast.walk(part)


def _parents(stmt):
    parents = {}
    for node in [stmt, *_header_nodes(stmt)]:
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        parents[id(item)] = (node, name)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (node, name)
    return parents


def _replace(root, old, new):
    for node in [root, *_header_nodes(root)]:
        for name, value in ast.iter_fields(node):
            if value is old:
                setattr(node, name, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise LookupError("node not found")


def _value_position(node, parent, name):
    """Where negating the node reads as a learner's sign slip."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return False
    if isinstance(node, ast.Constant) and node.value == 0:
        return False
    return ((isinstance(parent, ast.BinOp) and name in ("left", "right"))
            or (isinstance(parent, (ast.Assign, ast.AugAssign, ast.Return)) and name == "value")
            or (isinstance(parent, ast.Call) and name == "args")
            or (isinstance(parent, ast.IfExp) and name in ("body", "orelse")))


def _node_mutations(node, parent, name, scope):
    """(kind, replacement) for one expression node; replacements are fresh nodes."""
    c = copy.deepcopy
    if isinstance(node, ast.BinOp):
        for op in ARITHMETIC:
            if not isinstance(node.op, op):
                yield "operator", ast.BinOp(c(node.left), op(), c(node.right))
        yield "drop-operand", c(node.left)
        yield "drop-operand", c(node.right)
        if isinstance(node.op, NON_COMMUTATIVE):
            yield "swap-operands", ast.BinOp(c(node.right), c(node.op), c(node.left))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield "unary-minus", c(node.operand)
    if _value_position(node, parent, name):
        yield "unary-minus", ast.UnaryOp(ast.USub(), c(node))
    if isinstance(node, ast.Attribute) and node.attr in SWAPPED_ATTRIBUTES:
        yield "attribute", ast.Attribute(c(node.value), SWAPPED_ATTRIBUTES[node.attr], c(node.ctx))
    if isinstance(node, ast.Name) and node.id in scope and not (isinstance(parent, ast.Call) and name == "func"):
        for other in scope:
            if other != node.id:
                yield "name", ast.Name(other, c(node.ctx))
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        for delta in (1, -1):
            yield "constant", ast.Constant(node.value + type(node.value)(delta))
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            family = ORDERINGS if isinstance(op, ORDERINGS) else EQUALITIES if isinstance(op, EQUALITIES) else ()
            for other in family:
                if not isinstance(op, other):
                    ops = [c(o) for o in node.ops]
                    ops[i] = other()
                    yield "comparison", ast.Compare(c(node.left), ops, c(node.comparators))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed"
            and len(node.args) == 1 and not node.keywords):
        yield "loop-order", c(node.args[0])
    if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)
            and node.slice.lower is None and node.slice.upper is None
            and isinstance(node.slice.step, ast.UnaryOp) and isinstance(node.slice.step.op, ast.USub)
            and isinstance(node.slice.step.operand, ast.Constant) and node.slice.step.operand.value == 1):
        yield "loop-order", c(node.value)
    if isinstance(parent, ast.For) and name == "iter" and not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed"):
        yield "loop-order", ast.Call(ast.Name("reversed", ast.Load()), [c(node)], [])


def _statement_mutations(stmt):
    c = copy.deepcopy
    if isinstance(stmt, ast.AugAssign):
        if isinstance(stmt.op, (ast.Add, ast.Sub)):
            yield "assign", ast.Assign([c(stmt.target)], c(stmt.value), lineno=stmt.lineno)
        for op in AUGMENTED:
            if not isinstance(stmt.op, op):
                yield "aug-op", ast.AugAssign(c(stmt.target), op(), c(stmt.value))
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], (ast.Name,
                                                                                                  ast.Attribute)):
        for op in (ast.Add, ast.Sub):
            yield "assign", ast.AugAssign(c(stmt.targets[0]), op(), c(stmt.value))


def _statement_variants(stmt, scope):
    """(kind, mutated statement or None for `pass`) for one target statement."""
    for kind, new in _statement_mutations(stmt):
        yield kind, new
    parents = _parents(stmt)
    nodes = list(_header_nodes(stmt))
    for index, node in enumerate(nodes):
        parent, name = parents.get(id(node), (None, None))
        for kind, replacement in _node_mutations(node, parent, name, scope):
            mutated = copy.deepcopy(stmt)
            _replace(mutated, list(_header_nodes(mutated))[index], replacement)
            yield kind, mutated
    if not isinstance(stmt, ast.Pass):
        yield "remove", None


# -- putting a mutated statement back -------------------------------------------

def _suffix(line, end_col):
    """What follows a statement on its last line (a comment), by byte offset."""
    return line.encode("utf-8")[end_col:].decode("utf-8")


def _render(lines, stmt, mutated):
    """(first line index, last line index, new text) replacing the statement."""
    first = stmt.lineno - 1
    indent = lines[first][:stmt.col_offset]
    if isinstance(stmt, COMPOUND):
        if mutated is None:
            return first, stmt.end_lineno - 1, indent + "pass"
        header = copy.copy(mutated)
        header.body, header.orelse = [ast.Pass()], []
        text = ast.unparse(header).split("\n")[0]
        return first, _header_end(stmt) - 1, indent + text
    last = stmt.end_lineno - 1
    text = "pass" if mutated is None else ast.unparse(mutated)
    text = text.replace("\n", "\n" + indent)
    return first, last, indent + text + _suffix(lines[last], stmt.end_col_offset)


def generate(exercise):
    """Every distinct mutant of the learner-written region, with the kinds that make it."""
    source = exercise.solution
    tree = ast.parse(source)
    lines = source.split("\n")
    targets = _targets(tree, learner_lines(exercise))
    scope = _scope(tree, targets)
    found = {}
    for stmt in targets:
        original = ast.dump(stmt)
        for kind, mutated in _statement_variants(stmt, scope):
            if mutated is not None and ast.dump(mutated) == original:
                continue
            first, last, text = _render(lines, stmt, mutated)
            new_lines = lines[:first] + text.split("\n") + lines[last + 1:]
            code = "\n".join(new_lines)
            if code == source:
                continue
            if code not in found:
                found[code] = Mutant(first + 1, "\n".join(lines[first:last + 1]), text, code)
            found[code].kinds.add(kind)
    return list(found.values())


def mutants(exercise):
    """[(line, before, after, source)] for every distinct mutant of the exercise."""
    return [(m.line, m.before, m.after, m.source) for m in generate(exercise)]


# -- running them ---------------------------------------------------------------

def _normal(text):
    """A line's code without its comment or spacing, so that listings survive restyling."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return " ".join(text.split())
    return " ".join(t.string for t in tokens if t.type not in SKIPPED_TOKENS)


def _listed(exercise, mutant):
    for entry in exercise.equivalent:
        if _normal(entry.get("after", "")) != _normal(mutant.after):
            continue
        if "before" in entry and _normal(entry["before"]) != _normal(mutant.before):
            continue
        if "line" in entry and entry["line"] != mutant.line:
            continue
        return entry
    return None


def _without_demo(code):
    """The code without its top-level demo (prints, loops, calls), or None when it
    cannot be parsed. The cases call the learner's definitions, not the demo."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    keep = [s for s in tree.body
            if isinstance(s, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            or (isinstance(s, ast.Assign) and _literal(s.value))]
    return ast.unparse(ast.Module(keep, []))


def _literal(node):
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _passes(exercise, data, task, code):
    report = collect(code, task["probe"], task["inputs"], min(exercise.timeout_seconds, MUTANT_TIMEOUT))
    return verdict(data, report)["passed"]


def mutation_report(exercise):
    """{total, killed, equivalent, rate, survivors: [{line, before, after}], stale}.
    `stale` lists equivalent.toml entries that match no surviving mutant."""
    data = data_for(exercise)
    task = worker_inputs(data)
    # A mutant dies on the cases alone when it dies without the demo (the demo
    # only adds ways to fail); only the rest are run whole, as the learner's file.
    fast = _without_demo(exercise.solution)
    if fast is None or not _passes(exercise, data, task, fast):
        fast = None
    killed, equivalent, survivors, used = 0, 0, [], set()
    found = generate(exercise)
    for mutant in found:
        stripped = _without_demo(mutant.source) if fast is not None else None
        if stripped is not None and not _passes(exercise, data, task, stripped):
            killed += 1
            continue
        if not _passes(exercise, data, task, mutant.source):
            killed += 1
            continue
        entry = _listed(exercise, mutant)
        if entry is not None:
            equivalent += 1
            used.add(id(entry))
        else:
            survivors.append({"line": mutant.line, "before": mutant.before, "after": mutant.after,
                              "kinds": sorted(mutant.kinds)})
    stale = [dict(e) for e in exercise.equivalent if id(e) not in used]
    total = len(found)
    return {"total": total, "killed": killed, "equivalent": equivalent,
            "rate": killed / total if total else 0.0, "survivors": survivors, "stale": stale}
