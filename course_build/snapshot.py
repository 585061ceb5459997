"""The build-time memory snapshot of the browser's Python (see course_browser/snapshot.mjs).

Made in Node with the npm Pyodide the site ships, once per (Pyodide build, course
files, snapshot scripts): the result is cached in `build/snapshot/`, so a rebuild that
changes no Python costs nothing. It runs in a thread while MkDocs renders the pages.

The page learns the file's name and SHA-256 from the build (the `course-runtime`
meta tag); the worker restores only bytes with that hash, so nothing written at run
time can change what a later boot loads, and falls back to a normal boot when the
file is missing, altered or refused by Pyodide (tests/e2e/test_snapshot.py).

Pyodide's snapshot options are private (`_makeSnapshot`, `makeMemorySnapshot()`,
`_loadSnapshot`, tagged `@ignore`/`@private` in pyodide.ts). VERIFIED_PYODIDE is the
version they were checked against: the source of src/js/snapshot.ts and
src/js/api.ts (`finalizeBootstrap`) read at the 314.0.x tags, the restored
interpreter's state compared with a normal boot's (modules, sys.path, os.environ,
sys.executable), and the e2e tests run in Chromium. The worker also relies on the
order of loadPyodide's steps (course_browser/snapshot-fetch.mjs): it reads
`_loadSnapshot` before instantiating the wasm, runs the public `fsInit` hook among
the runtime's pre-run steps after instantiating, and copies the memory in only
after them (pyodide.mjs `prepareSnapshot`, pyodide.asm.mjs `createWasm(); run()`,
read at 314.0.7). Pyodide itself refuses a
snapshot from another build (its header carries the build id of pyodide.asm.*).
Another version builds with a warning (so `mkdocs build --strict` stops) until it
has been checked the same way and VERIFIED_PYODIDE updated.
"""

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import precompress

VERIFIED_PYODIDE = "314.0.7"
ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [ROOT / "course_browser" / name for name in ("snapshot.mjs", "interpreter.mjs", "snapshot-format.mjs")]
# what the snapshot depends on: the zip is in it too, as the table of contents that its
# zip importer read (course_browser/stdlib.mjs relies on that table matching the zip served)
PYODIDE_BUILD = ("pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json")
CACHE = ROOT / "build" / "snapshot"
# A zip with no entries, 22 bytes: what a snapshot boot gives Pyodide in place of the
# standard library's 2.5 MB (course_browser/stdlib.mjs). Named by its hash, as every
# file under assets/course is.
EMPTY_ZIP = b"PK\x05\x06" + bytes(18)
EMPTY_ZIP_NAME = f"empty.{hashlib.sha256(EMPTY_ZIP).hexdigest()[:12]}.zip"


class SnapshotError(Exception):
    pass


@dataclass(frozen=True)
class Snapshot:
    """The snapshot ships as two files. `python.<hash>.snapshot` is its body, which a host
    that compresses on the way sends as Brotli (2.5 MB, from precompress's `.br` copy)
    or gzip; `python.<hash>.snapshot.gz` is that body gzipped (3.6 MB), precompress's own
    `.gz` copy, which the worker inflates itself where the host sends the body as it is
    (course_browser/snapshot-fetch.mjs)."""

    body: bytes  # the memory, packed (course_browser/snapshot-format.mjs)
    gz: bytes  # the body gzipped, byte for byte precompress's `.gz` copy of it
    sha256: str  # of `gz`
    body_sha256: str  # of `body`: what the worker hashes where the browser decoded the file
    size: int  # of the memory it restores: the worker lays it out before the first byte arrives

    @classmethod
    def of(cls, data):
        """The snapshot whose body is `data`, or `data` inflated if it is gzip."""
        body = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        gz = precompress.copy_of(body, "gz", ".snapshot")
        return cls(body, gz, hashlib.sha256(gz).hexdigest(), hashlib.sha256(body).hexdigest(), memory_size(body))

    @property
    def name(self):
        """The body's file name; the gzip file is this with `.gz` added."""
        return f"python.{self.body_sha256[:12]}.snapshot"

    def write(self, folder):
        (folder / self.name).write_bytes(self.body)
        (folder / f"{self.name}.gz").write_bytes(self.gz)
        (folder / EMPTY_ZIP_NAME).write_bytes(EMPTY_ZIP)

    def config(self):
        """What the page's runtime config says about it (course_browser/launch.js)."""
        return {"file": f"{self.name}.gz", "body": self.name, "sha256": self.sha256, "bodySha256": self.body_sha256,
                "size": self.size, "emptyZip": EMPTY_ZIP_NAME}


def cache_key(pyodide_dir, files_bytes):
    digest = hashlib.sha256()
    for path in [*(Path(pyodide_dir) / name for name in PYODIDE_BUILD), *SCRIPTS]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(b"course.json\0" + files_bytes)
    return digest.hexdigest()[:24]


def make_snapshot(pyodide_dir, files_bytes, cache=CACHE):
    """The snapshot for these course files (packaging.course_bundle), from the cache or
    made now (about 5 s of CPU)."""
    cached = Path(cache) / f"{cache_key(pyodide_dir, files_bytes)}.gz"
    try:
        data = cached.read_bytes()
    except FileNotFoundError:
        data = _run_node(pyodide_dir, files_bytes)
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{id(data)}.part")
        partial.write_bytes(data)
        partial.replace(cached)  # atomic: a build running alongside reads all or nothing
        for old in sorted(cached.parent.glob("*.gz"), key=lambda p: p.stat().st_mtime)[:-3]:
            old.unlink(missing_ok=True)  # a few courses' worth (branches, worktrees), no more
    return Snapshot.of(data)


def memory_size(body):
    """The size of the memory a snapshot body restores, from its header (snapshot-format.mjs)."""
    header_length = int.from_bytes(body[:4], "little")
    return json.loads(body[4:4 + header_length])["size"]


def _run_node(pyodide_dir, files_bytes):
    node = shutil.which("node")
    if not node:
        raise SnapshotError("node is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        files_path, out = Path(tmp) / "course.json", Path(tmp) / "snapshot.gz"
        files_path.write_bytes(files_bytes)
        proc = subprocess.run([node, str(SCRIPTS[0]), str(pyodide_dir), str(files_path), str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "TZ": "UTC"})  # time.tzname is the build's: the same on every machine
        if proc.returncode or not out.is_file():
            raise SnapshotError(f"node {SCRIPTS[0].name} failed: {proc.stderr.strip()[-2000:]}")
        return out.read_bytes()


def pyodide_version(pyodide_dir):
    return json.loads((Path(pyodide_dir) / "package.json").read_text())["version"]
