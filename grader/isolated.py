"""Run learner code in a child process, with the time limit enforced from outside.

The CLI's half of "verdicts out of the learner's reach": whatever the child does
(`os._exit(0)`, an `atexit` handler, disarming its own alarm, printing a fake
report), the parent only reads its outputs, compares them itself, and kills it
when time runs out.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRACE_SECONDS = 2.0


def _stopped(summary, status="timeout"):
    return {"status": status, "summary": summary, "stdout": "", "stdout_truncated": False, "error": None}


def collect_isolated(code, probe, inputs, timeout_seconds):
    """The child's report on the learner's code, or a report of how it ended."""
    request = json.dumps({"code": code, "probe": probe, "inputs": inputs, "timeout": timeout_seconds})
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run([sys.executable, "-m", "runner.child"], input=request, capture_output=True,
                              text=True, timeout=timeout_seconds + GRACE_SECONDS, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return _stopped("Your code ran too long and was stopped. Look for a loop that never ends.")
    last = done.stdout.rstrip("\n").rsplit("\n", 1)[-1] if done.stdout.strip() else ""
    try:
        report = json.loads(last)
    except ValueError:
        report = None
    if type(report) is not dict:
        return {"status": "error", "stdout": "", "stdout_truncated": False,
                "summary": f"Python stopped before the checks could finish (exit code {done.returncode}): "
                           "does your code end the program?",
                "error": {"type": "Exit", "message": "the program ended early", "line": None,
                          "traceback": done.stderr[-2000:]}}
    return report
