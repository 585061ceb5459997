"""Each exercise's grading data, proved, cached by content, and written under a content hash.

Making the grading data runs the solution and every known mistake on every case, and
proving the exercise runs the solution and the starter once more: about a second an
exercise. Both depend only on the exercise's folder and the Python that grades it, so
their result is kept in `build/exercises/` under a hash of exactly those files, and a
rebuild after editing a page (or one exercise) redoes only what changed.
"""

import hashlib
import json
from pathlib import Path

from mkdocs.exceptions import PluginError

import engine
import grader
import runner
from grader.cases import grading_data
from grader.proof import prove

CACHE = Path(__file__).resolve().parent.parent / "build" / "exercises"


def content_key(exercise):
    """A hash of everything the exercise's grading data and proof are made from."""
    digest = hashlib.sha256()
    folders = [Path(exercise.folder)]
    sources = [p for package in (engine, grader, runner) for p in sorted(Path(package.__file__).parent.glob("*.py"))]
    sources += [Path(runner.__file__).parent / "facts.json"]
    for path in [p for folder in folders for p in sorted(folder.rglob("*")) if p.is_file()] + sources:
        if "__pycache__" in path.parts:
            continue
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def proved_grading_data(exercises, cache=CACHE):
    """{id: grading data} for every exercise, each proved sound; a PluginError listing every
    problem `python -m grader prove` would report, when one is not."""
    data, problems = {}, []
    for exercise in exercises.values():
        cached = Path(cache) / f"{exercise.id}.{content_key(exercise)}.json"
        if cached.is_file():
            data[exercise.id] = json.loads(cached.read_text(encoding="utf-8"))
            continue
        data[exercise.id] = grading_data(exercise)
        found = prove(exercise, data[exercise.id])
        problems += [f"{Path(exercise.folder, 'exercise.toml')}: exercise {exercise.id!r}: {p}" for p in found]
        if not found:  # only a proved exercise is kept: a refused one is proved again next build
            cached.parent.mkdir(parents=True, exist_ok=True)
            for old in cached.parent.glob(f"{exercise.id}.*.json"):
                old.unlink()
            cached.write_text(json.dumps(data[exercise.id]), encoding="utf-8")
    if problems:
        raise PluginError("course: `python -m grader prove` refuses the course (fix it, then "
                          "`python -m grader prove <id>`):\n  " + "\n  ".join(problems))
    return data


def exercise_files(exercises, grading):
    """Each exercise's two JSON files, and the name of the folder that holds them.

    `/assets/course/` is cached for a year as immutable (the plugin's CACHE_HEADERS), so
    the folder is named by a hash of these very bytes: a changed message, case or solution
    is a new URL that every returning learner fetches, not a stale copy from their cache."""
    files = {}
    for exercise in exercises.values():
        files[f"{exercise.id}.json"] = json.dumps(exercise.public_data()).encode()
        files[f"{exercise.id}.grading.json"] = json.dumps(grading[exercise.id]).encode()
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return files, f"exercises.{digest.hexdigest()[:10]}"
