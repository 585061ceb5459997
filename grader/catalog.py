"""Read exercise folders: `exercises/<id>/`, plain files an instructor writes.

    exercise.toml   title, level, timeout_seconds, hints, gives, [solution], [grading],
                    [[groups]] (the page's own case groups), [[mistakes]]
    starter.py      what the learner starts from; blanks are written ____
    reference.py    the answer key of a call or sgd exercise, written apart from the solution
                    (value exercises use the reference engine, nn ones its MLP)
    equivalent.toml optional: mutants of the solution that are not wrong, each with a reason

The solution and each known mistake are *fillings*: the text typed into each
blank (`fill = [...]`). A starter without blanks has its solution as edits of the
starter (`edit = [["old", "new"], ...]`), and its mistakes as edits of the
solution. So the lines a learner writes are known from the blanks alone: the
lines a filling spans (or an edit's new text), which the answer view marks and
the mutator mutates. A comment after a blank is the learner's guide; a filling
keeps it two spaces after a one-line answer and drops it after a longer one.
`python -m grader solution <id>` and `python -m grader mistake <id> <name>` write
them out as whole files.
"""

import difflib
import functools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from runner.facts import BLANK
from runner.probes import PROBES

from .cases import OPERATIONS
from .gives import GivesError, given_files

ROOT = Path(__file__).resolve().parent.parent / "exercises"
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# every key an exercise.toml may hold, by table; a key not listed stops the build with a suggestion
# (`gives`: names of the course given to the learner, e.g. "engine.given.backward_pass")
META_KEYS = {"title", "level", "hints", "timeout_seconds", "writes", "solution", "mistakes", "grading", "groups",
             "gives"}
# `writes`: a method of Value or a class, as the capstone names its pieces
WRITES_PATTERN = re.compile(r"^(Value\.)?[A-Za-z_]\w*$")
SOLUTION_KEYS = {"fill", "edit"}
GRADING_KEYS = {"probe", "seed", "ops", "focus", "zeros", "function", "labels", "arity", "low", "high", "points",
                "unit", "sizes", "xs", "ys"}
# [[groups]]: the page's own case groups (grader/cases.py draws them); what a case holds
# depends on the probe
GROUP_KEYS = {"name", "cases", "graph", "leaves", "count"}
CASE_KEYS = {"call": {"args", "repeat"}, "sgd": {"model_seed", "lr", "steps", "ys"}, "nn": {"nin", "nouts"}}
MISTAKE_KEYS = {"name", "message", "fill", "edit", "file"}
EQUIVALENT_KEYS = {"after", "before", "line", "reason"}


class ExerciseError(Exception):
    """An exercise folder is missing a file or has malformed metadata."""


@dataclass(frozen=True)
class Mistake:
    name: str
    message: str
    code: str


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    level: str
    starter: str
    solution: str
    grading: dict
    written: tuple = ()  # 0-based indices of the solution's lines that the learner writes
    groups: tuple = ()  # [[groups]]: the page's own case groups
    writes: str = ""  # the engine's piece written here ("Value.__mul__", "MLP"), for the capstone
    hints: tuple = ()
    mistakes: tuple = field(default=())
    timeout_seconds: float = 5.0
    folder: str = ""
    equivalent: tuple = ()
    gives: tuple = ()  # names the exercise gives the learner's code (grader/gives.py)
    reference: str = ""  # code whose outputs are the expected ones ("" for value exercises)

    @property
    def piece(self):
        """The capstone's name for what this exercise writes: "__mul__", "MLP", or ""."""
        return self.writes.removeprefix("Value.")

    def public_data(self):
        """What the page fetches before any grading data: shown on request only."""
        return {"id": self.id, "title": self.title, "level": self.level,
                "starter": self.starter, "solution": self.solution, "written": list(self.written),
                "hints": list(self.hints), "timeout_seconds": self.timeout_seconds,
                "given": given_files(self.gives)}


def _read(folder, name):
    path = folder / name
    if not path.is_file():
        raise ExerciseError(f"exercise {folder.name!r}: missing {name} in {folder}")
    return path.read_text(encoding="utf-8")


def _expect(condition, folder, message, line=None, file="exercise.toml"):
    if not condition:
        where = f"{folder / file}:{line}" if line else f"{folder / file}"
        raise ExerciseError(f"{where}: exercise {folder.name!r}: {message}")


def suggestion(word, known):
    """' (did you mean 'focus'?)' for a near miss, else the list of what is known."""
    close = difflib.get_close_matches(str(word), sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(known))})"


def key_line(text, key, table=None, nth=0):
    """The 1-based line of `key =` in a TOML text, inside `[table]` or `[[table]]` number
    `nth` when given; None when not found (the message then names the file alone)."""
    return _key_lines(text).get((table, nth if table else 0, key))


TOML_HEADER = re.compile(r"^\s*\[\[?\s*([\w.-]+)\s*\]\]?")
TOML_KEY = re.compile(r"^\s*([\w.-]+)\s*=")


@functools.lru_cache(maxsize=32)
def _key_lines(text):
    """{(table, nth, key): line} for a whole TOML text: a load asks for thousands of lines
    (every message is built before its check) from a few texts."""
    lines, current, seen = {}, None, {}
    for number, line in enumerate(text.splitlines(), 1):
        if header := TOML_HEADER.match(line):
            current = header[1]
            seen[current] = seen.get(current, -1) + 1
        elif key := TOML_KEY.match(line):
            lines.setdefault((current, seen.get(current, 0), key[1]), number)
    return lines


def _check_keys(folder, text, table, known, where, table_name=None, nth=0):
    for key in table:
        if key not in known:  # the message's search and suggestion only for a key that needs them
            _expect(False, folder, f"unknown key {key!r}{where}{suggestion(key, known)}",
                    key_line(text, key, table_name, nth))


def _read_meta(folder, name="exercise.toml"):
    text = _read(folder, name)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        raise ExerciseError(f"{folder / name}: exercise {folder.name!r}: not valid TOML: {e}") from None


def blank_positions(code):
    """(line index, column) of every ____ blank, in reading order."""
    return [(i, m.start()) for i, line in enumerate(code.split("\n"))
            for m in re.finditer(re.escape(BLANK), line)]


# after a blank: the padding and comment that guide the learner, up to the line's end
TRAILING_COMMENT = re.compile(r"^[ \t]+(#[^\n]*)")


def filled(starter, fills):
    """(code, written): the starter with each blank replaced by its filling, and the
    0-based indices of the lines the fillings span. Continuation lines of a
    multi-line filling are indented to the blank's column."""
    pieces = starter.split(BLANK)
    if len(pieces) == 1:
        raise ValueError(f"starter.py has no blank: write {BLANK} where the learner types, "
                         "or give the answer as `edit` of the starter")
    if len(fills) != len(pieces) - 1:
        raise ValueError(f"`fill` gives {len(fills)} filling(s), but starter.py has {len(pieces) - 1} "
                         f"blank(s) ({BLANK}): one filling per blank, in reading order")
    code, written = pieces[0], []
    for fill, rest in zip(fills, pieces[1:]):
        if not isinstance(fill, str):
            raise TypeError(f"each filling is a string, not {fill!r}")
        column = len(code.rsplit("\n", 1)[-1])
        first = code.count("\n")
        comment = TRAILING_COMMENT.match(rest)
        if comment:
            rest = ("  " + comment[1] if "\n" not in fill else "") + rest[comment.end():]
        code += fill.replace("\n", "\n" + " " * column) + rest
        written += range(first, first + fill.count("\n") + 1)
    return code, tuple(sorted(set(written)))


def fill_blanks(starter, fills):
    """The starter with each blank replaced by its filling."""
    return filled(starter, fills)[0]


def edited(code, edits):
    """(code, written): the code with each (old, new) substring replaced, and the
    0-based indices of the lines that the new texts span; each old must occur once."""
    spans = []
    for old, new in edits:
        if not isinstance(old, str) or not isinstance(new, str):
            raise TypeError(f"each edit is a pair of strings, not {[old, new]!r}")
        if code.count(old) != 1:
            raise ValueError(f"{old!r} occurs {code.count(old)} times, not once")
        at, grow = code.index(old), len(new) - len(old)
        spans = [(a + grow, b + grow) if a >= at + len(old) else (a, b) for a, b in spans]
        spans.append((at, at + len(new)))
        code = code[:at] + new + code[at + len(old):]
    written = {line for a, b in spans for line in range(code.count("\n", 0, a), code.count("\n", 0, b) + 1)}
    return code, tuple(sorted(written))


def apply_edits(code, edits):
    """The code with each (old, new) substring replaced; each old must occur once."""
    return edited(code, edits)[0]


def _solution(folder, meta, starter, text):
    """(code, written) of the exercise's one correct answer: [solution] fill or edit."""
    entry = meta.get("solution")
    _expect(isinstance(entry, dict), folder, "a [solution] table is required: `fill = [...]`, the text of "
            "each blank in reading order (or `edit = [[old, new], ...]` of a starter without blanks)")
    _check_keys(folder, text, entry, SOLUTION_KEYS, " in [solution]", "solution")
    ways = [k for k in ("fill", "edit") if k in entry]
    _expect(len(ways) == 1, folder, "[solution] needs exactly one of fill or edit", key_line(text, "solution"))
    try:
        if ways == ["fill"]:
            return filled(starter, entry["fill"])
        return edited(starter, [tuple(pair) for pair in entry["edit"]])
    except (ValueError, TypeError) as e:
        raise ExerciseError(f"{folder / 'exercise.toml'}:{key_line(text, ways[0], 'solution')}: "
                            f"exercise {folder.name!r}: [solution]: {e}") from None


def _mistake(folder, entry, starter, solution, text, nth):
    _expect(isinstance(entry, dict), folder, "each [[mistakes]] must be a table")
    _check_keys(folder, text, entry, MISTAKE_KEYS, " in [[mistakes]]", "mistakes", nth)
    _expect(isinstance(entry.get("name"), str)
            and ID_PATTERN.match(entry["name"]) and isinstance(entry.get("message"), str)
            and entry["message"].strip(), folder,
            "each [[mistakes]] needs a 'name' (lowercase-with-hyphens) and a non-empty 'message'",
            key_line(text, "name", "mistakes", nth))
    ways = [k for k in ("fill", "edit", "file") if k in entry]
    _expect(len(ways) == 1, folder, f"mistake {entry['name']!r} needs exactly one of fill, edit or file",
            key_line(text, "name", "mistakes", nth))
    try:
        if "fill" in entry:
            code = fill_blanks(starter, entry["fill"])
        elif "edit" in entry:
            code = apply_edits(solution, [tuple(pair) for pair in entry["edit"]])
        else:
            code = _read(folder, entry["file"])
    except (ValueError, TypeError) as e:
        line = key_line(text, ways[0], "mistakes", nth)
        raise ExerciseError(f"{folder / 'exercise.toml'}:{line}: exercise {folder.name!r}: "
                            f"mistake {entry['name']!r}: {e}") from None
    return Mistake(entry["name"], entry["message"].strip(), code)


def _grading(folder, meta, text):
    grading = meta.get("grading")
    _expect(isinstance(grading, dict), folder, "a [grading] table is required")
    _check_keys(folder, text, grading, GRADING_KEYS, " in [grading]", "grading")
    _expect(grading.get("probe") in PROBES, folder,
            f"[grading] needs a probe, one of {', '.join(PROBES)}"
            + (suggestion(grading["probe"], PROBES) if "probe" in grading else ""),
            key_line(text, "probe", "grading"))
    for key in ("ops", "focus"):
        ops = grading.get(key, [])
        _expect(isinstance(ops, list), folder, f"[grading] {key} must be a list of operations",
                key_line(text, key, "grading"))
        for op in ops:
            _expect(op in OPERATIONS, folder, f"[grading] {key}: unknown operation {op!r}"
                    f"{suggestion(op, OPERATIONS)}; a new operation is declared in grader/cases.py OPERATIONS",
                    key_line(text, key, "grading"))
    if grading["probe"] == "value":
        _expect(grading.get("ops"), folder, "[grading] a value exercise needs ops, e.g. [\"add\", \"mul\"]")
        stray = set(grading.get("focus", [])) - set(grading["ops"])
        _expect(not stray, folder, f"[grading] focus {sorted(stray)} must also be in ops",
                key_line(text, "focus", "grading"))
    if grading["probe"] == "call":
        _expect(isinstance(grading.get("function"), str), folder, "[grading] a call exercise names its `function`")
    return grading


def _groups(folder, meta, grading, text):
    """[[groups]]: each a `name` and its `cases` (call, sgd, nn) or, for a value
    exercise, a `graph` of `leaves` leaves drawn `count` times."""
    groups, probe = meta.get("groups", []), grading["probe"]
    _expect(isinstance(groups, list), folder, "[[groups]] must be tables")
    needed = {"value": {"name", "graph", "leaves"}}.get(probe, {"name", "cases"})
    _expect(probe in ("value", "call") or groups, folder, f"a {probe!r} exercise lists its case groups, [[groups]]")
    for nth, group in enumerate(groups):
        line = key_line(text, "name", "groups", nth)
        _expect(isinstance(group, dict), folder, "each [[groups]] must be a table", line)
        _check_keys(folder, text, group, GROUP_KEYS, " in [[groups]]", "groups", nth)
        _expect(needed <= set(group), folder, f"each [[groups]] of a {probe} exercise needs "
                f"{', '.join(sorted(needed))}", line)
        for case in group.get("cases", []):
            known = CASE_KEYS.get(probe, set())
            _expect(isinstance(case, dict) and set(case) <= known, folder, f"each case of [[groups]] "
                    f"{group['name']!r} is a table of {', '.join(sorted(known))}",
                    key_line(text, "cases", "groups", nth))
    return tuple(groups)


# The expected outputs never come from the [solution]: a backwards solution would then be
# its own answer key, prove, and fail every correct learner.
BUILT_IN_REFERENCES = {"nn": "from engine.nn import MLP, Layer, Neuron\n"}  # the reference engine's network


def _reference(folder, grading):
    """The answer key's code: reference.py, or the reference engine's own."""
    if grading["probe"] == "value":
        return ""  # the reference engine computes every value case (grader/cases.py)
    if (folder / "reference.py").is_file():
        return _read(folder, "reference.py")
    _expect(grading["probe"] in BUILT_IN_REFERENCES, folder,
            f"a {grading['probe']!r} exercise needs reference.py: the expected outputs come from it, never "
            "from the [solution]; write it apart from it (with the reference engine where it can)")
    return BUILT_IN_REFERENCES[grading["probe"]]


def _equivalent(folder):
    """equivalent.toml: mutants that are not wrong, each with the reason it is not."""
    if not (folder / "equivalent.toml").is_file():
        return ()
    data, text = _read_meta(folder, "equivalent.toml")
    _check_keys(folder, text, data, {"mutants"}, "", None)
    entries = data.get("mutants", [])
    for nth, entry in enumerate(entries):
        line = key_line(text, "after", "mutants", nth)
        _expect(isinstance(entry, dict), folder, "each [[mutants]] must be a table", line, "equivalent.toml")
        for key in entry:
            _expect(key in EQUIVALENT_KEYS, folder, f"unknown key {key!r} in [[mutants]]"
                    f"{suggestion(key, EQUIVALENT_KEYS)}", key_line(text, key, "mutants", nth), "equivalent.toml")
        _expect(isinstance(entry.get("after"), str) and entry["after"].strip(), folder,
                "each [[mutants]] names the mutated line, `after = \"...\"`", line, "equivalent.toml")
        _expect(isinstance(entry.get("reason"), str) and entry["reason"].strip(), folder,
                "each [[mutants]] says why the mutant is not wrong, `reason = \"...\"`", line, "equivalent.toml")
    return tuple(entries)


def load_exercise(folder):
    folder = Path(folder)
    _expect(ID_PATTERN.match(folder.name), folder,
            "the folder name must be lowercase words joined by hyphens")
    meta, text = _read_meta(folder)
    _check_keys(folder, text, meta, META_KEYS, "")
    for key in ("title", "level"):
        _expect(isinstance(meta.get(key), str) and meta[key].strip(), folder,
                f"'{key}' must be a non-empty string", key_line(text, key))
    hints = meta.get("hints", [])
    _expect(isinstance(hints, list) and all(isinstance(h, str) for h in hints), folder,
            "'hints' must be a list of strings")
    timeout = meta.get("timeout_seconds", 5)
    _expect(isinstance(timeout, (int, float)) and 0 < timeout <= 60, folder,
            "'timeout_seconds' must be a number between 0 and 60")
    starter = _read(folder, "starter.py")
    grading = _grading(folder, meta, text)
    solution, written = _solution(folder, meta, starter, text)
    groups = _groups(folder, meta, grading, text)
    mistakes = tuple(_mistake(folder, entry, starter, solution, text, nth)
                     for nth, entry in enumerate(meta.get("mistakes", [])))
    names = [m.name for m in mistakes]
    _expect(len(names) == len(set(names)), folder, "two mistakes share a name")
    writes = meta.get("writes", "")
    _expect(isinstance(writes, str) and (not writes or WRITES_PATTERN.match(writes)), folder,
            "'writes' names a method of Value (\"Value.__mul__\") or a class (\"MLP\")", key_line(text, "writes"))
    gives = meta.get("gives", [])
    _expect(isinstance(gives, list) and all(isinstance(g, str) for g in gives), folder,
            "'gives' must be a list of names, like \"engine.given.backward_pass\"")
    try:
        given_files(gives)
    except GivesError as e:
        raise ExerciseError(f"exercise {folder.name!r}: {e} ({folder / 'exercise.toml'})") from None
    equivalent = _equivalent(folder)
    return Exercise(
        id=folder.name, title=meta["title"], level=meta["level"], starter=starter,
        solution=solution, written=written, groups=groups, grading=grading, hints=tuple(hints), mistakes=mistakes,
        timeout_seconds=float(timeout), folder=str(folder), equivalent=equivalent, gives=tuple(gives),
        reference=_reference(folder, grading), writes=writes,
    )


def exercise_folders(root=ROOT):
    return sorted(p for p in Path(root).iterdir() if (p / "exercise.toml").is_file())


def load_all(root=ROOT):
    return {folder.name: load_exercise(folder) for folder in exercise_folders(root)}


def load(exercise_id, root=ROOT):
    folder = Path(root) / exercise_id
    if not ID_PATTERN.match(exercise_id) or not (folder / "exercise.toml").is_file():
        known = [f.name for f in exercise_folders(root)]
        raise ExerciseError(f"unknown exercise {exercise_id!r}{suggestion(exercise_id, known)}")
    return load_exercise(folder)


def to_json(data):
    return json.dumps(data, indent=1, ensure_ascii=False)
