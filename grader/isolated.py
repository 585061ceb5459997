"""Run learner code in a child process that can't change the checkout or outlive the grade.

The child is Pyodide under Node (runner/child.mjs): the browser's own sandbox and
the browser's Python version. It is started with Node's permission model, allowed
to read only the Pyodide package and its own scripts (no file writes, no child
processes, no workers), so Python's files live in memory and the checkout is not
in them. It gets the runner package, the files the exercise gives
(grader/gives.py), the code and the cases' inputs; never an expected output. It
runs in a process group of its own, killed whole when the grade ends or its time
runs out, so nothing it starts survives the grade.

Whatever the child does (exit early, print a fake report, never return), the
parent only reads its outputs and compares them itself (grader.compare).
"""

import json
import os
import selectors
import shutil
import signal
import subprocess
import threading
import time
from functools import cache
from pathlib import Path

from runner.facts import TIMEOUT_SUMMARY

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "runner"
CHILD = RUNNER / "child.mjs"
SCRIPTS = (CHILD, ROOT / "course_browser" / "interpreter.mjs", ROOT / "course_browser" / "snapshot-format.mjs")
PYODIDE = ROOT / "node_modules" / "pyodide"
GRACE_SECONDS = 2.0
BOOT_SECONDS = 120.0  # Pyodide's own start, before the learner's clock starts (slow on a loaded machine)
STDOUT_LIMIT = 4 * 1024 * 1024  # a report is capped well below this (runner.text, runner.sandbox)
STDERR_KEPT = 2000


class NodeMissing(RuntimeError):
    """The CLI grades in Pyodide under Node; `make setup` installs both."""


def _stopped(summary, status="timeout"):
    return {"status": status, "summary": summary, "stdout": "", "stdout_truncated": False, "error": None}


def _ended_early(returncode, stderr):
    return {"status": "error", "stdout": "", "stdout_truncated": False,
            "summary": f"Python stopped before the checks could finish (exit code {returncode}): "
                       "does your code end the program?",
            "error": {"type": "Exit", "message": "the program ended early", "line": None,
                      "traceback": stderr[-STDERR_KEPT:]}}


@cache
def _runner_files():
    from course_build.packaging import runner_bundle

    return runner_bundle(RUNNER)


@cache
def _snapshot():
    """The build's memory snapshot of the runner (gzip bytes, cached by content in
    build/snapshot/ and made once when missing); None when it can't be had: the child
    then boots normally. Read as it is: the child's Pyodide refuses another build's."""
    from course_build.snapshot import CACHE, SnapshotError, cache_key, make_snapshot

    try:
        cached = CACHE / f"{cache_key(PYODIDE, _runner_files())}.gz"
        return cached.read_bytes() if cached.is_file() else make_snapshot(PYODIDE, _runner_files()).gz
    except (SnapshotError, OSError, ValueError):
        return None


def _command(node):
    """The child's command line. `--liftoff-only`: a grade is one short run in a process
    that then ends, and V8's optimising tier would compile Pyodide's hot functions a
    second time in the background for a run that is over before the code pays back; it
    halves a grade's CPU (1.75 to 0.97 s, benchmarks/README.md)."""
    pyodide = PYODIDE.resolve()
    reads = [f"--allow-fs-read={pyodide}/*", *(f"--allow-fs-read={s}" for s in SCRIPTS)]
    return [node, "--liftoff-only", "--experimental-permission", *reads, "--no-warnings", str(CHILD), str(pyodide)]


def _node():
    node = shutil.which("node")
    if not node or not (PYODIDE / "pyodide.mjs").is_file():
        raise NodeMissing("grading needs Node.js and the npm Pyodide package (node_modules/pyodide): "
                          "run `make setup`")
    return node


def _kill(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _read(process, timeout_seconds):
    """(stdout, stderr, how it ended: "exit", "boot" or "timeout"): read until the child
    ends or runs out of time; the learner's clock starts at its "ready" line, and
    output past STDOUT_LIMIT ends it."""
    out, err = bytearray(), bytearray()
    streams = {process.stdout.fileno(): out, process.stderr.fileno(): err}
    with selectors.DefaultSelector() as selector:
        for fd in streams:
            selector.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + BOOT_SECONDS
        ready = False
        while streams:
            left = deadline - time.monotonic()
            if left <= 0:
                return out, err, "timeout" if ready else "boot"
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    selector.unregister(key.fd)
                    del streams[key.fd]
                    continue
                streams[key.fd].extend(chunk)
                if len(out) > STDOUT_LIMIT:
                    return out, err, "exit"
                if not ready and b"\n" in out:
                    ready = True
                    deadline = time.monotonic() + timeout_seconds + GRACE_SECONDS
            del err[:-STDERR_KEPT]
    return out, err, "exit"


def _report(out):
    lines = out.decode("utf-8", "replace").rstrip("\n").split("\n")
    if len(lines) < 2:
        return None
    try:
        report = json.loads(lines[-1])
    except ValueError:
        return None
    return report if type(report) is dict and "status" in report else None


def collect_isolated(code, probe, inputs, timeout_seconds, given=None):
    """The child's report on the learner's code, or a report of how it ended."""
    node = _node()
    request = json.dumps({"files": json.loads(_runner_files()), "given": given or {}, "code": code,
                          "probe": probe, "inputs": inputs, "timeout": timeout_seconds}).encode()
    snapshot = _snapshot()
    process = subprocess.Popen(_command(node), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT, start_new_session=True,
                               env={"PATH": os.environ.get("PATH", ""), "TZ": "UTC"})
    feeder = threading.Thread(target=_feed, args=(process.stdin, request + b"\n" + (snapshot or b"")),
                              daemon=True)
    feeder.start()
    try:
        out, err, ended = _read(process, timeout_seconds)
    finally:
        _kill(process)  # the whole group, whatever it left behind
        feeder.join()
        process.stdout.close()
        process.stderr.close()
    if ended == "boot":
        return _stopped("Python did not start in time to grade your code: try again.", status="error")
    if ended == "timeout":
        return _stopped(TIMEOUT_SUMMARY)
    return _report(out) or _ended_early(process.returncode, err.decode("utf-8", "replace"))


def _feed(pipe, data):
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError):
        pass
