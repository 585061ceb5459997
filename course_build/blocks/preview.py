"""The instructor's preview (`make preview`): every lock open, every answer shown.

Rendered into the page by the blocks, beside the widgets and outside them, so the
runtime has nothing to unlock and writes no progress: a learner's saved progress in
this browser stays as it was. Only `mkdocs serve` with COURSE_PREVIEW=1 turns it on
(course_build/plugin.py); `mkdocs build` never does, so no built site carries it.
"""

import xml.etree.ElementTree as etree

from markdown.util import AtomicString


def preview_note(parent, text):
    note = etree.SubElement(parent, "p", {"class": "course-preview-note", "data-search-exclude": ""})
    note.text = f"Preview: {text}"
    return note


def preview_solution(parent, exercise):
    """The solution and each known mistake's message, folded under the exercise."""
    box = etree.SubElement(parent, "details", {"class": "course-preview-note", "data-search-exclude": ""})
    etree.SubElement(box, "summary").text = f"Preview: the solution of {exercise.id}, and its known mistakes"
    code = etree.SubElement(etree.SubElement(box, "pre"), "code")
    code.text = AtomicString(exercise.solution)
    mistakes = etree.SubElement(box, "ul")
    for mistake in exercise.mistakes:
        etree.SubElement(mistakes, "li").text = f"{mistake.name}: {mistake.message}"
    return box
