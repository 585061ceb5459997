"""The browser runs Pyodide's Python; the CLI should accept the same language."""

import sys

# Pyodide 314 ships Python 3.14 (pyodide-lock.json, "python"); tests/portable checks the pin.
BROWSER_PYTHON = (3, 14)


def python_version_note():
    if sys.version_info[:2] < BROWSER_PYTHON:
        return (f"note: this is Python {sys.version_info[0]}.{sys.version_info[1]}; the browser runs "
                f"Python {BROWSER_PYTHON[0]}.{BROWSER_PYTHON[1]}, so code using newer syntax may pass "
                "there and fail here.")
    return ""
