"""Every test file under tests/ is collected by a bare `pytest`.

pytest's default `norecursedirs` skips folders named `build` (and others), so a
test folder can silently never run; this compares the files on disk with the
files `pytest --collect-only` reports.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # collects the whole suite in a new process
def test_every_test_file_under_tests_is_collected():
    on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")
               if "__pycache__" not in p.parts}
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    collected = {line.split("::", 1)[0] for line in result.stdout.splitlines() if "::" in line}
    missing = sorted(on_disk - collected)
    assert not missing, f"test files pytest does not collect (check norecursedirs/testpaths): {missing}"


def test_every_benchmark_and_tool_script_imports():
    """No test runs the benchmarks or the tools end to end; importing each one in a fresh
    interpreter at least catches a name moved away from under it (a helper of tests/e2e)."""
    scripts = sorted(p for folder in ("benchmarks", "tools") for p in (ROOT / folder).glob("*.py")
                     if p.name != "__init__.py")
    assert scripts
    for script in scripts:
        module = f"{script.parent.name}.{script.stem}"
        result = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, '.'); import {module}"],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{module}: {result.stderr[-1500:]}"
