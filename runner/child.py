"""`python -m runner.child`: the CLI's sandbox process. It reads {code, probe,
inputs, timeout} as JSON on stdin, runs the learner's code and the probe, and
writes the report as the last line of stdout. It never sees expected outputs;
the parent process compares, decides the verdict and sets the exit code, and
kills this process when it runs past its time limit.
"""

import json
import os
import sys


def main():
    request = json.loads(sys.stdin.read())
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    from runner.execute import collect

    report = collect(request["code"], request["probe"], request["inputs"], request["timeout"])
    out.write("\n" + json.dumps(report) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
