"""`/// lab | level-graph`: step through L = (a·b + c)·d, forward then backward.

The default numbers are computed at build time by the reference engine and
embedded as data; when the learner edits an input, the worker recomputes
them with the same engine.
"""

import json
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block, type_number

from engine.labs import level_graph

from .errors import CourseBlockError

LABS = {"level-graph": ("a", "b", "c", "d")}


class Lab(Block):
    NAME = "lab"
    ARGUMENT = True
    OPTIONS = {name: (default, type_number) for name, default in
               zip(("a", "b", "c", "d"), (2, 3, 1, -2))}

    def on_create(self, parent):
        lab = (self.argument or "").strip()
        if lab not in LABS:
            raise CourseBlockError(f"/// lab | {lab}: unknown lab (known: {', '.join(LABS)})")
        values = [self.options[n] for n in LABS[lab]]
        data = level_graph(*values)
        el = etree.SubElement(parent, "div", {
            "class": "course-lab", "data-lab": lab, "data-graph": json.dumps(data),
            "data-inputs": json.dumps(dict(zip(LABS[lab], values))),
        })
        table = etree.SubElement(el, "table", {"class": "course-lab__static"})
        head = etree.SubElement(etree.SubElement(table, "thead"), "tr")
        for title in ("node", "made by", "data", "grad = ∂L/∂node"):
            etree.SubElement(head, "th").text = title
        body = etree.SubElement(table, "tbody")
        for node in data["graph"]["nodes"]:
            row = etree.SubElement(body, "tr")
            for text in (node["label"], node["op"] or "input", f"{node['data']:g}",
                         f"{data['steps'][-1]['grads'][node['id']]:g}"):
                etree.SubElement(row, "td").text = text
        return el

    def on_markdown(self):
        return "block"
