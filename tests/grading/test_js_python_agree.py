"""The page's verdict (course_browser/compare.js) and the CLI's
(grader/compare.py) follow one rule: `decide` gives equal decisions (status,
pass per case group, the first failing case and what differs in it, the known
mistake) for the same grading data and report. Each side words the decision
itself: the verdicts read alike but for how a number, or a forged report's odd
value, is written.

Reports come from real code (each exercise's solution, starter, known mistakes,
the alternative answers of tests/grading/answers.py, and mutants when
grader.mutate can list them) and from forged reports: what learner code that
owns the worker could send back. Every report crosses JSON on the way to Node,
as it crosses JSON on the way from the worker to the page; the Python verdict
is computed on the same JSON.
"""

import copy
import json
import math
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from grader import catalog
from grader.cases import fmt, fmt_pair
from grader.compare import decide, verdict
from grader.grading import data_for, report_for
from runner.facts import MAX_OUTPUTS_PER_CASE, OUTPUT_LIMIT
from tests.grading.answers import RIGHT, WRONG
from tests.marks import exercise_params

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "tests/js/compare_cli.mjs"
EXERCISES = catalog.load_all()


_node = []  # the one Node process this module asks (a process a question cost 0.15 s)


@pytest.fixture(scope="module", autouse=True)
def _node_process():
    yield
    while _node:
        process = _node.pop()
        process.stdin.close()
        process.wait(timeout=30)


def node(payload):
    """What compare.js decides and says, asked over JSON lines (tests/js/compare_cli.mjs)."""
    assert shutil.which("node"), "node is required"
    if not _node:  # its stderr is the test's: pytest shows it with a failure
        _node.append(subprocess.Popen(["node", str(CLI)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, encoding="utf-8", cwd=ROOT))
    process = _node[0]
    process.stdin.write(json.dumps(payload, allow_nan=False) + "\n")
    process.stdin.flush()
    line = process.stdout.readline()
    assert line, f"compare_cli.mjs ended with exit code {process.poll()}"
    return json.loads(line)


def wire(value):
    """What arrives on the other side of JSON."""
    return json.loads(json.dumps(value, allow_nan=False))


def answer_code(exercise, filling):
    if isinstance(filling, tuple) and filling[0] == "edit":
        return catalog.apply_edits(exercise.solution, filling[1])
    return catalog.fill_blanks(exercise.starter, filling)


def mutant_sources(exercise):
    """Every mutant of the solution's learner-written lines (grader.mutate), when it is there."""
    try:
        from grader.mutate import mutants
    except ImportError:
        return []
    return [source for _line, _before, _after, source in mutants(exercise)]


def real_codes(exercise):
    codes = [("solution", exercise.solution), ("starter", exercise.starter)]
    codes += [(f"mistake {m.name}", m.code) for m in exercise.mistakes]
    for kind, answers in (("right", RIGHT), ("wrong", WRONG)):
        codes += [(f"{kind} answer: {note}", answer_code(exercise, filling))
                  for ex_id, filling, note in answers if ex_id == exercise.id]
    return codes


def forged_reports(data, solution_report):
    """Reports no honest worker sends: forged, truncated, oversized, mistyped."""
    expected = [c["expected"] for c in data["cases"]]
    n = len(expected)
    ran = {"status": "ran", "summary": "", "stdout": "", "stdout_truncated": False, "error": None}

    def outputs(value):
        return {**ran, "outputs": value}

    def bump(lists, by=1.0):
        return [[x + by if isinstance(x, float) else x for x in out] for out in lists]

    first_mistake = next((m for m in data["mistakes"] if "outputs" in m), None)
    huge = "x" * (OUTPUT_LIMIT + 7) + "🙂" * 50
    emoji_stdout = "🙂" * (OUTPUT_LIMIT - 1) + "ab"
    weird_error = {"type": ["Value", 1, 2.5, None, True, {"k": "v'\"\n\t\x01é\u200b"}],
                   "message": 12, "line": "3", "traceback": {"a": [1e-07, 1e+20, -0.5]}}
    forged = [
        ("not a dict: None", None), ("not a dict: list", [1, 2]), ("not a dict: string", "ran"),
        ("not a dict: number", 5), ("not a dict: bool", True),
        ("empty dict", {}),
        ("status passed", {"status": "passed", "passed": True, "headline": "Passed"}),
        ("a forged verdict", {"status": "passed", "passed": True, "headline": "Passed", "summary": "All good",
                              "tests": [], "diagnosis": None, "stdout": "", "stdout_truncated": False,
                              "error": None}),
        ("status is a list", {"status": ["ran"], "outputs": expected}),
        ("status ok (the Run button's)", {**ran, "status": "ok"}),
        ("ran without outputs", {"status": "ran"}),
        ("outputs not a list", outputs({"0": expected[0]})),
        ("one case too few", outputs(expected[:-1])),
        ("one case too many", outputs(expected + [expected[0]])),
        ("no cases", outputs([])),
        ("right length of wrong numbers", outputs(bump(expected))),
        ("tiny errors within tolerance", outputs(bump(expected, 1e-9))),
        ("errors just outside tolerance", outputs(bump(expected, 3e-6))),
        ("exactly the expected numbers", outputs(expected)),
        ("expected, with a stray key", {**outputs(expected), "passed": False, "extra": [1, {"a": None}]}),
        ("nan-like strings", outputs([["nan", "inf", "-inf", "NaN", "Infinity"][: len(e)] for e in expected])),
        ("numbers as strings", outputs([[str(x) for x in e] for e in expected])),
        ("booleans", outputs([[True for _ in e] for e in expected])),
        ("nulls", outputs([[None for _ in e] for e in expected])),
        ("nested objects in a case", outputs([[{"x": 1}]] + expected[1:])),
        ("nested lists in a case", outputs([[[1.0, 2.0]]] + expected[1:])),
        ("a case as a number", outputs([1.0] + expected[1:])),
        ("a case as a string", outputs(["oops"] + expected[1:])),
        ("a case too long", outputs([[0.5] * (MAX_OUTPUTS_PER_CASE + 1)] + expected[1:])),
        ("a case of the longest length", outputs([[0.5] * MAX_OUTPUTS_PER_CASE] + expected[1:])),
        ("a short case", outputs([expected[0][:-1]] + expected[1:])),
        ("an empty case", outputs([[]] + expected[1:])),
        ("big integers", outputs([[10 ** 15 for _ in e] for e in expected])),
        ("integers beyond 2**53", outputs([[10 ** 20 + 1 for _ in e] for e in expected])),
        ("integers too big for a float", outputs([[10 ** 400 for _ in e] for e in expected])),
        ("the largest float", outputs([[1.7976931348623157e308 for _ in e] for e in expected])),
        ("negative zeros", outputs([[-0.0 for _ in e] for e in expected])),
        ("error dicts everywhere", outputs([{"error": "ZeroDivisionError: float division by zero", "line": 7}] * n)),
        ("error dict without a line", outputs([{"error": "NameError: oops"}] + expected[1:])),
        ("error dict with line 0", outputs([{"error": "E", "line": 0}] + expected[1:])),
        ("error dict with a string line", outputs([{"error": "E", "line": "7"}] + expected[1:])),
        ("error dict with a boolean line", outputs([{"error": "E", "line": True}] + expected[1:])),
        ("error dict with a non-string error", outputs([{"error": 5, "line": 1}] + expected[1:])),
        ("error dict without error", outputs([{"line": 1}] + expected[1:])),
        ("huge error text", outputs([{"error": huge, "line": 2}] + expected[1:])),
        ("huge strings as outputs", outputs([[huge] * len(expected[0])] + expected[1:])),
        ("huge stdout", {**outputs(expected), "stdout": huge}),
        ("stdout of astral characters at the limit", {**outputs(bump(expected)), "stdout": emoji_stdout}),
        ("stdout not a string", {**outputs(expected), "stdout": ["a"], "stdout_truncated": "yes"}),
        ("stdout_truncated true", {**outputs(expected), "stdout": "hi", "stdout_truncated": True}),
        ("stdout_truncated 1", {**outputs(expected), "stdout": "hi", "stdout_truncated": 1}),
        ("error of odd types", {**outputs(bump(expected)), "error": weird_error}),
        ("error with nulls", {**outputs(expected), "error": {"type": None, "message": None, "line": None,
                                                             "traceback": None}}),
        ("error with a huge type", {**outputs(expected), "error": {"type": "T" * 90 + "🙂" * 20, "line": 4,
                                                                   "message": "m" * 2500, "traceback": huge}}),
        ("error as a string", {**outputs(expected), "error": "Traceback"}),
        ("blank with a summary", {"status": "blank", "summary": "Fill in the blank ____ on line 3 first.",
                                  "error": {"type": "Blank", "message": "blank left", "line": 3, "traceback": ""}}),
        ("syntax with a huge summary", {"status": "syntax", "summary": "s" * 5000, "stdout": 3}),
        ("timeout, summary not a string", {"status": "timeout", "summary": ["x"], "outputs": expected}),
        ("stopped, keys only", {"status": "stopped"}),
        ("error status with outputs", {"status": "error", "summary": "boom", "outputs": expected}),
        ("proto keys", json.loads('{"__proto__": {"status": "ran"}, "status": "error", "summary": "p"}')),
        *plain_word_reports(outputs, expected),
        ("the solution's own report", solution_report),
        ("the solution's report with junk stdout", {**solution_report, "stdout": "<b>junk</b>\x00\ud800"}),
    ]
    if first_mistake:
        forged.append(("a known mistake's outputs", outputs(copy.deepcopy(first_mistake["outputs"]))))
        forged.append(("a known mistake's outputs, one case changed",
                       outputs([[1234.5]] + copy.deepcopy(first_mistake["outputs"][1:]))))
    return forged


# one error for each rule of grader/plain_errors.json, and names that a careless
# substitution would mangle ($& and $1 mean something to JavaScript's replace)
PLAIN_ERRORS = [
    ("NameError", "name '__x__' is not defined"), ("NameError", "name '__' is not defined"),
    ("NameError", "name '_Value__other' is not defined"),  # __other, inside class Value: Python mangles it
    ("NameError", "name 'other_data' is not defined"), ("NameError", "name '$&$1' is not defined"),
    ("NameError", "name 'ß' is not defined"),
    ("UnboundLocalError", "cannot access local variable 'out' where it is not associated with a value"),
    ("TypeError", "'NoneType' object is not iterable"), ("TypeError", "'NoneType' object is not callable"),
    ("AttributeError", "'NoneType' object has no attribute 'grad'"),
    ("TypeError", "unsupported operand type(s) for *: 'NoneType' and 'float'"),
    ("AttributeError", "'float' object has no attribute 'data'"),
    ("AttributeError", "'Value' object has no attribute 'grd'"),
    ("TypeError", "unsupported operand type(s) for +: 'Value' and 'int'"),
    ("TypeError", "'float' object is not callable"),
    ("TypeError", "Value.__init__() missing 1 required positional argument: 'data'"),
    ("TypeError", "grads() takes 4 positional arguments but 5 were given"),
    ("RecursionError", "maximum recursion depth exceeded"), ("ZeroDivisionError", "float division by zero"),
    ("OverflowError", "math range error"), ("ValueError", "math domain error"),
    ("IndexError", "list index out of range"), ("KeyError", "'a'"),
    ("UnboundLocalError", "'" * 3000),
]


def plain_word_reports(outputs, expected):
    """Each common error as a case's error and as what stopped the run."""
    reports = []
    for kind, message in PLAIN_ERRORS:
        error = f"{kind}: {message}"
        reports.append((f"case error {error[:40]}", outputs([{"error": error, "line": 3}] + expected[1:])))
        reports.append((f"run error {error[:40]}", {"status": "error", "summary": f"Your code raised {kind}.",
                                                    "error": {"type": kind, "message": message, "line": 3,
                                                              "traceback": ""}}))
    return reports


def test_every_plain_words_rule_is_reached():
    """The list above names an error for every rule, so the agreement covers each."""
    from grader.compare import PLAIN_RULES
    reached = {next(i for i, (pattern, _s) in enumerate(PLAIN_RULES) if pattern.search(f"{k}: {m}"))
               for k, m in PLAIN_ERRORS if any(p.search(f"{k}: {m}") for p, _s in PLAIN_RULES)}
    assert reached == set(range(len(PLAIN_RULES)))


# a number as either side writes it: 6.0, −2.5, 1e-05, 0.00001, 1.5e+21, and a gap's 2 × 10⁻⁶ or 10⁻⁷
NUMBER = re.compile(r"(?:\d+(?:\.\d+)? × )?10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|−?\d+(?:\.\d+)?(?:e[+-]?\d+)?")


def alike(result, report):
    """A verdict as both sides show it: all but how a number is written in a message,
    and how an error field that is not a string (a forged report's) is turned into one."""
    out = {**result, "tests": [{**t, "message": NUMBER.sub("#", t["message"])} for t in result["tests"]]}
    raw = report.get("error") if isinstance(report, dict) else None
    if out["error"] and isinstance(raw, dict):
        out["error"] = {k: v if k == "line" or isinstance(raw.get(k, ""), str) else "(not a string)"
                        for k, v in out["error"].items()}
    return out


def agree(exercise_id, labelled_reports, data):
    """Equal decisions on every report, and verdicts alike; the Python verdicts, for more asserts."""
    reports = [wire(r) for _, r in labelled_reports]
    py_decisions = [wire(decide(data, r)) for r in reports]
    py = [wire(verdict(data, r)) for r in reports]
    js = node({"data": {exercise_id: data}, "pairs": [[exercise_id, r] for r in reports]})
    assert len(js["decisions"]) == len(js["verdicts"]) == len(py)
    for (label, _), report, a, b, va, vb in zip(labelled_reports, reports, py_decisions, js["decisions"], py,
                                                 js["verdicts"]):
        assert b == a, f"{exercise_id}, {label}, decision:\npython {json.dumps(a)[:3000]}\njs     {json.dumps(b)[:3000]}"
        assert alike(vb, report) == alike(va, report), \
            f"{exercise_id}, {label}, verdict:\npython {json.dumps(va)[:3000]}\njs     {json.dumps(vb)[:3000]}"
    return py


@pytest.mark.parametrize("exercise_id", exercise_params(sorted(EXERCISES)))
def test_real_code_gets_the_same_verdict(exercise_id):
    exercise = EXERCISES[exercise_id]
    data = wire(data_for(exercise))
    labelled = [(label, report_for(exercise, code, isolated=False)) for label, code in real_codes(exercise)]
    verdicts = dict(zip([label for label, _ in labelled], agree(exercise_id, labelled, data)))
    assert verdicts["solution"]["passed"]
    assert not verdicts["starter"]["passed"]
    for mistake in exercise.mistakes:
        assert not verdicts[f"mistake {mistake.name}"]["passed"]
    for label, result in verdicts.items():
        if label.startswith("right answer"):
            assert result["passed"], label
        if label.startswith("wrong answer"):
            assert not result["passed"], label


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", sorted(EXERCISES))
def test_mutants_get_the_same_verdict(exercise_id):
    exercise = EXERCISES[exercise_id]
    sources = mutant_sources(exercise)
    if not sources:
        pytest.skip("grader.mutate lists no mutants")
    data = wire(data_for(exercise))
    labelled = [(f"mutant {i}", report_for(exercise, code, isolated=False)) for i, code in enumerate(sources)]
    agree(exercise_id, labelled, data)


@pytest.mark.parametrize("exercise_id", exercise_params(sorted(EXERCISES)))
def test_forged_reports_get_the_same_verdict(exercise_id):
    exercise = EXERCISES[exercise_id]
    data = wire(data_for(exercise))
    solution = report_for(exercise, exercise.solution, isolated=False)
    labelled = forged_reports(data, solution)
    verdicts = dict(zip([label for label, _ in labelled], agree(exercise_id, labelled, data)))
    passed = {label for label, v in verdicts.items() if v["passed"]}
    # only the right numbers pass, whatever else the report claims
    assert passed <= {"exactly the expected numbers", "expected, with a stray key", "tiny errors within tolerance",
                      "the solution's own report", "the solution's report with junk stdout", "huge stdout",
                      "stdout not a string", "stdout_truncated true", "stdout_truncated 1", "error with nulls",
                      "error with a huge type", "error as a string"}, passed
    assert not verdicts["status passed"]["passed"] and not verdicts["a forged verdict"]["passed"]
    assert not verdicts["right length of wrong numbers"]["passed"]
    if any(m.get("outputs") for m in data["mistakes"]):
        assert verdicts["a known mistake's outputs"]["diagnosis"]["mistake"] == data["mistakes"][0]["name"]


TRICKY = [0, 0.0, -0.0, 1e-5, -1e-5, 123456.5, 1234565.0, 1e16, 1e15, 0.0001234, 0.00001234, -2.5, 2.5, 0.5, 1.5,
          1, -1, 7, 100000, 1000000, 999999.5, 9999995.0, 0.1, 0.2 + 0.1, 1 / 3, -2 / 3, 2 ** 0.5, 1e-300, 5e-324,
          1.7976931348623157e308, 2.2250738585072014e-308, 123.456789, 0.000999999, 0.0009999995, 6.02214076e23,
          -1.6e-19, 14.000000000000002, 3.9999999999999996, 1e21, 1e22, 12345678901234567, 2 ** 53, 2 ** 53 + 2]


def read(text):
    return float(text.replace("−", "-"))


def off(text, x):
    """How far the written number is from x, exactly (2e+308 is not the largest float's infinity)."""
    return abs(Decimal(text.replace("−", "-")) - Decimal(x))


def test_each_side_writes_a_number_to_the_digits_asked():
    """Each side has its own way to write a number; both are right to the digits asked
    (or read back as the very number), and with 17 digits read back exactly."""
    cases = [[x, d] for x in TRICKY for d in (1, 2, 3, 6, 10, 15, 16, 17)]
    js = node({"fmt": cases})["fmt"]
    for (x, d), text in zip(cases, js):
        for side, shown in (("js", text), ("python", fmt(x, d))):
            right = read(shown) == float(x) or off(shown, x) <= Decimal("0.5") * Decimal(10) ** (1 - d) * abs(Decimal(x))
            assert right, f"{side} fmt({x!r}, {d}): {shown}"
            assert d < 17 or read(shown) == float(x), f"{side} fmt({x!r}, 17): {shown}"


def test_js_writes_numbers_plainly():
    xs = (0, -0.0, 6.0, -5.0, 1e-5, 1e-7, 123456.5, 0.0001234, -2.5, 1 / 3, 2.0000001)
    assert node({"fmt": [[x, 6] for x in xs]})["fmt"] == [
        "0", "0", "6", "−5", "0.00001", "1e-7", "123457", "0.0001234", "−2.5", "0.333333", "2"]


CLOSE_PAIRS = [[1.0, 1.0000001], [2.0, 2.0], [-0.0, 0.0], [14.0, 14.000000000000002], [1e-5, 1.00000001e-5],
               [0.1, 0.30000000000000004], [123456.5, 123456.50000001], [5.0, "nan"], [5.0, "Value(data=5)"],
               [3.0, -3.0], [1e16, 1e16 + 2], [1.0, math.nextafter(1.0, 2.0)], [1e-300, math.nextafter(1e-300, 1.0)],
               [-7.25, math.nextafter(-7.25, 0.0)], [6.0, 5.0], [1.3872, 1.387202]]


def test_expected_and_got_never_read_alike():
    """Two different numbers are written with enough digits to tell them apart, on both sides."""
    js = node({"fmt_pair": CLOSE_PAIRS})["fmt_pair"]
    for (want, got), js_pair in zip(CLOSE_PAIRS, js):
        for side, (a, b) in (("js", js_pair), ("python", fmt_pair(want, got))):
            assert a != b or want == got, f"{side} fmt_pair({want!r}, {got!r}): {a} and {b}"
            assert read(a) == want or abs(read(a) - want) < 1e-5 * abs(want), f"{side}: {a} for {want!r}"
            if isinstance(got, float):
                assert read(b) == got or abs(read(b) - got) < 1e-5 * abs(got), f"{side}: {b} for {got!r}"
    assert js[-2] == ["6", "5"] and fmt_pair(6.0, 5.0) == ("6", "5")
