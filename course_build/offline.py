"""The offline service worker: precache every file of the built site.

Pages are listed as their folder URL ("autograd/", not "autograd/index.html"),
the way Material links and navigates to them. Each is listed with the SHA-256 of
its bytes: the service worker serves a cached copy only if it still has them
(Cache Storage is writable by any script of the origin). The site's
Content-Security-Policy (the header the build writes into `_headers`) goes in too:
the worker adds it to what it serves from the cache where the host sent none.
The `.br` / `.gz` copies of course_build/precompress.py are not precached: they are
the same files, sent compressed by a host that serves them, and decoded by the browser
before the worker sees (and hashes) them. The memory snapshot is the one exception: its
gzip file is precached in place of its body (6 MB, not 15), and is what the Python
worker of a page this worker controls asks for (course_browser/snapshot-fetch.mjs).
"""

import hashlib
import json

from .precompress import is_copy

SKIP = {"sw.js", "_headers", "sitemap.xml", "sitemap.xml.gz", "404.html"}


def precache_list(site):
    paths = []
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if rel in SKIP or rel.endswith((".map", ".LEGAL.txt")) or "/fonts/" in rel and not rel.endswith(".woff2") \
                or is_copy(path):
            continue
        if rel.endswith(".snapshot"):
            rel += ".gz"
        if rel.endswith("index.html"):
            rel = rel[: -len("index.html")] or "./"
        paths.append(rel)
    return paths


def _file(site, rel):
    if rel == "./":
        return site / "index.html"
    return site / (rel + "index.html" if rel.endswith("/") else rel)


def write_service_worker(site, template, policy):
    """Write sw.js from `template`: its version, the hash of every precached file, and `policy`."""
    paths = precache_list(site)
    digest = hashlib.sha256()
    hashes = {}
    for rel in paths:
        data = _file(site, rel).read_bytes()
        digest.update(rel.encode())
        digest.update(data)
        hashes[rel] = hashlib.sha256(data).hexdigest()
    source = template.read_text()
    source = (source.replace("__VERSION__", digest.hexdigest()[:12])
              .replace("__HASHES__", json.dumps(hashes, indent=0))
              .replace("__CSP__", json.dumps(policy)))
    (site / "sw.js").write_text(source)
    return paths
