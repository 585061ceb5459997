"""Build the course once per port and serve it the way a static host would.

`isolated=True` adds the COOP/COEP headers that make the page cross-origin
isolated (SharedArrayBuffer, so runaway code is interrupted, not restarted).
"""

import fnmatch
import functools
import os
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build_site(target, port):
    manifest = ROOT / "course_browser/dist/manifest.json"
    if not manifest.is_file():
        raise RuntimeError("The JS bundle is missing: run `make setup` (or `node course_browser/build.mjs`).")
    env = {**os.environ, "SITE_URL": f"http://127.0.0.1:{port}/", "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(target)],
                   cwd=ROOT, env=env, check=True)


def header_rules(directory):
    """Parse the site's `_headers` file (Netlify / Cloudflare Pages format)."""
    rules, path = [], Path(directory) / "_headers"
    if path.is_file():
        for line in path.read_text().splitlines():
            if line and not line[0].isspace():
                rules.append((line.strip(), []))
            elif line.strip() and rules:
                name, _, value = line.strip().partition(":")
                rules[-1][1].append((name.strip(), value.strip()))
    return rules


class Handler(SimpleHTTPRequestHandler):
    isolated = False
    rules = ()
    sent = None  # a dict path -> bytes, when counting
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}

    def end_headers(self):
        path = self.path.split("?")[0]
        for pattern, headers in self.rules:
            if fnmatch.fnmatch(path, pattern):
                for name, value in headers:
                    self.send_header(name, value)
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        if self.sent is None:
            return super().copyfile(source, outputfile)
        data = source.read()
        outputfile.write(data)
        path = self.path.split("?")[0]
        self.sent[path] = self.sent.get(path, 0) + len(data)


def serve(directory, isolated=False, sent=None):
    """Start a server on a free port in a thread; returns (server, port).
    `sent`, a dict, collects the body bytes sent per path."""
    handler = type("CourseHandler", (Handler,), {"isolated": isolated, "sent": sent,
                                                 "rules": property(lambda self: header_rules(directory))})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def build_and_serve(directory, isolated=False, sent=None):
    """Bind first (to know the port), then build with that port as site_url."""
    server, port = serve(directory, isolated, sent)
    build_site(directory, port)
    return server, f"http://127.0.0.1:{port}"
