"""Fixtures shared by every test folder: the course built once per test run."""

import fcntl
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.site_server import build_site  # noqa: E402


def pytest_collection_modifyitems(items):
    """`slow` (left out of `make test-fast`): what needs the full build (a minute) or Pyodide;
    tests/e2e marks its own tests, and a file marks what else is slow (every mutant). A
    portable module, which Pyodide runs without pytest, names its slow tests in SLOW."""
    for item in items:
        slow_here = getattr(item.module, "SLOW", ()) if isinstance(item, pytest.Function) else ()
        if "built_site" in item.fixturenames or item.get_closest_marker("pyodide") or item.originalname in slow_here:
            item.add_marker(pytest.mark.slow)


def _run_folder(tmp_path_factory):
    """The temporary folder of this whole run: pytest-xdist gives each worker its own
    basetemp inside it; without xdist, basetemp is the run's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The course built once per run (a build takes about a minute), shared by every test and
    every xdist worker: the first to ask builds under a lock, the others wait and reuse it.
    Read only: a test that changes files serves a copy (see tests/e2e/test_offline.py)."""
    folder = _run_folder(tmp_path_factory)
    target, done = folder / "built-site", folder / "built-site.done"
    with open(folder / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            build_site(target)
            done.touch()
    return target
