"""`/// lab | <kind>`: the course's interactive views.

    /// lab | level-graph       step through L = (a·b + c)·k       options a, b, c, k;
                                `graph: shared` steps through e = a·b, L = e·(e + c)
                                instead (a, b, c fixed), with a wrong-order walk
    /// lab | tangent           the derivative as a nudge            options x0, h
    /// lab | expression        any expression as a live graph       options expr, values, editable
    /// lab | training          train MLP(2, [8, 8, 1]) in the worker
    /// lab | capstone          the learner's own engine trains, next to the reference

Numbers for the default inputs are computed at build time by the reference
engine and embedded as data (with a plain table for readers without
JavaScript); the worker recomputes them with the same engine when the
learner changes an input.
"""

import json
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block, type_boolean, type_number, type_string

from labs import LABS, capstone, level_graph, tangent
from labs.expression import ExpressionError, expression_graph, variables
from labs.training import Run

from .errors import CourseBlockError


def type_values(value):
    if not isinstance(value, dict) or not all(isinstance(v, (int, float)) for v in value.values()):
        raise ValueError("must be a mapping of names to numbers")
    return {str(k): float(v) for k, v in value.items()}


def _table(parent, head, rows):
    # classless, in Material's own wrappers, so the theme styles it like every table
    # (a script that redraws the lab removes the whole wrapper, `.course-lab__static`)
    wrapper = etree.SubElement(parent, "div", {"class": "course-lab__static md-typeset__scrollwrap"})
    table = etree.SubElement(etree.SubElement(wrapper, "div", {"class": "md-typeset__table"}), "table")
    tr = etree.SubElement(etree.SubElement(table, "thead"), "tr")
    for title in head:
        etree.SubElement(tr, "th").text = title
    body = etree.SubElement(table, "tbody")
    for row in rows:
        tr = etree.SubElement(body, "tr")
        for cell in row:
            etree.SubElement(tr, "td").text = cell


def _graph_rows(graph):
    """A graph's nodes and their values, for a reader with no scripts. Not their grads:
    the questions after a graph ask for those, and the table stands above them."""
    return [(n["label"] or n["op"], n["op"] or "input", f"{n['data']:.6g}") for n in graph["nodes"]]


def type_ids(value):
    """`hides: [dl-dd, dl-da]`: the questions whose answers the lab keeps back until answered."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a question id or a list of them")
    return value


# the options each lab reads: OPTIONS below is their union (pymdownx.blocks takes one
# schema per block), so the build's check (course_build/validate.py) holds each lab to its own
LAB_OPTIONS = {
    "level-graph": ("a", "b", "c", "k", "graph", "hides"),
    "tangent": ("x0", "h", "hides"),
    "expression": ("expr", "values", "editable", "hides"),
    "training": ("hides",),
    "capstone": ("hides",),
}


def capstone_pieces(exercises):
    """The capstone's pieces in its order, each with the exercise that writes it (its
    `writes`) and that exercise's page; a piece no exercise writes stays the reference's
    and is not listed."""
    writers = {}
    for exercise in exercises.values():
        if exercise.piece in capstone.PIECES:
            if exercise.piece in writers:
                raise ValueError(f"{writers[exercise.piece].id} and {exercise.id} both write {exercise.writes}: "
                                 "the capstone takes each piece from one exercise")
            writers[exercise.piece] = exercise
    return [{"exercise": writers[name].id, "page": writers[name].level, "method": name, "what": what}
            for name, (what, _check) in capstone.PIECES.items() if name in writers]


class Lab(Block):
    NAME = "lab"
    ARGUMENT = True
    OPTIONS = {
        "a": (2, type_number), "b": (3, type_number), "c": (1, type_number), "k": (-2, type_number),
        "graph": ("tree", type_string),
        "x0": (3, type_number), "h": (0.1, type_number),
        "expr": ("(a*b + b**2) * c.tanh()", type_string),
        "values": ({}, type_values),
        "editable": (True, type_boolean),
        "hides": ([], type_ids),
    }

    def on_create(self, parent):
        kind = (self.argument or "").strip()
        builder = getattr(self, f"_build_{kind.replace('-', '_')}", None) if kind in LABS else None
        if builder is None:
            raise CourseBlockError(f"/// lab | {kind}: unknown lab (known: {', '.join(LABS)})")
        el = etree.SubElement(parent, "div", {"class": "course-lab", "data-lab": kind})
        if self.options["hides"]:
            el.set("data-hides", json.dumps(self.options["hides"]))
        builder(el)
        return el

    def _build_level_graph(self, el):
        shape = self.options["graph"]
        if shape not in ("tree", "shared"):
            raise CourseBlockError(f"/// lab | level-graph: graph must be tree or shared, not {shape!r}")
        names = ("a", "b", "c", "k") if shape == "tree" else ("a", "b", "c")
        values = [self.options[n] for n in names]
        data = (level_graph.level_graph if shape == "tree" else level_graph.shared_graph)(*values)
        el.set("data-graph", json.dumps(data))
        # the shared graph's numbers are fixed: the worker recomputes only the tree
        el.set("data-inputs", json.dumps(dict(zip(names, values)) if shape == "tree" else {}))
        _table(el, ("node", "made by", "data"), _graph_rows(data["graph"]))

    def _build_tangent(self, el):
        data = tangent.tangent(self.options["x0"], self.options["h"])
        el.set("data-tangent", json.dumps(data))
        _table(el, ("h", "central difference", "one-sided difference", "engine's gradient"),
               [(f"{row['h']:g}", f"{row['central']:.6f}", f"{row['forward']:.6f}", f"{data['engine']:g}")
                for row in data["errors"]])

    def _build_expression(self, el):
        source = self.options["expr"]
        try:
            names = variables(source)
            values = {n: self.options["values"].get(n, 1.0) for n in names}
            data = expression_graph(source, values)
        except ExpressionError as e:
            raise CourseBlockError(f"/// lab | expression: {source!r}: {e}") from None
        el.set("data-expression", json.dumps({"expr": source, "editable": self.options["editable"],
                                              "variables": names, **data}))
        _table(el, ("node", "made by", "data"), _graph_rows(data["graph"]))

    def _build_capstone(self, el):
        exercises = self.config["exercises"]  # loaded once by the plugin
        try:
            pieces = capstone_pieces(exercises)
        except ValueError as e:
            raise CourseBlockError(f"/// lab | capstone: {e}") from None
        el.set("data-pieces", json.dumps(pieces))
        _table(el, ("piece", "method", "the exercise that writes it"),
               [(p["what"], p["method"], exercises[p["exercise"]].title) for p in pieces])

    def _build_training(self, el):
        breakdown = Run().parameter_breakdown()
        el.set("data-breakdown", json.dumps(breakdown))
        _table(el, ("layer", "neurons × (inputs + 1 bias)", "parameters"),
               [(str(r["layer"] + 1), f"{r['neurons']} × ({r['inputs']} + 1)", str(r["parameters"]))
                for r in breakdown["rows"]] + [("total", "", str(breakdown["total"]))])
