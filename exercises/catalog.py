"""Read exercise folders: `exercises/<id>/` with plain files an instructor writes.

    exercise.toml   title, level, timeout_seconds, hints, known mistakes
    starter.py      what the learner starts from; blanks are written ____
    solution.py     one correct answer (shown only when the learner asks)
    tests.py        hidden tests: functions test_*(learner), docstring = the name shown
    mistakes/*.py   wrong answers; each must fail with the message given in exercise.toml
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The browser's copy (course.zip) carries the metadata as JSON: the same table, read
# without Python's pure-Python TOML parser, whose import alone costs ~60 ms in Pyodide.
META_FILES = ("exercise.toml", "exercise.json")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class ExerciseError(Exception):
    """An exercise folder is missing a file or has malformed metadata."""


@dataclass(frozen=True)
class Mistake:
    file: str
    code: str
    message: str


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    level: str
    starter: str
    solution: str
    tests: str
    hints: tuple = ()
    mistakes: tuple = field(default=())
    timeout_seconds: float = 5.0
    folder: str = ""

    def public_data(self):
        """What the page may fetch: everything but the hidden tests and the mistakes."""
        return {"id": self.id, "title": self.title, "level": self.level,
                "starter": self.starter, "solution": self.solution,
                "hints": list(self.hints), "timeout_seconds": self.timeout_seconds}


def _read(folder, name):
    path = folder / name
    if not path.is_file():
        raise ExerciseError(f"exercise {folder.name!r}: missing {name} in {folder}")
    return path.read_text(encoding="utf-8")


def _expect(condition, folder, message):
    if not condition:
        raise ExerciseError(f"exercise {folder.name!r}: {message} ({folder / 'exercise.toml'})")


def _read_meta(folder):
    if not (folder / "exercise.toml").is_file() and (folder / "exercise.json").is_file():
        return json.loads(_read(folder, "exercise.json"))
    import tomllib

    try:
        return tomllib.loads(_read(folder, "exercise.toml"))
    except tomllib.TOMLDecodeError as e:
        raise ExerciseError(f"exercise {folder.name!r}: exercise.toml is not valid TOML: {e}") from None


def shipped_files(exercise):
    """What the browser gets of an exercise: metadata (as JSON), starter, hidden tests."""
    folder = Path(exercise.folder)
    return {"exercise.json": json.dumps(_read_meta(folder), indent=1),
            "starter.py": _read(folder, "starter.py"), "tests.py": _read(folder, "tests.py")}


def load_exercise(folder, complete=True):
    """`complete=False` reads only what grading needs (the browser ships no
    solutions or mistakes); the default reads and validates everything."""
    folder = Path(folder)
    _expect(ID_PATTERN.match(folder.name), folder,
            "the folder name must be lowercase words joined by hyphens")
    meta = _read_meta(folder)
    for key in ("title", "level"):
        _expect(isinstance(meta.get(key), str) and meta[key].strip(), folder,
                f"'{key}' must be a non-empty string")
    hints = meta.get("hints", [])
    _expect(isinstance(hints, list) and all(isinstance(h, str) for h in hints), folder,
            "'hints' must be a list of strings")
    timeout = meta.get("timeout_seconds", 5)
    _expect(isinstance(timeout, (int, float)) and 0 < timeout <= 60, folder,
            "'timeout_seconds' must be a number between 0 and 60")
    mistakes = []
    for entry in meta.get("mistakes", []):
        _expect(isinstance(entry, dict) and isinstance(entry.get("file"), str)
                and isinstance(entry.get("message"), str) and entry["message"].strip(), folder,
                "each [[mistakes]] needs a 'file' and a non-empty 'message'")
        if complete:
            mistakes.append(Mistake(entry["file"], _read(folder, entry["file"]), entry["message"]))
    unknown = set(meta) - {"title", "level", "hints", "timeout_seconds", "mistakes"}
    _expect(not unknown, folder, f"unknown keys {sorted(unknown)}")
    return Exercise(
        id=folder.name, title=meta["title"], level=meta["level"],
        starter=_read(folder, "starter.py"), solution=_read(folder, "solution.py") if complete else "",
        tests=_read(folder, "tests.py"), hints=tuple(hints), mistakes=tuple(mistakes),
        timeout_seconds=float(timeout), folder=str(folder),
    )


def exercise_folders(root=HERE):
    return sorted(p for p in Path(root).iterdir() if any((p / name).is_file() for name in META_FILES))


def load_all(root=HERE):
    return {folder.name: load_exercise(folder) for folder in exercise_folders(root)}


def load(exercise_id, root=HERE, complete=True):
    folder = Path(root) / exercise_id
    if not ID_PATTERN.match(exercise_id) or not any((folder / name).is_file() for name in META_FILES):
        known = ", ".join(f.name for f in exercise_folders(root))
        raise ExerciseError(f"unknown exercise {exercise_id!r}; known: {known}")
    return load_exercise(folder, complete)
