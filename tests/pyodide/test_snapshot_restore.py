"""The build-time memory snapshot (course_build/snapshot.py) restored in Node's Pyodide.

Part of how Pyodide's private snapshot API is verified for the pinned version: the
snapshot holds the course already imported, and a restored interpreter boots the way
the worker boots it (tests/pyodide/restore_snapshot.mjs mirrors worker.js), with
nothing of the build machine in it. The browser's side: tests/e2e/test_snapshot.py."""

import json
import subprocess
from pathlib import Path

import pytest

import runner
from course_build.packaging import runner_bundle
from course_build.snapshot import EMPTY_ZIP, VERIFIED_PYODIDE, make_snapshot, pyodide_version

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"


@pytest.fixture(scope="module")
def restored(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("snapshot")
    files = runner_bundle(Path(runner.__file__).parent)
    snapshot = make_snapshot(PYODIDE, files)
    (tmp / "snapshot.gz").write_bytes(snapshot.gz)
    (tmp / "course.json").write_bytes(files)
    (tmp / "empty.zip").write_bytes(EMPTY_ZIP)
    proc = subprocess.run(["node", "tests/pyodide/restore_snapshot.mjs", *(str(tmp / name) for name in
                                                                          ("snapshot.gz", "course.json", "empty.zip"))],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.pyodide
def test_the_pinned_pyodide_is_the_verified_one():
    assert pyodide_version(PYODIDE) == VERIFIED_PYODIDE


@pytest.mark.pyodide
def test_the_snapshot_holds_the_runner_and_no_engine(restored):
    assert restored["before"]["course_imported"]
    assert restored["before"]["engine_loaded"] == []
    assert restored["reference"]["error"]["type"] == "ModuleNotFoundError", restored["reference"]["error"]


@pytest.mark.pyodide
def test_a_restored_interpreter_is_set_up_like_a_normal_boot(restored):
    after = restored["after"]
    assert after["path"][:2] == ["/home/pyodide/course", ""] and "" not in after["path"][2:]
    assert after["executable"] == "/home/pyodide/this.program"  # not the build script's path
    assert after["underscore"] == "./this.program"
    assert all(name.startswith("UTC") for name in after["tzname"])  # made with TZ=UTC, whatever the machine
    # the build held malloc to its footprint while it zeroed the free memory; not after
    assert after["allocated"] == 64 << 20


@pytest.mark.pyodide
def test_a_restored_interpreter_runs_learner_code_with_tracebacks(restored):
    run = restored["run"]
    assert run["stdout"] == "6.0\n", run
    assert "ZeroDivisionError" in json.dumps(run), run


@pytest.mark.pyodide
def test_the_standard_library_is_fetched_only_for_a_module_the_snapshot_lacks(restored):
    stdlib = restored["stdlib"]
    assert not restored["before"]["statistics_loaded"]
    assert stdlib["fetchedBefore"] == 0  # the boot, a run and a traceback read nothing of the zip
    assert stdlib["fetchedAfter"] == 1, stdlib
    assert stdlib["imported"]["stdout"] == "2\n", stdlib
