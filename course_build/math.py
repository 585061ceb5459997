"""The page's math, rendered at build time with the self-hosted KaTeX (in Node).

pymdownx.arithmatex (generic mode) leaves `\\(...\\)` and `\\[...\\]` in
`<span|div class="arithmatex">`. Rendering them here rather than in the browser
means formulas are there at the first paint, read without JavaScript, shift no
layout, and cost the learner's machine no script at all (only KaTeX's CSS and
fonts).
"""

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
RENDERER = Path(__file__).parent / "render-math.mjs"


def _source(escaped):
    tex = html.unescape(escaped).strip()
    display = tex.startswith("\\[")
    return {"tex": tex[2:-2] if tex[:2] in ("\\(", "\\[") else tex, "display": display}


def render_math(page_html, where):
    """Replace every arithmatex formula in `page_html` by KaTeX's HTML."""
    matches = list(FORMULA.finditer(page_html))
    if not matches:
        return page_html
    node = shutil.which("node")
    if node is None:
        raise PluginError("course: rendering math needs Node.js (run `make setup`)")
    result = subprocess.run([node, str(RENDERER)], input=json.dumps([_source(m.group(2)) for m in matches]),
                            capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise PluginError(f"course: {where}: KaTeX could not render this page's math: {result.stderr.strip()[:500]}")
    rendered = iter(json.loads(result.stdout))
    return FORMULA.sub(lambda m: f'<{m.group(1)} class="arithmatex">{next(rendered)}</{m.group(1)}>', page_html)
