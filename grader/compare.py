"""The verdict: compare what learner code computed with the expected outputs.

This is the second half of a Check, and it runs where learner code cannot
reach: in the CLI's parent process, and (as `compare.js`, line for line the
same) in the page's JavaScript. A test holds the two to identical verdicts on
every solution, mistake, mutant and alternative answer.

    verdict(data, report) -> {status, passed, headline, summary, tests,
                              diagnosis, stdout, stdout_truncated, error}

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

STATUSES = ("ran", "blank", "syntax", "error", "timeout", "stopped")
PLAIN_RULES = [(re.compile(pattern), sentence) for pattern, sentence
               in json.loads((Path(__file__).parent / "plain_errors.json").read_text(encoding="utf-8"))["rules"]]
NEAR = 0.01  # a gap below this share of the numbers is spelled out: 1.3872 and 1.387202 read as equal
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def cap(text, limit=MESSAGE_LIMIT):
    return text if len(text) <= limit else text[:limit] + "…"


def is_number(x):
    return (type(x) is float or type(x) is int) and abs(x) <= 1.7976931348623157e308  # not nan, inf, or 10**400


def close(got, want, tol):
    if not (is_number(got) and is_number(want)):
        return False
    return abs(got - want) <= max(tol["rel"] * max(abs(got), abs(want)), tol["abs"])


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


def _differs(label, g, w):
    want, have = fmt_pair(w, g)
    claim = f"{label} should be {want}, but it is {have}"
    if is_number(g) and is_number(w) and abs(g - w) <= NEAR * max(abs(g), abs(w)):
        claim += f", off by {gap_text(abs(g - w))}"
    return claim


def counterexample(data, index, got):
    """What differs first, then the case it differs on."""
    case = data["cases"][index]
    on = f" On: {case['text']}"
    if type(got) is dict:
        line = f" on line {got['line']}" if got.get("line") else ""
        plain = plain_words(cap(got["error"]))
        return f"Your code raised {cap(got['error'])}{line}.{' ' + plain if plain else ''}{on}"
    if len(got) != len(case["expected"]):
        return f"Expected {len(case['expected'])} numbers, but got {len(got)}.{on}"
    for label, g, w in zip(case["labels"], got, case["expected"]):
        if not close(g, w, data["tolerance"]):
            return f"{_differs(label, g, w)}.{on}"
    return on.strip()


def _valid_output(item):
    if type(item) is dict:
        return type(item.get("error")) is str and (item.get("line") is None or type(item.get("line")) is int)
    return (type(item) is list and len(item) <= MAX_OUTPUTS_PER_CASE
            and all(is_number(x) or type(x) is str for x in item))


def _clean_error(error):
    if type(error) is not dict:
        return None
    line = error.get("line")
    return {"type": cap(str(error.get("type", "")), 100), "message": cap(str(error.get("message", ""))),
            "line": line if type(line) is int else None, "traceback": cap(str(error.get("traceback", "")))}


def _shell(status, report, summary):
    stdout = report.get("stdout") if type(report.get("stdout")) is str else ""
    return {"status": status, "passed": status == "passed",
            "headline": HEADLINE["passed" if status == "passed" else "failed"],
            "summary": summary, "tests": [], "diagnosis": None,
            "stdout": stdout[:OUTPUT_LIMIT], "stdout_truncated": report.get("stdout_truncated") is True
            or len(stdout) > OUTPUT_LIMIT, "error": _clean_error(report.get("error"))}


def verdict(data, report):
    if type(report) is not dict or report.get("status") not in STATUSES:
        return _shell("error", {}, "The checks sent back something unreadable. Run the Check again.")
    if report["status"] != "ran":
        summary = cap(report.get("summary") if type(report.get("summary")) is str else "")
        result = _shell(report["status"], report, summary)
        plain = plain_words(f"{result['error']['type']}: {result['error']['message']}") if result["error"] else ""
        if plain:
            result["summary"] = f"{summary} {plain}"
        return result
    outputs = report.get("outputs")
    cases, tol = data["cases"], data["tolerance"]
    if type(outputs) is not list or len(outputs) != len(cases) or not all(_valid_output(o) for o in outputs):
        return _shell("error", report, "The checks sent back something unreadable. Run the Check again.")
    failing = [i for i, case in enumerate(cases) if not case_passes(outputs[i], case["expected"], tol)]
    tests = []
    for g, group in enumerate(data["groups"]):
        first = next((i for i in failing if cases[i]["group"] == g), None)
        tests.append({"name": group["name"], "passed": first is None,
                      "message": "" if first is None else counterexample(data, first, outputs[first]),
                      "where": "" if first is None else f"case {first + 1}, seed {data['seed']}"})
    passing = sum(t["passed"] for t in tests)
    if not failing:
        result = _shell("passed", report, f"All {len(tests)} checks pass, on {len(cases)} cases.")
    else:
        result = _shell("failed", report, f"{passing} of {len(tests)} checks pass.")
        mistake = next((m for m in data["mistakes"] if matches(outputs, m, tol)), None)
        if mistake:
            result["diagnosis"] = {"mistake": mistake["name"], "message": mistake["message"]}
    result["tests"] = tests
    return result
