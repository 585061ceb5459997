"""What Python did on a page, read from the User Timing marks that
course_browser/python.js lists: one reading shared by the tests and the benchmarks,
which drive the page from outside and see nothing else of the runtime."""

import json


def matching(name, **detail):
    """A page expression: the details of the page's marks called `name`, those whose
    detail has each key = value of `detail` (an array)."""
    return f"""performance.getEntriesByName({json.dumps(name)}, "mark").map((m) => m.detail ?? {{}})
        .filter((d) => Object.entries({json.dumps(detail)}).every(([k, v]) => d[k] === v))"""


def runners(kind):
    """A page expression: how many grading interpreters have reached `kind` ("ready" or "ended")."""
    return f"{matching(f'course:interpreter-{kind}', role='runner')}.length"


# a grading interpreter booted and not yet used: more booted than ended (a page expression)
SPARE_BOOTED = f"{runners('ready')} > {runners('ended')}"


def marks(page, name, **detail):
    """The details of the page's marks called `name`, those whose detail has each
    key = value of `detail`."""
    return page.evaluate(matching(name, **detail))


def restarts(page):
    """(role, reason) of each interpreter ended by Stop, a timeout or a crash, in order."""
    return [(m["role"], m["reason"]) for m in marks(page, "course:interpreter-ended") if m["reason"] != "done"]
