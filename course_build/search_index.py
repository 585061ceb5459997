"""What the site's search may find: the prose a learner has in front of them, never
what a later step gives away.

The search index is one static file for every learner, built before anyone has
answered anything, so it must hold nothing a locked page part holds. Material's
search skips any element marked `data-search-exclude`, and starts a new section at
each heading (a heading inside a skipped element still makes an entry of its own,
so headings are marked too). Marked here, on the page's HTML:

- a level's recap (`/// recap`): it opens once the level is cleared and sums up
  its answers (`lr * p.grad`, the parameter count);
- locked sections (`/// locked`; blocks/progress.py marks them already, and this
  keeps it so whatever that block writes);
- exercises' starter code (blocks/exercise.py marks it): a later starter holds the
  code an earlier exercise asks for (`reversed(topo)`).

`leaks` reads the written search_index.json back: tests/build/test_search_index.py
holds it to no answer, recap or starter code, so a new block kind can't leak unnoticed.
"""

import json
import re
from pathlib import Path

EXCLUDE = "data-search-exclude"
# the opening tags of the elements whose whole content stays out of the index
HIDDEN = re.compile(r'<(section|div)\b[^>]*\bclass="(?:course-recap|course-locked)"[^>]*>')
HEADING = re.compile(r"<h[1-6]\b[^>]*>")


def _mark(tag):
    return tag if EXCLUDE in tag else tag[:-1] + f' {EXCLUDE}="">'


def _element_end(text, start, name):
    """Where the element opened at `start` (a `name` tag) ends: nested tags of the same
    name counted, so a <div> inside a locked <div> does not end it early."""
    opener = re.compile(rf"<{name}\b|</{name}\s*>")
    depth = 0
    for found in opener.finditer(text, start):
        depth += -1 if found.group(0).startswith("</") else 1
        if depth == 0:
            return found.end()
    return len(text)


def exclude_hidden(html):
    """The page's HTML with its recap and locked sections, and every heading in them,
    marked for Material's search to skip."""
    out, at = [], 0
    for found in HIDDEN.finditer(html):
        if found.start() < at:
            continue  # inside an element already marked (a locked part within a locked part)
        end = _element_end(html, found.start(), found.group(1))
        inner = HEADING.sub(lambda h: _mark(h.group(0)), html[found.end():end])
        out += [html[at:found.start()], _mark(found.group(0)), inner]
        at = end
    out.append(html[at:])
    return "".join(out)


def leaks(site_dir, forbidden):
    """[(location, text)] for every entry of the written search index that holds one of
    the `forbidden` texts: the index is what a learner's first search reads."""
    index = json.loads((Path(site_dir) / "search" / "search_index.json").read_text(encoding="utf-8"))
    found = []
    for doc in index["docs"]:
        text = f"{doc.get('title', '')} {doc.get('text', '')}"
        found += [(doc.get("location"), needle) for needle in forbidden if needle in text]
    return found
