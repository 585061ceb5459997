"""`/// exercise | <id>`: a graded code exercise. The body is the prompt."""

import xml.etree.ElementTree as etree

from markdown.util import AtomicString
from pymdownx.blocks.block import Block, type_string

from .errors import CourseBlockError
from .preview import preview_solution


class Exercise(Block):
    NAME = "exercise"
    ARGUMENT = True
    OPTIONS = {"slot": ("", type_string)}

    def on_create(self, parent):
        exercise_id = (self.argument or "").strip()
        exercise = self.config["exercises"].get(exercise_id)
        if exercise is None:
            known = ", ".join(sorted(self.config["exercises"])) or "none"
            raise CourseBlockError(f"/// exercise | {exercise_id}: unknown exercise id "
                                   f"(known: {known}); add exercises/{exercise_id}/")
        slot = self.options["slot"] or exercise.id
        el = etree.SubElement(parent, "div", {
            "class": "course-exercise", "id": f"ex-{slot}",
            "data-exercise": exercise.id,
            "data-slot": slot,
            "data-title": exercise.title,
            "data-timeout": f"{exercise.timeout_seconds:g}",
            "data-hints": str(len(exercise.hints)),
        })
        etree.SubElement(el, "p", {"class": "course-kind"}).text = "Code"
        etree.SubElement(el, "div", {"class": "course-exercise__prompt"})
        # A plain-text editor that takes typing from the first paint, before any script
        # runs; the runtime then swaps in CodeMirror, keeping the text, cursor and focus.
        # out of the search index: a later starter holds the code an earlier exercise asks for
        starter = etree.SubElement(el, "div", {"class": "course-exercise__starter", "data-search-exclude": ""})
        draft = etree.SubElement(starter, "textarea", {
            "class": "course-draft", "aria-label": f"Code editor: {exercise.title}",
            "data-slot": el.get("data-slot"), "rows": str(exercise.starter.count("\n") + 1),
            "spellcheck": "false", "autocomplete": "off", "autocapitalize": "off", "autocorrect": "off",
        })
        draft.text = AtomicString(exercise.starter)
        if self.config.get("preview"):
            preview_solution(parent, exercise)
        return el

    def on_add(self, block):
        return block.find("div[@class='course-exercise__prompt']")
