"""Blocks about progress through a level: header, locks, the skip quiz, recap, course map."""

import xml.etree.ElementTree as etree

from pymdownx.blocks.block import Block

from .errors import CourseBlockError
from .preview import preview_note


def _id_argument(block, what):
    value = (block.argument or "").strip()
    if not value:
        raise CourseBlockError(f"/// {block.NAME}: {what} is required, e.g. `/// {block.NAME} | my-id`")
    return value


class Level(Block):
    """The level's header: its id ties questions, exercises and stars together."""
    NAME = "level"
    ARGUMENT = True

    def on_create(self, parent):
        level = _id_argument(self, "the level id")
        return etree.SubElement(parent, "div", {"class": "course-level", "data-level": level})


class Locked(Block):
    """Opens once the named question or exercise is answered (or the level is cleared)."""
    NAME = "locked"
    ARGUMENT = True

    def on_create(self, parent):
        after = _id_argument(self, "the id of the question or exercise that unlocks it")
        if self.config.get("preview"):  # open, and says what would open it: the runtime leaves it be
            el = etree.SubElement(parent, "div", {"class": "course-preview-open", "data-after": after})
            preview_note(el, f"Locked until {after} is answered; open in the preview.")
            return el
        # locked text stays out of the search index: a search must not give away what a
        # question is about to ask (the index is one file for every learner)
        return etree.SubElement(parent, "div", {"class": "course-locked", "data-after": after,
                                                "data-search-exclude": ""})

    def on_end(self, block):
        if block.get("class") == "course-preview-open":
            return
        # Material's search starts a new section at each heading: mark those too, so
        # the text under a locked heading stays out as well
        for heading in block.iter():
            if heading.tag in {"h1", "h2", "h3", "h4", "h5", "h6"}:
                heading.set("data-search-exclude", "")


class Quiz(Block):
    """The skip-level test: every question and exercise inside counts."""
    NAME = "quiz"
    ARGUMENT = None

    def on_create(self, parent):
        return etree.SubElement(parent, "section", {"class": "course-quiz"})


class Recap(Block):
    """Opens once the level is cleared."""
    NAME = "recap"
    ARGUMENT = None

    def on_create(self, parent):
        if self.config.get("preview"):
            el = etree.SubElement(parent, "section", {"class": "course-preview-open"})
            preview_note(el, "The recap: it opens once the level is cleared; open in the preview.")
            return el
        return etree.SubElement(parent, "section", {"class": "course-recap"})


class CourseMap(Block):
    """A list of links with data-level attributes; the runtime adds each level's state."""
    NAME = "course-map"
    ARGUMENT = None

    def on_create(self, parent):
        return etree.SubElement(parent, "nav", {"class": "course-map", "aria-label": "Course map"})
