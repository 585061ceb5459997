"""Read exercise folders: `exercises/<id>/`, plain files an instructor writes.

    exercise.toml   title, level, timeout_seconds, hints, gives, [grading], [[mistakes]]
    starter.py      what the learner starts from; blanks are written ____
    solution.py     one correct answer (shown only when the learner asks)
    equivalent.toml optional: mutants of the solution that are not wrong, each with a reason

A known mistake is a *filling*: the text a learner might type into each blank
(`fill = [...]`), or, for exercises without blanks, line edits of the solution
(`edit = [["old", "new"], ...]`). `python -m grader mistake <id> <name>` writes
one out as a whole file.
"""

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from runner.facts import BLANK
from runner.probes import PROBES

from .gives import GivesError, given_files

ROOT = Path(__file__).resolve().parent.parent / "exercises"
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
META_KEYS = {"title", "level", "hints", "timeout_seconds", "mistakes", "grading", "gives"}


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
    hints: tuple = ()
    mistakes: tuple = field(default=())
    timeout_seconds: float = 5.0
    folder: str = ""
    equivalent: tuple = ()
    gives: tuple = ()  # names the exercise gives the learner's code (grader/gives.py)

    def public_data(self):
        """What the page fetches before any grading data: shown on request only."""
        return {"id": self.id, "title": self.title, "level": self.level,
                "starter": self.starter, "solution": self.solution,
                "hints": list(self.hints), "timeout_seconds": self.timeout_seconds,
                "given": given_files(self.gives)}


def _read(folder, name):
    path = folder / name
    if not path.is_file():
        raise ExerciseError(f"exercise {folder.name!r}: missing {name} in {folder}")
    return path.read_text(encoding="utf-8")


def _expect(condition, folder, message):
    if not condition:
        raise ExerciseError(f"exercise {folder.name!r}: {message} ({folder / 'exercise.toml'})")


def _read_meta(folder):
    try:
        return tomllib.loads(_read(folder, "exercise.toml"))
    except tomllib.TOMLDecodeError as e:
        raise ExerciseError(f"exercise {folder.name!r}: exercise.toml is not valid TOML: {e}") from None


def blank_positions(code):
    """(line index, column) of every ____ blank, in reading order."""
    return [(i, m.start()) for i, line in enumerate(code.split("\n"))
            for m in re.finditer(re.escape(BLANK), line)]


def fill_blanks(starter, fills):
    """The starter with each blank replaced by its filling. Continuation lines of
    a multi-line filling are indented to the blank's column."""
    pieces = starter.split(BLANK)
    if len(fills) != len(pieces) - 1:
        raise ValueError(f"{len(fills)} fillings for {len(pieces) - 1} blanks")
    out = [pieces[0]]
    for fill, rest in zip(fills, pieces[1:]):
        column = len("".join(out).rsplit("\n", 1)[-1])
        out.append(fill.replace("\n", "\n" + " " * column) + rest)
    return "".join(out)


def apply_edits(solution, edits):
    """The solution with each (old, new) substring replaced; each old must occur once."""
    code = solution
    for old, new in edits:
        if code.count(old) != 1:
            raise ValueError(f"{old!r} occurs {code.count(old)} times in the solution, not once")
        code = code.replace(old, new)
    return code


def _mistake(folder, entry, starter, solution):
    _expect(isinstance(entry, dict) and isinstance(entry.get("name"), str)
            and ID_PATTERN.match(entry["name"]) and isinstance(entry.get("message"), str)
            and entry["message"].strip(), folder,
            "each [[mistakes]] needs a 'name' (lowercase-with-hyphens) and a non-empty 'message'")
    ways = [k for k in ("fill", "edit", "file") if k in entry]
    _expect(len(ways) == 1, folder, f"mistake {entry['name']!r} needs exactly one of fill, edit or file")
    try:
        if "fill" in entry:
            code = fill_blanks(starter, entry["fill"])
        elif "edit" in entry:
            code = apply_edits(solution, [tuple(pair) for pair in entry["edit"]])
        else:
            code = _read(folder, entry["file"])
    except (ValueError, TypeError) as e:
        raise ExerciseError(f"exercise {folder.name!r}: mistake {entry['name']!r}: {e}") from None
    return Mistake(entry["name"], entry["message"].strip(), code)


def _grading(folder, meta):
    grading = meta.get("grading")
    _expect(isinstance(grading, dict) and grading.get("probe") in PROBES, folder,
            f"[grading] needs a probe, one of {', '.join(PROBES)}")
    return grading


def load_exercise(folder):
    folder = Path(folder)
    _expect(ID_PATTERN.match(folder.name), folder,
            "the folder name must be lowercase words joined by hyphens")
    meta = _read_meta(folder)
    unknown = set(meta) - META_KEYS
    _expect(not unknown, folder, f"unknown keys {sorted(unknown)}")
    for key in ("title", "level"):
        _expect(isinstance(meta.get(key), str) and meta[key].strip(), folder,
                f"'{key}' must be a non-empty string")
    hints = meta.get("hints", [])
    _expect(isinstance(hints, list) and all(isinstance(h, str) for h in hints), folder,
            "'hints' must be a list of strings")
    timeout = meta.get("timeout_seconds", 5)
    _expect(isinstance(timeout, (int, float)) and 0 < timeout <= 60, folder,
            "'timeout_seconds' must be a number between 0 and 60")
    starter, solution = _read(folder, "starter.py"), _read(folder, "solution.py")
    mistakes = tuple(_mistake(folder, entry, starter, solution) for entry in meta.get("mistakes", []))
    names = [m.name for m in mistakes]
    _expect(len(names) == len(set(names)), folder, "two mistakes share a name")
    gives = meta.get("gives", [])
    _expect(isinstance(gives, list) and all(isinstance(g, str) for g in gives), folder,
            "'gives' must be a list of names, like \"engine.given.backward_pass\"")
    try:
        given_files(gives)
    except GivesError as e:
        raise ExerciseError(f"exercise {folder.name!r}: {e} ({folder / 'exercise.toml'})") from None
    equivalent = ()
    if (folder / "equivalent.toml").is_file():
        equivalent = tuple(tomllib.loads(_read(folder, "equivalent.toml")).get("mutants", []))
    return Exercise(
        id=folder.name, title=meta["title"], level=meta["level"], starter=starter,
        solution=solution, grading=_grading(folder, meta), hints=tuple(hints), mistakes=mistakes,
        timeout_seconds=float(timeout), folder=str(folder), equivalent=equivalent, gives=tuple(gives),
    )


def exercise_folders(root=ROOT):
    return sorted(p for p in Path(root).iterdir() if (p / "exercise.toml").is_file())


def load_all(root=ROOT):
    return {folder.name: load_exercise(folder) for folder in exercise_folders(root)}


def load(exercise_id, root=ROOT):
    folder = Path(root) / exercise_id
    if not ID_PATTERN.match(exercise_id) or not (folder / "exercise.toml").is_file():
        known = ", ".join(f.name for f in exercise_folders(root))
        raise ExerciseError(f"unknown exercise {exercise_id!r}; known: {known}")
    return load_exercise(folder)


def to_json(data):
    return json.dumps(data, indent=1, ensure_ascii=False)
