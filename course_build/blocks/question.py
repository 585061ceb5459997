"""`/// question | <id>`: a number or a choice question. The body is the prompt.

    /// question | dl-dd
        answer: -2
    a = 2, b = 3, c = 1, d = −2. What is ∂L/∂d?
    ///

    /// question | assign-square
        kind: choice
        choices: ["6", "3", "9", "0"]
        answer: "3"
    ...
    ///

A number question may name known slips (`slips: {6: "the sign…"}`): a wrong
answer equal to one of them gets that message, and any other wrong answer gets
`look` (where in the graph to look) instead of a guess.

The answer sits in the page: client-side checking can always be read.
"""

import json
import math
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block, type_number, type_string, type_string_in

from .errors import CourseBlockError


def type_answer(value):
    """YAML reads `answer: -6` as a number; keep what the author wrote as text."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError("must be a number or a string")
    return str(value)


def type_slips(value):
    """`{-6: "the sign: …", 3: "…"}`: a wrong number a known slip gives, and what to say."""
    if not isinstance(value, dict) or not all(isinstance(k, (int, float)) and not isinstance(k, bool)
                                              and isinstance(v, str) for k, v in value.items()):
        raise ValueError("must map numbers to messages")
    return {float(k): v for k, v in value.items()}


def type_string_list(value):
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise ValueError("must be a list of strings")
    return [str(v) for v in value]


class Question(Block):
    NAME = "question"
    ARGUMENT = True
    OPTIONS = {
        "kind": ("number", type_string_in(["number", "choice"])),
        "answer": ("", type_answer),
        "choices": ([], type_string_list),
        "tolerance": (1e-3, type_number),
        "explain": ("", type_string),
        "slips": ({}, type_slips),
        "look": ("", type_string),
    }

    def on_create(self, parent):
        qid = (self.argument or "").strip()
        kind, answer = self.options["kind"], str(self.options["answer"]).strip()
        where = f"/// question | {qid}"
        if not qid:
            raise CourseBlockError(f"{where}: a question needs an id")
        if not answer:
            raise CourseBlockError(f"{where}: the option 'answer' is required")
        if kind == "number":
            try:
                value = float(answer.replace("−", "-"))
            except ValueError:
                raise CourseBlockError(f"{where}: answer {answer!r} is not a number") from None
            if not math.isfinite(value):
                raise CourseBlockError(f"{where}: answer must be finite")
        elif answer not in self.options["choices"]:
            raise CourseBlockError(f"{where}: answer {answer!r} is not one of the choices")
        el = etree.SubElement(parent, "div", {
            "class": "course-question", "id": f"q-{qid}", "data-question": qid,
            "data-kind": kind, "data-answer": answer,
            "data-tolerance": f"{self.options['tolerance']:g}",
            "data-explain": self.options["explain"],
        })
        if self.options["slips"]:
            el.set("data-slips", json.dumps([[k, v] for k, v in self.options["slips"].items()]))
        if self.options["look"]:
            el.set("data-look", self.options["look"])
        etree.SubElement(el, "p", {"class": "course-kind"}).text = "Number" if kind == "number" else "Choose"
        etree.SubElement(el, "div", {"class": "course-question__prompt"})
        if kind == "choice":
            ul = etree.SubElement(el, "ul", {"class": "course-question__choices"})
            for choice in self.options["choices"]:
                etree.SubElement(ul, "li", {"data-choice": choice}).text = choice
        return el

    def on_add(self, block):
        return block.find("div[@class='course-question__prompt']")
