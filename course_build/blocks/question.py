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
`look` (where in the graph to look) instead of a guess. A slip's message
completes "Not yet: 6 is …", so it is what the number is: "the right size with
the wrong sign" (tests/build/test_question_feedback.py reads every one).

A choice question gives each wrong choice its reason (`reasons: {"9": "That is
y's value, …"}`): a whole sentence, shown as "Not yet. That is y's value, …".

Two kinds lean on the page's expression lab (`/// lab | expression`), which
computes their numbers with the engine, so the page carries none of its own:

    /// question | alive-predict-a       predict, then check: the lab hides the
        predicts: a                      gradient of its starting expression with
    What is ∂L/∂a? (three decimals)      respect to `a` (list the id in its `hides`)
    ///                                  and fills in answer, explanation and slips

    /// question | alive-flat-a          write an expression L whose ∂L/∂(wrt) is 0
        kind: flat                       at `values`; the worker differentiates it
        wrt: a                           with the lab's parser; `example` is what
        values: {a: 2, b: -3}            "Show an example" gives, `hint` what a
        example: a*a - 4*a               wrong expression gets after its facts
        hint: "Each use of a sends back its own part…"
    Write an expression L over a and b whose ∂L/∂a is 0 at a = 2, b = −3.
    ///

The answer sits in the page: client-side checking can always be read.
"""

import json
import math
import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block, type_number, type_string, type_string_in

from runner.facts import QUESTION_TOLERANCE

from .errors import CourseBlockError
from .preview import preview_note


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


def type_reasons(value):
    """`{"9": "That is y's value, …"}`: a wrong choice, and a sentence on why it is wrong."""
    if not isinstance(value, dict) or not all(isinstance(k, (str, int, float)) and not isinstance(k, bool)
                                              and isinstance(v, str) for k, v in value.items()):
        raise ValueError("must map choices to messages")
    return {str(k): v for k, v in value.items()}


def type_point(value):
    """`{a: 2, b: -3}`: where a `flat` question's gradient is taken."""
    if not isinstance(value, dict) or not value or not all(
            isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool) for k, v in value.items()):
        raise ValueError("must map variable names to numbers")
    return value


def type_string_list(value):
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise ValueError("must be a list of strings")
    return [str(v) for v in value]


class Question(Block):
    NAME = "question"
    ARGUMENT = True
    OPTIONS = {
        "kind": ("number", type_string_in(["number", "choice", "flat"])),
        "answer": ("", type_answer),
        "choices": ([], type_string_list),
        "tolerance": (QUESTION_TOLERANCE, type_number),
        "explain": ("", type_string),
        "slips": ({}, type_slips),
        "reasons": ({}, type_reasons),
        "look": ("", type_string),
        "predicts": ("", type_string),
        "wrt": ("", type_string),
        "values": ({}, type_point),
        "example": ("", type_string),
        "hint": ("", type_string),
    }

    def on_create(self, parent):
        qid = (self.argument or "").strip()
        kind, answer = self.options["kind"], str(self.options["answer"]).strip()
        where = f"/// question | {qid}"
        if not qid:
            raise CourseBlockError(f"{where}: a question needs an id")
        if self.options["predicts"] or kind == "flat":
            return self._lab_question(parent, qid, where)
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
        reasons = self.options["reasons"]
        if reasons and (kind != "choice" or answer in reasons or not set(reasons) <= set(self.options["choices"])):
            raise CourseBlockError(f"{where}: 'reasons' names wrong choices of a choice question: "
                                   f"{sorted(set(reasons) - set(self.options['choices']) | ({answer} & set(reasons)))}")
        el = etree.SubElement(parent, "div", {
            "class": "course-question", "id": f"q-{qid}", "data-question": qid,
            "data-kind": kind, "data-answer": answer,
            "data-tolerance": f"{self.options['tolerance']:g}",
            "data-explain": self.options["explain"],
        })
        if self.options["slips"]:
            el.set("data-slips", json.dumps([[k, v] for k, v in self.options["slips"].items()]))
        if reasons:
            el.set("data-reasons", json.dumps(reasons))
        if self.options["look"]:
            el.set("data-look", self.options["look"])
        etree.SubElement(el, "p", {"class": "course-kind"}).text = "Number" if kind == "number" else "Choose"
        etree.SubElement(el, "div", {"class": "course-question__prompt"})
        if kind == "choice":
            ul = etree.SubElement(el, "ul", {"class": "course-question__choices"})
            for choice in self.options["choices"]:
                etree.SubElement(ul, "li", {"data-choice": choice}).text = choice
        if self.config.get("preview"):
            slips = "; ".join(f"{k:g} → {v}" for k, v in self.options["slips"].items())
            preview_note(parent, f"Answer ({qid}): {answer}" + (f". Slips: {slips}" if slips else ""))
        return el

    def _lab_question(self, parent, qid, where):
        """A question whose numbers come from the page's expression lab (see the module
        docstring): expression.js fills it in and mounts it, and question.js leaves it
        alone until then (data-mounted="lab")."""
        o = self.options
        if o["answer"] or o["slips"] or o["explain"] or o["reasons"]:
            raise CourseBlockError(f"{where}: the lab computes this question's answer, slips and explanation; "
                                   "leave out 'answer', 'slips', 'reasons' and 'explain'")
        attrs = {"class": "course-question", "id": f"q-{qid}", "data-question": qid, "data-mounted": "lab"}
        if o["predicts"] and o["kind"] != "number":
            raise CourseBlockError(f"{where}: 'predicts' asks for a number: leave out 'kind'")
        if o["kind"] == "flat":
            if not o["wrt"] or o["wrt"] not in o["values"] or not o["example"]:
                raise CourseBlockError(f"{where}: kind 'flat' needs 'wrt', 'values' that include it, and 'example'")
            attrs.update({"data-task": "flat", "data-wrt": o["wrt"], "data-example": o["example"],
                          "data-values": json.dumps(o["values"]), "data-hint": o["hint"]})
        else:
            attrs["data-predicts"] = o["predicts"]
        return etree.SubElement(parent, "div", attrs)

    def on_add(self, block):
        if block.get("data-mounted") == "lab":
            return block  # the prompt's paragraphs are the question's children, as expression.js expects
        return block.find("div[@class='course-question__prompt']")
