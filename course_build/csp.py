"""The site's Content-Security-Policy.

Every page declares it in a `<meta http-equiv>` at the top of its `<head>` (the
theme's template, course_build/templates/main.html, writes it with a placeholder), and
`_headers` (Netlify / Cloudflare Pages format) declares it for every path, so the
Python worker gets it too where the host honours that file (a worker takes its
policy from its script's response, never from a meta tag; the service worker adds
it to what it serves from its cache).

Scripts: this origin's files, WebAssembly compilation (Pyodide), and each inline
script the build emits, by its SHA-256 (Material's own included). No 'unsafe-eval':
Pyodide boots, runs and restores its snapshot without it (tests/e2e/test_hardening.py).
The hashes are those of the whole site, on every page: Material's instant navigation
runs the next page's inline scripts under the first page's policy.
"""

import base64
import hashlib
import re

PLACEHOLDER = "__COURSE_CSP__"
_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script\s*>", re.S | re.I)
_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]+)""", re.I)
_JS_TYPES = {"", "module", "text/javascript", "application/javascript", "text/ecmascript"}


def inline_script_hashes(html_text):
    """The CSP source of each inline script in the page ('sha256-…'); data blocks
    (type="application/json") are not scripts and need none."""
    hashes = set()
    for match in _SCRIPT.finditer(html_text):
        attrs = match.group("attrs") or ""
        if re.search(r"\ssrc\s*=", attrs, re.I):
            continue
        kind = _TYPE.search(attrs)
        if (kind.group(1).lower() if kind else "") not in _JS_TYPES:
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        hashes.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def policy(script_hashes, header=False, dev=False):
    """The policy, as a header value (`header=True` adds what only a header may say).
    `dev=True` is `mkdocs serve`'s: its live-reload script is injected into each response
    with a fresh id, so no hash can name it; it runs under 'unsafe-inline', which any
    hash would switch off. Never written by `mkdocs build`."""
    scripts = "'unsafe-inline'" if dev else " ".join(sorted(script_hashes))
    directives = [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval' " + scripts,
        "style-src 'self' 'unsafe-inline'",  # Material and the math carry style="" attributes
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ]
    if header:
        directives.append("frame-ancestors 'self'")
    return "; ".join(d.strip() for d in directives)


class PolicyError(Exception):
    """A page of the site has no place for the policy."""


def finalize(site, dev=False):
    """Fill in the policy in every page of the built site; returns it for the `_headers` file.

    The one step that rewrites pages after they are rendered: the policy names the hash of
    every inline script of the whole site (see above), so no page's policy is known until
    the last page is written. The theme's template put the placeholder in each page."""
    pages = {path: path.read_text(encoding="utf-8") for path in site.rglob("*.html")}
    missing = sorted(str(path.relative_to(site)) for path, text in pages.items() if PLACEHOLDER not in text)
    if missing:
        raise PolicyError(f"no Content-Security-Policy placeholder in {', '.join(missing)}: "
                          "the theme's main.html must extend course_build/templates/main.html")
    hashes = set()
    for text in pages.values():
        hashes |= inline_script_hashes(text)
    meta_value = policy(hashes, dev=dev)
    for path, text in pages.items():
        path.write_text(text.replace(PLACEHOLDER, meta_value, 1), encoding="utf-8")
    return policy(hashes, header=True, dev=dev)


def headers_block(header_policy, base=""):
    """The `_headers` rule giving every path of the site (under `base`, site_url's path) the policy."""
    return f"{base}/*\n  Content-Security-Policy: {header_policy}\n"
