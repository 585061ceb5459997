"""What a lab declares about itself, so that the build, the worker and the page read
one entry (labs/__init__.py's `LABS`) and nothing else names the lab.

A lab module ends with `LAB = Lab(...)`: the options its `/// lab | <name>` block
takes, the page data and plain table built from them, and the functions its widget
calls in the lab interpreter. Plain Python only: the lab interpreter imports this
too, and it has no Markdown library.
"""

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Page:
    """What the build writes for one lab block: `data` becomes the block's
    `data-<key>` attributes (as JSON) that the widget reads, and `head` and `rows`
    the table a reader without scripts sees instead."""

    data: dict
    head: tuple
    rows: list


@dataclass(frozen=True)
class Lab:
    """One lab. `options`: name -> (default, check), `check(value)` returning the
    value or raising ValueError. `page(options, exercises)` -> Page, from the
    block's options and the course's exercises by id. `worker`: name -> function,
    what the widget may call in the lab interpreter. `runs_learner_code`: its worker
    functions run the learner's saved code, so the page throws the lab interpreter
    away after each call (course_browser/python.js)."""

    options: dict
    page: Callable
    worker: dict = field(default_factory=dict)
    runs_learner_code: bool = False


def number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a number")
    return value


def text(value):
    if not isinstance(value, str):
        raise ValueError("must be text")
    return value


def flag(value):
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def one_of(*choices):
    """A check that takes one of `choices` (text)."""
    def check(value):
        if value not in choices:
            raise ValueError(f"must be {' or '.join(choices)}, not {value!r}")
        return value
    return check


def numbers_by_name(value):
    if not isinstance(value, dict) or not all(isinstance(v, (int, float)) for v in value.values()):
        raise ValueError("must be a mapping of names to numbers")
    return {str(k): float(v) for k, v in value.items()}


def question_ids(value):
    """`hides: [dl-dd, dl-da]`: the questions whose answers the lab keeps back until answered."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a question id or a list of them")
    return value


# every lab's block takes these, on top of its own
COMMON_OPTIONS = {"hides": ([], question_ids)}


def graph_rows(graph):
    """A graph's nodes and their values, for a reader with no scripts. Not their grads:
    the questions after a graph ask for those, and the table stands above them."""
    return [(n["label"] or n["op"], n["op"] or "input", f"{n['data']:.6g}") for n in graph["nodes"]]
