"""The verdict: compare what learner code computed with the expected outputs.

This is the second half of a Check, and it runs where learner code cannot
reach: in the CLI's parent process, and (as `compare.js`) in the page's
JavaScript. It comes in two halves:

    decide(data, report) -> {status, passed, unreadable, first, groups, mistake}
    verdict(data, report) -> {status, passed, headline, summary, tests,
                              diagnosis, stdout, stdout_truncated, error}

`decide` is the rule: which numbers are close, which case groups pass, which
known mistake the outputs are, the first failing case and what differs in it.
compare.js has its twin, and tests/grading/test_js_python_agree.py holds the two
to equal decisions on every solution, starter, known mistake, mutant,
alternative answer and forged report. `verdict` words a decision, each side
in its own way (here Python's %g, grader.cases.fmt); the words may differ in
how a number is written, never in what they say.

`data` is `grader.cases.grading_data(exercise)`; `report` is what
`runner.execute.collect` returned, from a process (or worker) that is not
trusted: every field is checked and capped before it is shown.

A diagnosis names a known mistake only when the learner's outputs equal that
mistake's outputs on every case. Otherwise the learner gets a counterexample:
the expression, the inputs, what was expected and what came back.

Learner text leads with what differs, names no seed or case number (those go in
a test's `where`, for the command line), shows the gap between numbers that
read alike, and adds a plain sentence to a Python error a learner commonly
causes (plain_errors.json, shared with compare.js).
"""

import json
import re
from pathlib import Path

from runner.facts import HEADLINE, MAX_OUTPUTS_PER_CASE, MESSAGE_LIMIT, OUTPUT_LIMIT

from .cases import fmt, fmt_pair

REPORT_STATUSES = ("ran", "blank", "syntax", "error", "timeout", "stopped")
UNREADABLE = "The checks sent back something unreadable. Run the Check again."
PLAIN_RULES = [(re.compile(pattern), sentence) for pattern, sentence
               in json.loads((Path(__file__).parent / "plain_errors.json").read_text(encoding="utf-8"))["rules"]]
NEAR = 0.01  # a gap below this share of the numbers is spelled out: 1.3872 and 1.387202 read as equal
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


# -- the decision (compare.js has its twin) -----------------------------------

def is_number(x):
    return (type(x) is float or type(x) is int) and abs(x) <= 1.7976931348623157e308  # not nan, inf, or 10**400


def close(got, want, tol):
    if not (is_number(got) and is_number(want)):
        return False
    return abs(got - want) <= max(tol["rel"] * max(abs(got), abs(want)), tol["abs"])


def near(got, want):
    """Close enough that the two may read alike: the verdict spells out the gap."""
    return is_number(got) and is_number(want) and abs(got - want) <= NEAR * max(abs(got), abs(want))


def same(got, want, tol):
    if is_number(want):
        return close(got, want, tol)
    return type(got) is str and got == want


def _error_kind(result):
    return result["error"].split(":")[0]


def case_passes(got, expected, tol):
    return type(got) is list and len(got) == len(expected) and all(close(g, w, tol) for g, w in zip(got, expected))


def matches(outputs, mistake, tol):
    """Did the learner compute exactly what this known mistake computes?"""
    if "outputs" not in mistake:
        return False
    for got, sig in zip(outputs, mistake["outputs"]):
        if type(sig) is dict:
            if not (type(got) is dict and _error_kind(got) == _error_kind(sig)):
                return False
        elif not (type(got) is list and len(got) == len(sig) and all(same(g, s, tol) for g, s in zip(got, sig))):
            return False
    return True


def _valid_output(item):
    if type(item) is dict:
        return type(item.get("error")) is str and (item.get("line") is None or type(item.get("line")) is int)
    return (type(item) is list and len(item) <= MAX_OUTPUTS_PER_CASE
            and all(is_number(x) or type(x) is str for x in item))


def _difference(got, expected, tol):
    """What differs first in a failing case: it raised, it gave too many or too few
    numbers, or output `output` is not close (and `near`: reads alike)."""
    if type(got) is dict:
        return {"differs": "raised", "output": None, "near": False}
    if len(got) != len(expected):
        return {"differs": "count", "output": None, "near": False}
    j = next(j for j, (g, w) in enumerate(zip(got, expected)) if not close(g, w, tol))
    return {"differs": "value", "output": j, "near": near(got[j], expected[j])}


def _decision(status, unreadable=None, first=None, groups=(), mistake=None):
    return {"status": status, "passed": status == "passed", "unreadable": unreadable,
            "first": first, "groups": list(groups), "mistake": mistake}


def decide(data, report):
    """The verdict before it is worded: plain values only, equal to compare.js's decide.
    `unreadable`: None, "report" (not a report at all) or "outputs" (a run's outputs)."""
    if type(report) is not dict or report.get("status") not in REPORT_STATUSES:
        return _decision("error", unreadable="report")
    if report["status"] != "ran":
        return _decision(report["status"])
    outputs = report.get("outputs")
    cases, tol = data["cases"], data["tolerance"]
    if type(outputs) is not list or len(outputs) != len(cases) or not all(_valid_output(o) for o in outputs):
        return _decision("error", unreadable="outputs")
    failing = [i for i, case in enumerate(cases) if not case_passes(outputs[i], case["expected"], tol)]
    groups = []
    for g in range(len(data["groups"])):
        i = next((i for i in failing if cases[i]["group"] == g), None)
        groups.append({"passed": True, "case": None, "differs": None, "output": None, "near": False} if i is None
                      else {"passed": False, "case": i, **_difference(outputs[i], cases[i]["expected"], tol)})
    if not failing:
        return _decision("passed", groups=groups)
    mistake = next((m["name"] for m in data["mistakes"] if matches(outputs, m, tol)), None)
    return _decision("failed", first=failing[0], groups=groups, mistake=mistake)


# -- the words -----------------------------------------------------------------

def cap(text, limit=MESSAGE_LIMIT):
    return text if len(text) <= limit else text[:limit] + "…"


def plain_words(error):
    """A plain sentence for a Python error ("Type: message") a learner commonly causes, or ""."""
    for pattern, sentence in PLAIN_RULES:
        found = pattern.search(error)
        if found:
            return sentence.replace("{1}", found.group(1) or "") if pattern.groups else sentence
    return ""


def gap_text(gap):
    """2e-06 -> "2 × 10⁻⁶"; 0.0896 -> "0.0896"."""
    text = fmt(gap, 2)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = f"10{str(int(exponent)).translate(SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa} × {power}"


def counterexample(case, got, group):
    """What differs first (as `decide` found it), then the case it differs on."""
    on = f" On: {case['text']}"
    if group["differs"] == "raised":
        line = f" on line {got['line']}" if got.get("line") else ""
        plain = plain_words(cap(got["error"]))
        return f"Your code raised {cap(got['error'])}{line}.{' ' + plain if plain else ''}{on}"
    if group["differs"] == "count":
        return f"Expected {len(case['expected'])} numbers, but got {len(got)}.{on}"
    j = group["output"]
    g, w = got[j], case["expected"][j]
    want, have = fmt_pair(w, g)
    gap = f", off by {gap_text(abs(g - w))}" if group["near"] else ""
    return f"{case['labels'][j]} should be {want}, but it is {have}{gap}.{on}"


def _clean_error(error):
    if type(error) is not dict:
        return None
    line = error.get("line")
    return {"type": cap(str(error.get("type", "")), 100), "message": cap(str(error.get("message", ""))),
            "line": line if type(line) is int else None, "traceback": cap(str(error.get("traceback", "")))}


def word(data, report, decision):
    """The verdict a learner reads, for `decision` (decide's) on this report."""
    status = decision["status"]
    readable = {} if decision["unreadable"] == "report" else report
    stdout = readable.get("stdout") if type(readable.get("stdout")) is str else ""
    error = _clean_error(readable.get("error"))
    tests, diagnosis = [], None
    if decision["unreadable"]:
        summary = UNREADABLE
    elif status not in ("passed", "failed"):
        summary = cap(report.get("summary") if type(report.get("summary")) is str else "")
        plain = plain_words(f"{error['type']}: {error['message']}") if error else ""
        summary = f"{summary} {plain}" if plain else summary
    else:
        cases = data["cases"]
        for group, g in zip(data["groups"], decision["groups"]):
            i = g["case"]
            tests.append({"name": group["name"], "passed": g["passed"],
                          "message": "" if i is None else counterexample(cases[i], report["outputs"][i], g),
                          "where": "" if i is None else f"case {i + 1}, seed {data['seed']}"})
        passing = sum(t["passed"] for t in tests)
        summary = (f"All {len(tests)} checks pass, on {len(cases)} cases." if status == "passed"
                   else f"{passing} of {len(tests)} checks pass.")
        mistake = next((m for m in data["mistakes"] if m["name"] == decision["mistake"]), None)
        if mistake:
            diagnosis = {"mistake": mistake["name"], "message": mistake["message"]}
    return {"status": status, "passed": decision["passed"],
            "headline": HEADLINE["passed" if decision["passed"] else "failed"],
            "summary": summary, "tests": tests, "diagnosis": diagnosis,
            "stdout": stdout[:OUTPUT_LIMIT], "stdout_truncated": readable.get("stdout_truncated") is True
            or len(stdout) > OUTPUT_LIMIT, "error": error}


def verdict(data, report):
    return word(data, report, decide(data, report))
