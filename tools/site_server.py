"""Build the course and serve it the way a static host would (tests, benchmarks, screenshots).

The built site names its origin in one file only that a page reads: `sitemap.xml`, from
which Material's instant navigation learns which links it may load in place. The build
takes SITE_URL (below); the server sends the sitemap with that origin replaced by the
one the request came to, so one build serves on any port, as many times as needed.

Each response carries the headers the site's `_headers` file gives its path, read
through course_build/headers.py (the one reader of that file), and a missing path gets
the site's 404.html with status 404, as GitHub Pages, Netlify and Cloudflare Pages send.
`headers=False` is a host that ignores `_headers`. `mount` is the URL path the site is
served under (a project site on GitHub Pages: site_url's path).

`isolated=True` adds the COOP/COEP headers that make the page cross-origin
isolated (SharedArrayBuffer, so runaway code is interrupted, not restarted).
`precompressed=True` sends a file's `.br` or `.gz` copy (see
course_build/precompress.py) when the request accepts it, as nginx's
`brotli_static` / `gzip_static` or Caddy's `precompressed` would; off by
default, so what the tests read is what the build wrote.
"""

import email.utils
import fnmatch
import functools
import io
import os
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from course_build.headers import header_rules

ROOT = Path(__file__).resolve().parents[1]

SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default: `make build` output serves here as well
SITEMAP = "/sitemap.xml"


def build_site(target):
    manifest = ROOT / "course_browser/dist/manifest.json"
    if not manifest.is_file():
        raise RuntimeError("The JS bundle is missing: run `make setup` (or `node course_browser/build.mjs`).")
    env = {**os.environ, "SITE_URL": SITE_URL, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(target)],
                   cwd=ROOT, env=env, check=True)


def accepted_encodings(header):
    """The content codings an Accept-Encoding header allows (q > 0), lower-cased."""
    accepted = set()
    for item in header.split(","):
        name, _, params = item.partition(";")
        q = params.strip()[2:] if params.strip().startswith("q=") else "1"
        try:
            if float(q) > 0 and name.strip():
                accepted.add(name.strip().lower())
        except ValueError:
            pass
    return accepted


def _not_modified(headers, mtime):
    """If-Modified-Since as SimpleHTTPRequestHandler reads it (second precision, UTC)."""
    if "If-Modified-Since" not in headers or "If-None-Match" in headers:
        return False
    try:
        since = email.utils.parsedate_to_datetime(headers["If-Modified-Since"]).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False
    return int(mtime) <= since


CHUNK = 64 * 1024


class Handler(SimpleHTTPRequestHandler):
    isolated = False
    precompressed = False
    vary = False  # this response's file has precompressed copies
    rules = ()
    mount = "/"
    sent = None  # a dict path -> bytes, when counting
    requests = None  # a list of every path asked for, when recording
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}

    def end_headers(self):
        path = self.path.split("?")[0]
        for pattern, headers in self.rules:
            if fnmatch.fnmatch(path, pattern):
                for name, value in headers:
                    self.send_header(name, value)
        if self.vary:
            self.send_header("Vary", "Accept-Encoding")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        return super().translate_path("/" + path[len(self.mount):])

    def send_head(self):
        self.vary = False
        if self.requests is not None:
            self.requests.append(self.path)
        if not self.path.startswith(self.mount):
            self.send_error(404)
            return None
        if self.path.split("?")[0] == self.mount + SITEMAP.lstrip("/"):
            return self._sitemap_head()
        if self.precompressed:
            copy = self._precompressed_head()
            if copy is not False:
                return copy
        return super().send_head()

    def _sitemap_head(self):
        """The sitemap for the origin asked (the Host header), not the one the build named."""
        path = Path(self.translate_path(self.mount + SITEMAP.lstrip("/")))
        if not path.is_file():
            return super().send_head()
        body = path.read_text().replace(SITE_URL, f"http://{self.headers.get('Host', '127.0.0.1')}/").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def _precompressed_head(self):
        """Send the headers of the requested file's `.br` (else `.gz`) copy, if the request
        accepts it; return the open copy (None after a 304), or False to serve as usual."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?")[0].endswith("/"):
                return False  # the usual redirect to the folder's URL
            path = os.path.join(path, "index.html")
        copies = [(coding, path + suffix) for coding, suffix in (("br", ".br"), ("gzip", ".gz"))
                  if os.path.isfile(path + suffix)]
        if not copies or not os.path.isfile(path):
            return False
        self.vary = True
        accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
        chosen = next(((coding, copy) for coding, copy in copies if coding in accepted), None)
        if chosen is None:
            return False
        coding, copy = chosen
        stat = os.stat(path)
        if _not_modified(self.headers, stat.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        f = open(copy, "rb")  # closed by the caller, as SimpleHTTPRequestHandler's own is
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return f

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        return None

    def copyfile(self, source, outputfile):
        """Counted as it goes: a client that drops a response after its headers (the
        worker does, for a snapshot body the host sends uncompressed) is sent only what
        the connection took until then."""
        if self.sent is None:
            return super().copyfile(source, outputfile)
        path = self.path.split("?")[0]
        self.sent.setdefault(path, 0)
        while chunk := source.read(CHUNK):
            # counted before the write returns: the client may read the last chunk, and the
            # test its count, before this thread runs again
            self.sent[path] += len(chunk)
            try:
                outputfile.write(chunk)
            except OSError:
                self.sent[path] -= len(chunk)
                raise


class Server(ThreadingHTTPServer):
    """A browser closes connections mid-body as a matter of course (a navigation, an
    aborted fetch, a page the test has closed): that is no error worth a traceback."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def serve(directory, isolated=False, sent=None, precompressed=False, headers=True, mount="/", requests=None):
    """Start a server on a free port in a thread; returns (server, port).
    `sent`, a dict, collects the body bytes sent per path (compressed, where a copy was sent);
    `requests`, a list, every path asked for, found or not."""
    rules = property(lambda self: header_rules(directory)) if headers else ()
    handler = type("CourseHandler", (Handler,), {"isolated": isolated, "sent": sent, "precompressed": precompressed,
                                                 "rules": rules, "mount": mount, "requests": requests})
    server = Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def build_and_serve(directory, isolated=False, sent=None, precompressed=False):
    """Build into `directory` and serve it; returns (server, base URL)."""
    build_site(directory)
    server, port = serve(directory, isolated, sent, precompressed)
    return server, f"http://127.0.0.1:{port}"
