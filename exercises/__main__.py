"""`python -m exercises`: grade a file, or prove every exercise.

    python -m exercises grade <id> <file> [--json]   exit 0 when it passes, 1 when not
    python -m exercises check [<id> ...]              solution passes, starter fails,
                                                      every known mistake fails with its message
    python -m exercises list
"""

import argparse
import json
import sys

from .catalog import ExerciseError, load, load_all
from .grader import grade
from .proof import prove


def _print_verdict(verdict):
    print(f"{verdict['headline']}: {verdict['summary']}")
    for test in verdict["tests"]:
        mark = "PASS" if test["passed"] else "FAIL"
        print(f"  [{mark}] {test['name']}")
        if test["message"]:
            print(f"         {test['message']}")
    if verdict["error"] and verdict["error"].get("traceback"):
        print(verdict["error"]["traceback"])
    if verdict["stdout"]:
        print("--- output ---")
        print(verdict["stdout"], end="" if verdict["stdout"].endswith("\n") else "\n")
        if verdict["stdout_truncated"]:
            print("[output truncated]")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m exercises", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade a file against an exercise's hidden tests")
    g.add_argument("exercise")
    g.add_argument("file")
    g.add_argument("--json", action="store_true", help="print the verdict as JSON")
    c = sub.add_parser("check", help="prove every exercise (or the ones named)")
    c.add_argument("exercises", nargs="*")
    sub.add_parser("list", help="list the exercises")
    args = parser.parse_args(argv)

    try:
        if args.command == "list":
            for ex in load_all().values():
                print(f"{ex.id:<20} {ex.level:<12} {ex.title}")
            return 0
        if args.command == "grade":
            exercise = load(args.exercise)
            try:
                with open(args.file, encoding="utf-8") as f:
                    code = f.read()
            except OSError as e:
                print(f"cannot read {args.file}: {e.strerror}", file=sys.stderr)
                return 2
            verdict = grade(exercise, code)
            if args.json:
                print(json.dumps(verdict, indent=2))
            else:
                _print_verdict(verdict)
            return 0 if verdict["passed"] else 1
        exercises = [load(i) for i in args.exercises] if args.exercises else list(load_all().values())
        problems = 0
        for exercise in exercises:
            report = prove(exercise)
            problems += len(report)
            print(f"{'ok  ' if not report else 'FAIL'} {exercise.id}")
            for line in report:
                print(f"     - {line}")
        print(f"{len(exercises)} exercises checked, {problems} problems")
        return 1 if problems else 0
    except ExerciseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
