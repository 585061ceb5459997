"""What the browser's lab worker calls: `call(name, args_json)` -> JSON text.

The labs, the training level and the capstone need the reference engine, so they
run in an interpreter of their own, never in one that grades: a grading
interpreter holds only what its exercise gives (runner/api.py). The functions are
the ones each lab declares (`LABS`). The capstone runs the learner's saved code
here, beside the reference; the worker tells the page, once it is up and before
any call, which functions do (`DISCARD_AFTER`), and the page throws this
interpreter away after each of them, so that code reaches no later lab.
"""

import json

from . import LABS


def _table():
    table = {}
    for lab_name, lab in LABS.items():
        for name, fn in lab.worker.items():
            if name in table:
                raise ValueError(f"two labs expose a worker function {name!r} (the second: {lab_name})")
            table[name] = fn
    return table


API = _table()
DISCARD_AFTER = sorted(name for lab in LABS.values() if lab.runs_learner_code for name in lab.worker)


def call(name, args_json):
    if name not in API:
        raise ValueError(f"unknown worker function {name!r}")
    return json.dumps(API[name](*json.loads(args_json)))
