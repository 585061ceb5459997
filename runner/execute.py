"""Run learner code: in a fresh namespace, with output captured and capped. Used by
the browser's worker and by the CLI's child process; neither knows what the right
answer is. Both run each submission in an interpreter of its own and throw it away
afterwards (`restore=False`); in-process callers (the mutation proof, which runs
only the course's own code) restore the interpreter after each run instead.

`run(code)` is the Run button: it reports what the code printed or raised.
`collect(code, probe, inputs)` is the first half of a Check: it runs the code,
then the probe on every case, and reports the raw outputs. The second half,
`grader.compare.verdict`, happens where learner code cannot reach.

A report is a plain dict (JSON-ready):

    status     ran | blank | syntax | error | timeout | stopped
    outputs    one entry per case (see runner.probes), when status is "ran"
    summary    one sentence for the statuses other than "ran"
    stdout     what the code printed (capped), stdout_truncated
    error      {type, message, line, traceback} in the learner's own line numbers, or None
"""

import io
import signal
import sys
import threading
import tokenize

from . import probes
from .facts import BLANK, TIMEOUT_SUMMARY
from .sandbox import CappedOutput, fresh_namespace, new_restore
from .text import LEARNER_FILE, describe_exception, describe_syntax_error


class RunTimeout(BaseException):
    """The time limit ran out (CPython only; the browser's watchdog does this there)."""


class TimeLimit:
    """SIGALRM-based limit where the platform has it; a no-op elsewhere (Pyodide).
    A convenience only: the CLI's parent process enforces the real limit."""

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


def find_blank(code):
    """Line number of the first ____ blank left in the code, or None."""
    if BLANK not in code:
        return None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.NAME and tok.string == BLANK:
                return tok.start[0]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return None


def _report(status, output=None, error=None, summary="", outputs=None):
    report = {"status": status, "summary": summary,
              "stdout": output.getvalue() if output else "",
              "stdout_truncated": bool(output and output.truncated), "error": error}
    if outputs is not None:
        report["outputs"] = outputs
    return report


def prepare(code):
    """The blank and syntax checks: (compiled code, None) or (None, report)."""
    line = find_blank(code)
    if line is not None:
        return None, _report("blank", summary=f"Fill in the blank {BLANK} on line {line} first.",
                             error={"type": "Blank", "message": "blank left", "line": line, "traceback": ""})
    try:
        return compile(code, LEARNER_FILE, "exec", dont_inherit=True), None
    except (SyntaxError, ValueError) as e:
        if not isinstance(e, SyntaxError):
            e = SyntaxError(str(e))
        error = describe_syntax_error(e, code)
        return None, _report("syntax", error=error,
                             summary=f"Python could not read line {error['line']}: {error['message']}.")


def _stopped(exc, output):
    if issubclass(type(exc), RunTimeout):
        return _report("timeout", output=output,
                       summary=TIMEOUT_SUMMARY)
    return _report("stopped", output=output, summary="Stopped.")


def _guarded(fn, output, seconds, undo, restore=True):
    """Call fn() with output captured and a time limit; then restore the interpreter
    with `undo` (made before the run began), unless more of the same run follows.
    Returns the exception it raised, or None."""
    try:
        sys.stdout = sys.stderr = output
        sys.stdin = io.StringIO("")
        with TimeLimit(seconds):
            fn()
    except BaseException as e:  # noqa: BLE001 - everything the learner raises is reported
        undo()
        return e
    finally:
        sys.stdout, sys.stderr, sys.stdin = undo.streams
    if restore:
        undo()
    return None


def _error_report(exc, output, code, checking=True):
    """What stopped the code. Only a Check (`checking`) had checks to run: a Run that
    raises says what it raised, nothing about checks."""
    # issubclass of the real type: isinstance() would also ask the learner's __class__
    if issubclass(type(exc), (RunTimeout, KeyboardInterrupt)):
        return _stopped(exc, output)
    error = describe_exception(exc, code)
    then = ", so the checks could not run." if checking else "."
    if issubclass(type(exc), SystemExit):
        error["message"] = "exit() ended your program early"
        return _report("error", output=output, error=error, summary=f"Your code called exit(){then}")
    if issubclass(type(exc), EOFError):
        error["message"] = "input() has nothing to read here"
    where = f" on line {error['line']}" if error["line"] else ""
    return _report("error", output=output, error=error, summary=f"Your code raised {error['type']}{where}{then}")


class Discarded:
    """The restore of an interpreter that is thrown away after the run (the browser's):
    nothing to put back, so nothing is captured. Only the streams are swapped back."""

    def __init__(self):
        self.streams = (sys.stdout, sys.stderr, sys.stdin)

    def __call__(self):
        pass


def _undo(restore):
    return new_restore() if restore else Discarded()


def run(code, timeout_seconds=10.0, restore=True):
    """The Run button: run the code, report what it printed or raised. `restore=False`
    where the interpreter is discarded after this run (the browser: runner.api)."""
    compiled, early = prepare(code)
    if early:
        return early
    output = CappedOutput()
    exc = _guarded(lambda: exec(compiled, fresh_namespace()), output, timeout_seconds, _undo(restore))
    if exc is not None:
        return _error_report(exc, output, code, checking=False)
    return _report("ok", output=output, summary="No errors.")


def collect(code, probe, inputs, timeout_seconds=10.0, restore=True):
    """A Check's first half: run the code, then the probe on every case."""
    compiled, early = prepare(code)
    if early:
        return early
    output = CappedOutput()
    namespace = fresh_namespace()
    undo = _undo(restore)
    exc = _guarded(lambda: exec(compiled, namespace), output, timeout_seconds, undo, restore=False)
    if exc is not None:
        return _error_report(exc, output, code)
    results = []
    quiet = CappedOutput(limit=0)  # what the code prints while the cases run is not shown
    exc = _guarded(lambda: results.extend(probes.run_cases(namespace, probe, inputs, code)),
                   quiet, timeout_seconds, undo)
    if exc is not None:
        return _error_report(exc, output, code)
    return _report("ran", output=output, outputs=results)
