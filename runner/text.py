"""Turn what learner code raised or returned into short, safe text.

Every string here is capped (`MESSAGE_LIMIT`; names to `NAME_LIMIT`), and
reading it never runs more than it must of the learner's code: an exception
whose `__str__` raises, a class whose `__name__` raises or is 3 million
characters long, or a 50-million-character message, gives a short line, not a
crash or a frozen page. (A `__str__` that never returns is the time limit's
business: the browser's watchdog, the CLI's parent process.)
"""

import traceback

from .facts import MESSAGE_LIMIT

LEARNER_FILE = "main.py"
NAME_LIMIT = 100  # a class name as shown; compare.py/compare.js cap an error's type to the same


def cap(text, limit=MESSAGE_LIMIT):
    text = str(text) if type(text) is not str else text
    return text if len(text) <= limit else text[:limit] + f"… [{len(text) - limit:,} more characters]"


def safe_str(obj):
    """str(obj), capped; a description instead when str() itself fails."""
    try:
        text = str(obj)
        if type(text) is not str:
            raise TypeError("__str__ returned a non-string")
    except Exception as e:  # noqa: BLE001
        return f"<the message could not be read: its __str__ raised {type_name(e)}>"
    return cap(text)


def short_repr(obj, limit=80):
    try:
        text = repr(obj)
        if type(text) is not str:
            raise TypeError
    except Exception:  # noqa: BLE001
        return f"<{type_name(obj)}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def type_name(obj):
    """The name of obj's class, capped; "Exception" when the class won't say (a
    metaclass can make `__name__` raise or return anything)."""
    try:
        name = type(obj).__name__
    except Exception:  # noqa: BLE001
        return "Exception"
    return cap(name, NAME_LIMIT) if type(name) is str else "Exception"


def describe_syntax_error(error, code):
    lines = code.splitlines()
    line = error.lineno or 0
    text = lines[line - 1] if 0 < line <= len(lines) else (error.text or "").rstrip("\n")
    caret = ""
    if error.offset and text:
        caret = "\n    " + " " * len(text[: error.offset - 1].expandtabs()) + "^"
    kind = type_name(error)
    message = safe_str(error.msg)
    return {"type": kind, "message": message, "line": line,
            "traceback": cap(f"{kind} on line {line}: {message}\n    {text.expandtabs()}{caret}")}


def describe_exception(error, code):
    """A short traceback that shows only the learner's own lines."""
    lines = code.splitlines()
    try:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == LEARNER_FILE]
    except Exception:  # noqa: BLE001 - a tampered traceback still gives a verdict
        frames = []
    out = []
    for frame in frames[-5:]:
        where = f"line {frame.lineno}" + ("" if frame.name == "<module>" else f", in {frame.name}")
        source = lines[frame.lineno - 1].strip() if 0 < (frame.lineno or 0) <= len(lines) else ""
        out.append(f"  {where}\n    {cap(source, 200)}")
    kind = type_name(error)
    message = safe_str(error)
    head = f"{kind}: {message}" if message else kind
    text = ("Traceback (your code):\n" + "\n".join(out) + "\n" if out else "") + head
    return {"type": kind, "message": message,
            "line": frames[-1].lineno if frames else None, "traceback": cap(text)}
