"""The learner's saved progress, as course_browser/progress.js keeps it in localStorage.
Its key and schema version come from runner/facts.json, their one home: no test spells
them, so a new schema or key moves every seed with it."""

import json
import uuid
from html.parser import HTMLParser

from runner.facts import STORAGE

KEY = STORAGE["key"]


def progress(levels=None, code=None, **fields):
    """Saved progress as progress.js writes it: {level: {"items": ..., "cleared": ...}}, {slot: code}."""
    return {"version": STORAGE["schema_version"], "levels": levels or {}, "code": code or {}, **fields}


def solved(*items):
    """A level's entry with these items (questions, exercises) solved."""
    return {"items": {item: {"solved": True} for item in items}}


def seed_progress(page, data):
    """Make `data` (progress, or any text) the saved progress the page finds on its next load,
    before any script of the course runs. Once per seed and tab: a later load keeps what the
    course saved since."""
    text = data if isinstance(data, str) else json.dumps(data)
    flag = f"byoa-test-seeded-{uuid.uuid4()}"
    page.add_init_script(f"""if (!sessionStorage.getItem({flag!r})) {{
        localStorage.setItem({KEY!r}, {json.dumps(text)});
        sessionStorage.setItem({flag!r}, "1");
    }}""")


def write_progress(page, data):
    """Write `data` as the saved progress now, as another tab of the course would."""
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, json.dumps(data)])


def saved_progress(page, key=KEY):
    """The progress the course has saved in this page's storage (or under `key`), or None."""
    text = page.evaluate("(key) => localStorage.getItem(key)", key)
    return None if text is None else json.loads(text)


class _Locks(HTMLParser):
    """A level page's locked sections, read from its HTML (no page load, no Python boot):
    the level's id, each section's item in page order, and the sections around `slot`."""

    def __init__(self, slot=None):
        super().__init__()
        self.slot, self.level, self.items, self.around = slot, None, [], None
        self.open = []  # for each <div> now open: the item of its lock, or None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "course-level" in classes:
            self.level = attrs.get("data-level")
        if tag == "div":
            after = attrs.get("data-after") if "course-locked" in classes else None
            self.open.append(after)
            if after:
                self.items.append(after)
        if self.slot is not None and attrs.get("data-slot") == self.slot and self.around is None:
            self.around = [item for item in reversed(self.open) if item]

    def handle_endtag(self, tag):
        if tag == "div" and self.open:
            self.open.pop()


def locks(html, slot=None):
    """(the level's id, the items whose solving opens each locked section, the items of the
    sections around the element with data-slot=`slot`, innermost first) of a page's HTML."""
    found = _Locks(slot)
    found.feed(html)
    return found.level, found.items, found.around or []
