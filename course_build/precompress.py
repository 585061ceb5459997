"""Brotli (`.br`) and gzip (`.gz`) copies next to the built site's compressible files.

A host that serves precompressed files (nginx `gzip_static` / `brotli_static`,
Caddy `file_server { precompressed br gzip }`) then sends Pyodide's 9.6 MB wasm
as 2.8 MB, at a quality no on-the-fly compressor affords, without compressing on
each request. Netlify and Cloudflare Pages compress by themselves and leave the
copies unused.

Each copy decodes to exactly the bytes of its file, so the service worker's
hashes hold whichever the host sends; the copies themselves are never precached
(see `is_copy`). A copy is kept only where it is at least 5 % smaller: not the
standard library zip (deflated entry by entry: brotli saves 2 %) nor woff2 fonts.

Every copy is Brotli's best quality (11): the wasm and the memory snapshot, which
every first visit sends, are 0.26 MB smaller than at quality 10 (the snapshot with
WINDOW's larger window), for about 25 s more of one core each on a fresh build.
The site is built several times per test run, so outputs are cached by content
hash in `.cache/precompressed/` (git-ignored): a rebuild whose files did not change
compresses nothing, and files are compressed on every core at once (brotli
releases the GIL).
"""

import gzip
import hashlib
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli

CACHE = Path(__file__).resolve().parent.parent / ".cache" / "precompressed"
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".txt", ".xml", ".map",
                ".ttf", ".otf", ".eot", ".woff", ".ico", ".webmanifest", ".zip", ".snapshot"}
SKIP = {"sitemap.xml"}  # MkDocs writes its own sitemap.xml.gz
ENCODINGS = ("br", "gz")
KEEP_BELOW = 0.95  # a copy at least 5 % smaller than its file, or none
MIN_SIZE = 256  # below this a copy saves less than a request's headers
# Brotli's window (log2 of bytes) by suffix, where the largest pays: the snapshot is 3.53 MB
# at 24 against 3.56 at the default 22; the wasm does worse at 24 (2.77 against 2.74 MB)
WINDOW = {".snapshot": 24}
PRUNE_AFTER_S = 30 * 86400  # cache entries unused this long are dropped


def is_copy(path):
    """Whether `path` is a precompressed copy of a file beside it."""
    path = Path(path)
    return path.suffix in (".br", ".gz") and path.with_suffix("").is_file()


def _recipe(encoding, suffix):
    """How a copy of a `*suffix` file is made: the name its cache entry carries, and the
    compressor's settings."""
    if encoding == "br":
        window = WINDOW.get(suffix, 22)
        return f"br11w{window}", {"quality": 11, "lgwin": window}
    return "gz9", {"compresslevel": 9, "mtime": 0}


def _compress(data, encoding, settings):
    return brotli.compress(data, **settings) if encoding == "br" else gzip.compress(data, **settings)


def _worth_trying(data):
    """A fast brotli pass on the first MB: already-compressed data (a deflated zip,
    a woff font) stops here, before the slow best-quality pass."""
    sample = data[: 1 << 20]
    return len(brotli.compress(sample, quality=1)) < KEEP_BELOW * len(sample)


def _cached(cache, data, digest, encoding, suffix):
    """The copy's bytes, and the seconds spent compressing them (None: from the cache)."""
    made, settings = _recipe(encoding, suffix)
    entry = cache / f"{digest}.{made}"
    if entry.is_file():
        os.utime(entry)  # still in use: spared by the pruning
        return entry.read_bytes(), None
    started = time.perf_counter()
    out = _compress(data, encoding, settings)
    seconds = time.perf_counter() - started
    cache.mkdir(parents=True, exist_ok=True)
    # write then rename: builds running side by side never read half an entry
    fd, tmp = tempfile.mkstemp(dir=cache, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(out)
    os.replace(tmp, entry)
    return out, seconds


def copy_of(data, encoding, suffix, cache=CACHE):
    """The bytes of the `encoding` copy of `data`, a file named `*suffix`, exactly as
    precompress() writes them (and from the same cache): the build ships the memory
    snapshot's gzip copy under a hash it must know before precompress() runs
    (course_build/snapshot.py)."""
    return _cached(Path(cache), data, hashlib.sha256(data).hexdigest(), encoding, suffix)[0]


def _prune(cache):
    limit = time.time() - PRUNE_AFTER_S
    for entry in cache.glob("*") if cache.is_dir() else []:
        try:
            if entry.stat().st_mtime < limit:
                entry.unlink()
        except FileNotFoundError:  # another build pruned it first
            pass


def _copies(path, cache):
    """(path, {encoding: (copy bytes or None, seconds or None)}, size) for one file."""
    data = path.read_bytes()
    worth = len(data) >= MIN_SIZE and _worth_trying(data)
    digest = hashlib.sha256(data).hexdigest() if worth else None
    return path, {encoding: _cached(cache, data, digest, encoding, path.suffix) if worth
                  else (None, None) for encoding in ENCODINGS}, len(data)


def precompress(site, cache=CACHE):
    """Write `X.br` and `X.gz` beside each compressible file X of `site` where they pay,
    and remove a copy that no longer does. Returns counts and sizes, for the build log."""
    site, cache = Path(site), Path(cache)
    stats = {"files": 0, "raw": 0, "br": 0, "gz": 0, "compressed": 0, "compress_s": 0.0}
    paths = sorted(p for p in site.rglob("*") if p.is_file() and p.suffix in COMPRESSIBLE and p.name not in SKIP)
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        done = list(pool.map(lambda path: _copies(path, cache), paths))
    for path, copies, size in done:
        kept = {}
        for encoding, (out, seconds) in copies.items():
            if seconds is not None:
                stats["compress_s"] += seconds
                stats["compressed"] += 1
            copy = path.with_name(f"{path.name}.{encoding}")
            if out is not None and len(out) <= KEEP_BELOW * size:
                copy.write_bytes(out)
                kept[encoding] = len(out)
            elif copy.is_file():
                copy.unlink()  # left by an earlier build into the same folder
        if kept:
            stats["files"] += 1
            stats["raw"] += size
            for encoding in ENCODINGS:
                stats[encoding] += kept.get(encoding, size)
    _prune(cache)
    return stats


# Appended to `_headers`: the one file a deployer reads, whichever host they use.
HEADERS_NOTE = """
# Precompressed copies: beside each compressible file X of this site are X.br
# and X.gz, which decode to the same bytes (made at build time, Brotli quality 11,
# gzip level 9). Netlify and Cloudflare Pages compress by
# themselves and leave them unused. A server that sends them in place of X, with
# Content-Encoding and Vary: Accept-Encoding, sends a first visit in 60 % fewer
# bytes (Pyodide's wasm: 9.6 MB as 2.8 MB), with no compression work per request:
#   nginx:  brotli_static on; gzip_static on;   (brotli_static: the ngx_brotli module)
#   Caddy:  file_server { precompressed br gzip }
"""
