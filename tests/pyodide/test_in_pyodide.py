"""Run the portable test modules inside Pyodide (Python 3.14) under Node.

Proves the engine and the grader work in the browser's interpreter, not just in
CPython. Each portable test becomes one pytest item here.
"""

import importlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = ["tests.portable.test_engine_portable", "tests.portable.test_grading_portable",
           "tests.portable.test_attacks_portable"]


def _test_names():
    names = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        names += [f"{module_name}::{n}" for n in sorted(dir(module)) if n.startswith("test_")]
    return names


@pytest.fixture(scope="module")
def pyodide_results():
    if not (ROOT / "node_modules" / "pyodide").exists() or not shutil.which("node"):
        pytest.fail("node and node_modules/pyodide are required: run `npm ci`")
    proc = subprocess.run(["node", "tests/pyodide/run_tests.mjs", *MODULES], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["python"].startswith("3.14"), report["python"]
    return {r["name"]: r for r in report["results"]}


@pytest.mark.pyodide
@pytest.mark.parametrize("name", _test_names())
def test_in_pyodide(pyodide_results, name):
    assert name in pyodide_results, f"{name} did not run in Pyodide"
    result = pyodide_results[name]
    assert result["ok"], result["error"]
