"""Grade learner code: run it in a fresh namespace, then the hidden tests.

`grade(exercise, code)` returns a plain dict (JSON-ready), the verdict the page
shows and the CLI prints:

    status     passed | failed | error | syntax | blank | timeout | stopped
    passed     True only when every hidden test passed
    headline   "Passed" or "Not yet"
    summary    one sentence
    tests      [{name, passed, message}], in the order the tests are written
    stdout     what the learner's code printed (capped), stdout_truncated
    error      {type, message, line, traceback} in the learner's own line numbers, or None

`run(code)` runs without tests (the Run button).
"""

import io
import signal
import sys
import threading

from . import checks  # noqa: F401  (loaded before any learner code, so its pristine state is known)
from .sandbox import (LEARNER_FILE, CappedOutput, Sandbox, describe_exception,
                      describe_syntax_error, find_blank, fresh_namespace)


class RunTimeout(BaseException):
    """The time limit ran out (CPython only; the browser's watchdog does this there)."""


class _TimeLimit:
    """SIGALRM-based limit where the platform has it; a no-op elsewhere (Pyodide)."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.armed = (seconds and hasattr(signal, "setitimer")
                      and threading.current_thread() is threading.main_thread())

    def __enter__(self):
        if self.armed:
            def on_alarm(signum, frame):
                raise RunTimeout()
            self.previous = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def _verdict(status, tests=(), output=None, error=None, summary=""):
    passed = status == "passed"
    return {
        "status": status, "passed": passed,
        "headline": "Passed" if passed else "Not yet",
        "summary": summary, "tests": list(tests),
        "stdout": output.getvalue() if output else "",
        "stdout_truncated": bool(output and output.truncated),
        "error": error,
    }


def _prepare(code):
    """The blank and syntax checks shared by run and grade: (compiled, verdict-or-None)."""
    line = find_blank(code)
    if line is not None:
        return None, _verdict("blank", summary=f"Fill in the blank ____ on line {line} first.",
                              error={"type": "Blank", "message": "blank left", "line": line,
                                     "traceback": ""})
    try:
        return compile(code, LEARNER_FILE, "exec", dont_inherit=True), None
    except (SyntaxError, ValueError) as e:
        if not isinstance(e, SyntaxError):
            e = SyntaxError(str(e))
        error = describe_syntax_error(e, code)
        return None, _verdict("syntax", error=error,
                              summary=f"Python could not read line {error['line']}: {error['message']}.")


def _stopped_verdict(exc, output, code):
    if isinstance(exc, RunTimeout):
        return _verdict("timeout", output=output,
                        summary="Your code ran too long and was stopped. Look for a loop that never ends.")
    return _verdict("stopped", output=output, summary="Stopped.")


def _execute(compiled, code, namespace, output, seconds):
    """Run learner code with output captured; return the exception it raised, or None."""
    sandbox = Sandbox()
    restore = sandbox.restore
    try:
        sys.stdout = sys.stderr = output
        sys.stdin = io.StringIO("")
        with _TimeLimit(seconds):
            exec(compiled, namespace)
    except BaseException as e:  # noqa: BLE001 - everything the learner raises is reported
        return e
    finally:
        restore()
    return None


def _error_verdict(exc, output, code):
    if isinstance(exc, (RunTimeout, KeyboardInterrupt)):
        return _stopped_verdict(exc, output, code)
    error = describe_exception(exc, code)
    if isinstance(exc, SystemExit):
        error["message"] = "exit() ended your program early"
        return _verdict("error", output=output, error=error,
                        summary="Your code called exit(), so the tests could not run.")
    if isinstance(exc, EOFError):
        error["message"] = "input() has nothing to read here"
    where = f" on line {error['line']}" if error["line"] else ""
    return _verdict("error", output=output, error=error,
                    summary=f"Your code raised {error['type']}{where}, so the tests could not run.")


def run(code, timeout_seconds=10.0):
    compiled, early = _prepare(code)
    if early:
        return early
    output = CappedOutput()
    exc = _execute(compiled, code, fresh_namespace(), output, timeout_seconds)
    if exc is not None:
        return _error_verdict(exc, output, code)
    verdict = _verdict("ok", output=output, summary="Ran without errors.")
    verdict["headline"] = "Ran"
    return verdict


_compiled_tests = {}  # (id, source) -> code object; a dict, so restores keep its contents


def compile_tests(exercise):
    """The exercise's hidden tests as a code object, compiled once per visit."""
    key = (exercise.id, exercise.tests)
    if key not in _compiled_tests:
        _compiled_tests[key] = compile(exercise.tests, f"exercises/{exercise.id}/tests.py", "exec")
    return _compiled_tests[key]


def _load_tests(exercise):
    namespace = fresh_namespace()
    namespace["__name__"] = f"tests_{exercise.id.replace('-', '_')}"
    exec(compile_tests(exercise), namespace)
    return [(name, fn) for name, fn in namespace.items()
            if name.startswith("test_") and callable(fn)]


def _test_title(name, fn):
    doc = (fn.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else name[5:].replace("_", " ")


def _run_one_test(fn, learner, code):
    """Run one hidden test; (passed, message). Timeouts and stops propagate."""
    sandbox = Sandbox()
    restore = sandbox.restore
    try:
        sys.stdout = sys.stderr = CappedOutput(limit=0)
        fn(learner)
        return True, ""
    except AssertionError as e:
        return False, str(e) or "A hidden check failed."
    except (RunTimeout, KeyboardInterrupt):
        raise
    except RecursionError:
        return False, "Your code recursed too deeply (RecursionError): does a function call itself forever?"
    except BaseException as e:  # noqa: BLE001
        error = describe_exception(e, code)
        where = f" on line {error['line']}" if error["line"] else ""
        return False, f"Your code raised {error['type']}{where}: {error['message']}"
    finally:
        restore()


def grade(exercise, code):
    compiled, early = _prepare(code)
    if early:
        return early
    output = CappedOutput()
    namespace = fresh_namespace()
    exc = _execute(compiled, code, namespace, output, exercise.timeout_seconds)
    if exc is not None:
        return _error_verdict(exc, output, code)

    tests = _load_tests(exercise)
    learner = checks.Learner(namespace)
    results = []
    try:
        with _TimeLimit(exercise.timeout_seconds):
            for name, fn in tests:
                ok, message = _run_one_test(fn, learner, code)
                results.append({"name": _test_title(name, fn), "passed": ok, "message": message})
    except (RunTimeout, KeyboardInterrupt) as e:
        return _stopped_verdict(e, output, code)
    passing = sum(r["passed"] for r in results)
    if results and passing == len(results):
        return _verdict("passed", results, output, summary=f"All {passing} tests pass.")
    return _verdict("failed", results, output,
                    summary=f"{passing} of {len(results)} tests pass.")
