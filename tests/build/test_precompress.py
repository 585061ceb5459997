"""Precompressed copies (course_build/precompress.py): the build writes them, they decode
to the very bytes of their files, the service worker leaves them out, `_headers` says
how a host serves them, and the test server serves them when asked to."""

import gzip
import hashlib
import html
import json
import os
import re
import urllib.request
from pathlib import Path

import brotli
import pytest

from course_build.headers import header_rules
from course_build.offline import precache_list
from course_build.precompress import is_copy, precompress
from tools.site_server import accepted_encodings, serve

ROOT = Path(__file__).resolve().parents[2]
DECODE = {"br": brotli.decompress, "gz": gzip.decompress}


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


def test_big_files_have_copies_that_decode_to_the_same_bytes(site):
    (pyodide,) = (site / "assets/pyodide").iterdir()
    (course_js,) = (site / "assets/course").glob("course.*.js")
    for path in (pyodide / "pyodide.asm.wasm", pyodide / "pyodide.asm.mjs", pyodide / "pyodide-lock.json",
                 course_js, site / "autograd/index.html", site / "sw.js"):
        data = path.read_bytes()
        for encoding, decode in DECODE.items():
            copy = path.with_name(f"{path.name}.{encoding}")
            assert copy.is_file(), copy
            assert len(copy.read_bytes()) < 0.5 * len(data), copy
            assert decode(copy.read_bytes()) == data, copy
    wasm_br = (pyodide / "pyodide.asm.wasm.br").stat().st_size
    assert wasm_br < 3_000_000, wasm_br


def test_every_copy_decodes_to_its_file_and_saves_bytes(site):
    copies = [p for p in site.rglob("*") if is_copy(p) and p.name != "sitemap.xml.gz"]
    assert len(copies) > 100
    for copy in copies:
        original = copy.with_suffix("").read_bytes()
        assert DECODE[copy.suffix[1:]](copy.read_bytes()) == original, copy
        assert copy.stat().st_size <= 0.95 * len(original), copy


def test_incompressible_files_have_no_copy(site):
    """The standard library zip is deflated entry by entry, woff2 fonts are compressed: a
    copy would save under 5 %."""
    (stdlib,) = (site / "assets/pyodide").glob("*/python_stdlib.zip")
    woff2 = next(site.rglob("*.woff2"))
    for path in (stdlib, woff2):
        assert not path.with_name(path.name + ".br").exists() and not path.with_name(path.name + ".gz").exists(), path


def test_the_service_worker_precaches_no_copy_but_the_snapshots_gzip_file(site):
    """The memory snapshot's gzip copy (3.6 MB) is precached in place of its body (8.4 MB):
    it is what the Python worker of a page served offline asks for."""
    listed = precache_list(site)
    assert "sw.js" not in listed and any(p.endswith("pyodide.asm.wasm") for p in listed)
    (snapshot,) = [p for p in listed if ".snapshot" in p]
    assert snapshot.endswith(".snapshot.gz") and is_copy(site / snapshot)
    assert not [p for p in listed if is_copy(site / p) and p != snapshot]
    source = (site / "sw.js").read_text()
    hashes = json.loads(re.search(r"const HASHES = (\{.*?\});", source, re.S).group(1))
    assert set(hashes) == set(listed)
    copies = [p.relative_to(site).as_posix() for p in site.rglob("*") if is_copy(p)]
    assert len(copies) > 100 and set(copies) & set(hashes) == {snapshot}


def test_the_snapshots_gzip_file_is_the_one_its_page_vouches_for(site):
    """The page carries the hash of the gzip file and of the body; precompress, which runs
    after the pages are written, must leave the gzip file as the build hashed it."""
    meta = re.search(r'<meta name="course-runtime" content="([^"]*)"', (site / "autograd/index.html").read_text())
    config = json.loads(html.unescape(meta.group(1)))["snapshot"]
    folder = site / "assets/course"
    gz, body = (folder / config["file"]).read_bytes(), (folder / config["body"]).read_bytes()
    assert config["file"] == config["body"] + ".gz"
    assert hashlib.sha256(gz).hexdigest() == config["sha256"]
    assert hashlib.sha256(body).hexdigest() == config["bodySha256"] and gzip.decompress(gz) == body
    brotli_copy = (folder / (config["body"] + ".br")).read_bytes()
    assert brotli.decompress(brotli_copy) == body and len(brotli_copy) < 0.75 * len(gz)


def test_headers_say_how_a_host_serves_the_copies(site):
    text = (site / "_headers").read_text()
    note = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    for words in ("X.br", "X.gz", "brotli_static on", "gzip_static on", "precompressed br gzip",
                  "Netlify and Cloudflare Pages compress by", "Vary: Accept-Encoding"):
        assert words in note, words
    # the note is comments only: the rules read the same with or without it
    rules = header_rules(site)
    assert [pattern for pattern, _ in rules] == ["/*", "/assets/course/*", "/assets/pyodide/*"]
    for line in text.splitlines():
        assert not line or line.startswith(("#", "/", "  ")), line


def test_a_rebuild_compresses_nothing_and_stale_copies_go(tmp_path):
    site, cache = tmp_path / "site", tmp_path / "cache"
    site.mkdir()
    text = b"".join(b"line %d of a compressible page\n" % i for i in range(2000))
    (site / "page.html").write_bytes(text)
    (site / "tiny.js").write_bytes(b"let a = 1;\n")
    (site / "noise.json").write_bytes(os.urandom(20_000))
    first = precompress(site, cache)
    assert first["files"] == 1 and first["compressed"] == 2
    assert precompress(site, cache)["compressed"] == 0
    assert sorted(p.name for p in site.iterdir()) == ["noise.json", "page.html", "page.html.br", "page.html.gz",
                                                      "tiny.js"]
    (site / "page.html").write_bytes(os.urandom(20_000))  # now incompressible: its old copies must go
    precompress(site, cache)
    assert sorted(p.name for p in site.iterdir()) == ["noise.json", "page.html", "tiny.js"]


def test_accept_encoding_is_read_with_its_weights():
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted_encodings("br;q=0, GZIP;q=0.5") == {"gzip"}
    assert accepted_encodings("") == set()


def _get(url, accept=None, since=None):
    headers = {"Accept-Encoding": accept} if accept is not None else {}
    if since:
        headers["If-Modified-Since"] = since
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), b""


@pytest.fixture
def served(tmp_path):
    data = b"".join(b"console.log(%d);\n" % i for i in range(3000))
    (tmp_path / "app.js").write_bytes(data)
    (tmp_path / "app.js.br").write_bytes(brotli.compress(data))
    (tmp_path / "app.js.gz").write_bytes(gzip.compress(data, mtime=0))
    (tmp_path / "plain.txt").write_text("no copies")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.html").write_bytes(b"<p>hi</p>" * 500)
    (tmp_path / "docs/index.html.gz").write_bytes(gzip.compress(b"<p>hi</p>" * 500, mtime=0))
    servers, running = {}, []
    for mode in (False, True):
        sent = {}
        server, port = serve(tmp_path, sent=sent, precompressed=mode)
        servers[mode] = (f"http://127.0.0.1:{port}", sent)
        running.append(server)
    yield data, servers
    for server in running:
        server.shutdown()


def test_the_server_sends_a_copy_only_when_asked_to_and_accepted(served):
    data, servers = served
    url, sent = servers[True]
    status, headers, body = _get(url + "/app.js", "gzip, deflate, br")
    assert (status, headers["Content-Encoding"], headers["Vary"]) == (200, "br", "Accept-Encoding")
    assert headers["Content-Type"] == "text/javascript" and brotli.decompress(body) == data
    assert sent["/app.js"] == len(body) < len(data)  # the bench counts what went over the wire
    modified = headers["Last-Modified"]
    status, headers, body = _get(url + "/app.js", "gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == data
    status, headers, body = _get(url + "/app.js", "identity")
    assert "Content-Encoding" not in headers and headers["Vary"] == "Accept-Encoding" and body == data
    status, headers, body = _get(url + "/docs/", "br, gzip")  # a folder's index.html, gzip only
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == b"<p>hi</p>" * 500
    status, headers, body = _get(url + "/plain.txt", "br, gzip")
    assert "Content-Encoding" not in headers and "Vary" not in headers and body == b"no copies"
    status, headers, body = _get(url + "/app.js", "br", since=modified)
    assert status == 304 and body == b""
    # off by default: plain bytes whatever the request accepts
    plain_url, _ = servers[False]
    status, headers, body = _get(plain_url + "/app.js", "gzip, deflate, br")
    assert "Content-Encoding" not in headers and "Vary" not in headers and body == data
