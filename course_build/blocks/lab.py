"""`/// lab | <name>`: the course's interactive views, one per entry of labs.LABS.

    /// lab | level-graph       step through L = (a·b + c)·k       options a, b, c, k;
                                `graph: shared` steps through e = a·b, L = e·(e + c)
                                instead (a, b, c fixed), with a wrong-order walk
    /// lab | tangent           the derivative as a nudge            options x0, h
    /// lab | expression        any expression as a live graph       options expr, values, editable
    /// lab | training          train MLP(2, [8, 8, 1]) in the worker
    /// lab | capstone          the learner's own engine trains, next to the reference

Each lab declares its own options and builds its own page data (labs/entry.py);
this block only finds the lab, holds the options to the lab's schema, and writes
what the lab built: its numbers for the default inputs (computed at build time by
the reference engine) as data attributes, and a plain table for readers without
JavaScript. The worker recomputes them with the same engine when the learner
changes an input.
"""

import json
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block

from grader.catalog import suggestion
from labs import LABS
from labs.entry import COMMON_OPTIONS

from .errors import CourseBlockError


def lab_options(name):
    """The options `/// lab | <name>` takes: name -> (default, check); None for no such lab."""
    lab = LABS.get(name)
    return None if lab is None else {**COMMON_OPTIONS, **lab.options}


def option_problems(name, options):
    """(option, message) for each option the lab does not take or whose value is wrong."""
    schema = lab_options(name)
    for key, value in options.items():
        if key not in schema:
            yield key, f"/// lab | {name}: unknown option {key!r}{suggestion(key, schema)}"
            continue
        try:
            schema[key][1](value)
        except (ValueError, TypeError) as e:
            yield key, f"/// lab | {name}: option {key!r}: {e}"


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


class Lab(Block):
    NAME = "lab"
    ARGUMENT = True
    OPTIONS = {}  # each lab's own, chosen in _validate

    def _validate(self, parent, arg, **options):
        """pymdownx.blocks holds a block to one schema and drops a block that breaks it
        without a word; a lab's options are its own, so the schema is the named lab's,
        and a wrong option stops the build naming the lab and the option
        (course_build/validate.py says the same earlier, with the line)."""
        name = (arg or "").strip()
        schema = lab_options(name)
        if schema is None:
            raise CourseBlockError(f"/// lab | {name}: unknown lab{suggestion(name, LABS)}")
        for _key, problem in option_problems(name, options):
            raise CourseBlockError(problem)
        self.option_spec = {**schema, "attrs": self.option_spec["attrs"]}
        return super()._validate(parent, name, **options)

    def on_create(self, parent):
        name = self.argument
        el = etree.SubElement(parent, "div", {"class": "course-lab", "data-lab": name})
        if self.options["hides"]:
            el.set("data-hides", json.dumps(self.options["hides"]))
        try:
            page = LABS[name].page(self.options, self.config["exercises"])  # exercises: loaded once by the plugin
        except ValueError as e:
            raise CourseBlockError(f"/// lab | {name}: {e}") from None
        for key, value in page.data.items():
            el.set(f"data-{key}", json.dumps(value))
        _table(el, page.head, page.rows)
        return el
