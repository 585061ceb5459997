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

Brotli's best quality (11) takes ~40 s on the wasm on a 2-core machine and the
site is built several times per test run, so outputs are cached by content hash
in `.cache/precompressed/` (git-ignored): a rebuild whose files did not change
compresses nothing. Files over 4 MB (the wasm) get quality 10: 16 s cold for
2 % more bytes (2.79 MB against 2.74 MB) than quality 11's 40 s.
"""

import gzip
import hashlib
import os
import tempfile
import time
from pathlib import Path

import brotli

CACHE = Path(__file__).resolve().parent.parent / ".cache" / "precompressed"
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".txt", ".xml", ".map",
                ".ttf", ".otf", ".eot", ".woff", ".ico", ".webmanifest", ".zip", ".snapshot"}
SKIP = {"sitemap.xml"}  # MkDocs writes its own sitemap.xml.gz
ENCODINGS = ("br", "gz")
KEEP_BELOW = 0.95  # a copy at least 5 % smaller than its file, or none
MIN_SIZE = 256  # below this a copy saves less than a request's headers
BIG = 4_000_000  # bytes: from here, brotli quality 10 instead of 11
PRUNE_AFTER_S = 30 * 86400  # cache entries unused this long are dropped


def is_copy(path):
    """Whether `path` is a precompressed copy of a file beside it."""
    path = Path(path)
    return path.suffix in (".br", ".gz") and path.with_suffix("").is_file()


def _quality(encoding, size):
    if encoding == "gz":
        return 9
    return 10 if size >= BIG else 11


def _compress(data, encoding, quality):
    if encoding == "br":
        return brotli.compress(data, quality=quality)
    return gzip.compress(data, compresslevel=quality, mtime=0)


def _worth_trying(data):
    """A fast brotli pass on the first MB: already-compressed data (a deflated zip,
    a woff font) stops here, before the slow best-quality pass."""
    sample = data[: 1 << 20]
    return len(brotli.compress(sample, quality=1)) < KEEP_BELOW * len(sample)


def _cached(cache, data, digest, encoding, quality, stats):
    entry = cache / f"{digest}.{encoding}{quality}"
    if entry.is_file():
        os.utime(entry)  # still in use: spared by the pruning
        return entry.read_bytes()
    started = time.perf_counter()
    out = _compress(data, encoding, quality)
    stats["compress_s"] += time.perf_counter() - started
    stats["compressed"] += 1
    cache.mkdir(parents=True, exist_ok=True)
    # write then rename: builds running side by side never read half an entry
    fd, tmp = tempfile.mkstemp(dir=cache, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(out)
    os.replace(tmp, entry)
    return out


def copy_of(data, encoding, cache=CACHE):
    """The bytes of `data`'s `encoding` copy, exactly as precompress() writes them (and from
    the same cache): the build ships the memory snapshot's gzip copy under a hash it must
    know before precompress() runs (course_build/snapshot.py)."""
    stats = {"compress_s": 0.0, "compressed": 0}
    return _cached(Path(cache), data, hashlib.sha256(data).hexdigest(), encoding, _quality(encoding, len(data)), stats)


def _prune(cache):
    limit = time.time() - PRUNE_AFTER_S
    for entry in cache.glob("*") if cache.is_dir() else []:
        try:
            if entry.stat().st_mtime < limit:
                entry.unlink()
        except FileNotFoundError:  # another build pruned it first
            pass


def precompress(site, cache=CACHE):
    """Write `X.br` and `X.gz` beside each compressible file X of `site` where they pay,
    and remove a copy that no longer does. Returns counts and sizes, for the build log."""
    site, cache = Path(site), Path(cache)
    stats = {"files": 0, "raw": 0, "br": 0, "gz": 0, "compressed": 0, "compress_s": 0.0}
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        if path.suffix not in COMPRESSIBLE or path.name in SKIP:
            continue
        data = path.read_bytes()
        worth = len(data) >= MIN_SIZE and _worth_trying(data)
        digest = hashlib.sha256(data).hexdigest() if worth else None
        kept = {}
        for encoding in ENCODINGS:
            out = _cached(cache, data, digest, encoding, _quality(encoding, len(data)), stats) if worth else None
            copy = path.with_name(f"{path.name}.{encoding}")
            if out is not None and len(out) <= KEEP_BELOW * len(data):
                copy.write_bytes(out)
                kept[encoding] = len(out)
            elif copy.is_file():
                copy.unlink()  # left by an earlier build into the same folder
        if kept:
            stats["files"] += 1
            stats["raw"] += len(data)
            for encoding in ENCODINGS:
                stats[encoding] += kept.get(encoding, len(data))
    _prune(cache)
    return stats

# Appended to `_headers`: the one file a deployer reads, whichever host they use.
HEADERS_NOTE = """
# Precompressed copies: beside each compressible file X of this site are X.br
# and X.gz, which decode to the same bytes (made at build time, Brotli quality 11,
# 10 for files over 4 MB; gzip level 9). Netlify and Cloudflare Pages compress by
# themselves and leave them unused. A server that sends them in place of X, with
# Content-Encoding and Vary: Accept-Encoding, sends a first visit in 60 % fewer
# bytes (Pyodide's wasm: 9.6 MB as 2.8 MB), with no compression work per request:
#   nginx:  brotli_static on; gzip_static on;   (brotli_static: the ngx_brotli module)
#   Caddy:  file_server { precompressed br gzip }
"""
