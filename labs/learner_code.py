"""Running the learner's saved code in the lab interpreter, as a Run runs it.

The capstone builds an engine from the learner's code and trains with it beside the
reference. Its output is captured and dropped, a loop is stopped after a while, and
nothing is restored afterwards: the page throws the lab interpreter away after every
such call (a lab declares `runs_learner_code`, course_browser/python.js acts on it),
so that code reaches no later lab.
"""

from runner import execute
from runner.sandbox import CappedOutput
from runner.text import describe_exception


def run_on_learner_code(work, codes, timeout_seconds=20.0):
    """`work(codes)` (a dict), or the page's message when the learner's code raised or
    ran too long. `codes`: the learner's saved code, by piece."""
    if not isinstance(codes, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in codes.items()):
        raise ValueError("the capstone needs the learner's code by exercise")
    result = {}
    exc = execute._guarded(lambda: result.update(work(codes)), CappedOutput(limit=0), timeout_seconds,
                           execute.Discarded())
    if exc is not None:
        if isinstance(exc, (execute.RunTimeout, KeyboardInterrupt)):
            return {"error": "Your engine ran too long and was stopped."}
        error = describe_exception(exc, "")
        return {"error": f"Your engine raised {error['type']}: {error['message']}"}
    return result
