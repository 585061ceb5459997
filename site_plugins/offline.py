"""The offline service worker: precache every file of the built site.

Pages are listed as their folder URL ("autograd/", not "autograd/index.html"),
the way Material links and navigates to them.
"""

import hashlib
import json

SKIP = {"sw.js", "_headers", "sitemap.xml", "sitemap.xml.gz", "404.html"}


def precache_list(site):
    paths = []
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        rel = path.relative_to(site).as_posix()
        if rel in SKIP or rel.endswith((".map", ".LEGAL.txt")) or "/fonts/" in rel and not rel.endswith(".woff2"):
            continue
        if rel.endswith("index.html"):
            rel = rel[: -len("index.html")] or "./"
        paths.append(rel)
    return paths


def write_service_worker(site, template):
    paths = precache_list(site)
    digest = hashlib.sha256()
    for rel in paths:
        file = site / (rel + "index.html" if rel.endswith("/") or rel == "./" else rel)
        file = site / "index.html" if rel == "./" else file
        digest.update(rel.encode())
        digest.update(file.read_bytes())
    source = template.read_text()
    source = source.replace("__VERSION__", digest.hexdigest()[:12]).replace("__PRECACHE__", json.dumps(paths))
    (site / "sw.js").write_text(source)
    return paths
