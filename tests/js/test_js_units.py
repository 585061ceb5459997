"""Run the runtime's JavaScript unit tests with Node's built-in test runner."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_runtime_units_pass_under_node():
    assert shutil.which("node"), "node is required"
    result = subprocess.run(["node", "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
