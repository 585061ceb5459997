"""`python -m grader`: grade a file, prove the exercises, hunt surviving mutants.

    python -m grader grade <id> <file> [--json]   exit 0 when it passes, 1 when not
    python -m grader prove [<id> ...]             solution passes, starter fails, every
                                                  known mistake gets its own diagnosis
    python -m grader mutate [<id> ...]            every mutant of the learner-written lines dies
    python -m grader solution <id>                print the solution as a whole file
    python -m grader mistake <id> <name>          print a known mistake as a whole file
    python -m grader new <id> --level <level>     start a new exercise from the template
    python -m grader new <id> --like <existing>   ... or from a copy of an existing exercise
    python -m grader list

Every command takes --exercises DIR (default: the project's exercises/).
"""

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

from runner.facts import HEADLINE

from .catalog import ID_PATTERN, ROOT, ExerciseError, load, load_all
from .grading import grade
from .isolated import NodeMissing
from .proof import prove
from .version import python_version_note


def _print_verdict(verdict):
    print(f"{verdict['headline']}: {verdict['summary']}")
    if verdict.get("diagnosis"):
        print(f"  {verdict['diagnosis']['message']}")
    for test in verdict["tests"]:
        print(f"  [{'PASS' if test['passed'] else 'FAIL'}] {test['name']}")
        if test["message"]:
            print(f"         {test['message']} ({test['where']})")
    if verdict["error"] and verdict["error"].get("traceback"):
        print(verdict["error"]["traceback"])
    if verdict["stdout"]:
        print("--- output ---")
        print(verdict["stdout"], end="" if verdict["stdout"].endswith("\n") else "\n")
        if verdict["stdout_truncated"]:
            print("[output truncated]")


def _selected(ids, root=ROOT):
    return [load(i, root) for i in ids] if ids else list(load_all(root).values())


def _new(exercise_id, level, title, root, like=None):
    """Copy the template (a small function exercise that proves as it is), or the exercise
    named by `like`, into a new folder; the copy keeps the source's level unless given one."""
    if not ID_PATTERN.match(exercise_id):
        raise ExerciseError(f"{exercise_id!r}: use lowercase words joined by hyphens")
    if not like and not level:
        raise ExerciseError("give the new exercise's level (--level <level>), or an exercise to copy (--like <id>)")
    folder = Path(root) / exercise_id
    if folder.exists():
        raise ExerciseError(f"{folder} exists already")
    source = Path(load(like, root).folder) if like else Path(__file__).parent / "template"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "exercise.toml"
    text = toml.read_text(encoding="utf-8")
    title = title or exercise_id.replace("-", " ").capitalize()
    if like:
        text = re.sub(r"(?m)^title = .*$", lambda _: f"title = {json.dumps(title, ensure_ascii=False)}", text, count=1)
        if level:
            text = re.sub(r"(?m)^level = .*$", lambda _: f"level = {json.dumps(level)}", text, count=1)
        # the capstone takes each piece from one exercise: the copy writes a piece of its own, if any
        text = re.sub(r"(?m)^(# the piece of the engine written here.*\n)?writes = .*\n", "", text)
    else:
        text = text.replace("TITLE", title).replace("LEVEL", level)
    toml.write_text(text, encoding="utf-8")
    print(f"created {folder} (from {source.name}): edit starter.py, reference.py and exercise.toml "
          f"(its [solution] fills the starter's blanks), place it on a page with "
          f"`/// exercise | {exercise_id}`, then `python -m grader prove {exercise_id}`")
    return 0


def _prove(ids, root=ROOT):
    exercises = _selected(ids, root)
    problems = 0
    for exercise in exercises:
        report = prove(exercise)
        problems += len(report)
        print(f"{'ok  ' if not report else 'FAIL'} {exercise.id}")
        for line in report:
            print(f"     - {line}")
    print(f"{len(exercises)} exercises proved, {problems} problems")
    return 1 if problems else 0


def _mutate(ids, root=ROOT):
    from .mutate import mutation_report

    survivors = 0
    for exercise in _selected(ids, root):
        result = mutation_report(exercise)
        survivors += len(result["survivors"])
        print(f"{'ok  ' if not result['survivors'] else 'FAIL'} {exercise.id}: {result['killed']} of "
              f"{result['total']} mutants killed ({result['rate']:.0%}), {result['equivalent']} listed as equivalent")
        for mutant in result["survivors"]:
            print(f"     - survives: line {mutant['line']}: {mutant['before'].strip()}  ->  {mutant['after'].strip()}")
    print(f"{survivors} surviving mutants")
    return 1 if survivors else 0


def _list(args, root):
    for ex in load_all(root).values():
        print(f"{ex.id:<20} {ex.level:<12} {ex.title}")
    return 0


def _solution(args, root):
    print(load(args.exercise, root).solution, end="")
    return 0


def _mistake(args, root):
    exercise = load(args.exercise, root)
    found = [m for m in exercise.mistakes if m.name == args.name]
    if not found:
        print(f"error: {args.exercise} has no mistake {args.name!r}; it has "
              f"{', '.join(m.name for m in exercise.mistakes)}", file=sys.stderr)
        return 2
    print(found[0].code, end="")
    return 0


def _grade(args, root):
    exercise = load(args.exercise, root)
    try:
        with open(args.file, encoding="utf-8") as f:
            code = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"cannot read {args.file}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    try:
        verdict = grade(exercise, code)
    except NodeMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(verdict, indent=2, ensure_ascii=False))
    else:
        _print_verdict(verdict)
    return 0 if verdict["passed"] and verdict["headline"] == HEADLINE["passed"] else 1


COMMANDS = {"list": _list, "solution": _solution, "mistake": _mistake, "grade": _grade,
            "new": lambda args, root: _new(args.exercise, args.level, args.title, root, args.like),
            "prove": lambda args, root: _prove(args.exercises, root),
            "mutate": lambda args, root: _mutate(args.exercises, root)}


def _parser():
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__.splitlines()[0])
    parser.add_argument("--exercises", dest="root", default=str(ROOT), help="the folder of exercise folders")
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade a file against an exercise's hidden cases")
    g.add_argument("exercise")
    g.add_argument("file")
    g.add_argument("--json", action="store_true", help="print the verdict as JSON")
    for name, text in (("prove", "prove every exercise (or the ones named)"),
                       ("mutate", "mutate the learner-written lines; fail on a survivor")):
        sub.add_parser(name, help=text).add_argument("exercises", nargs="*")
    sub.add_parser("solution", help="print the solution as a whole file").add_argument("exercise")
    m = sub.add_parser("mistake", help="print a known mistake as a whole file")
    m.add_argument("exercise")
    m.add_argument("name")
    sub.add_parser("list", help="list the exercises")
    n = sub.add_parser("new", help="start a new exercise from the template")
    n.add_argument("exercise")
    n.add_argument("--level", default="", help="the level (page) it belongs to; required without --like")
    n.add_argument("--like", default="", help="copy this existing exercise instead of the template")
    n.add_argument("--title", default="")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    note = python_version_note() if args.command != "grade" else ""  # grade runs the browser's Python
    if note:
        print(note, file=sys.stderr)
    try:
        return COMMANDS[args.command](args, Path(args.root))
    except ExerciseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
