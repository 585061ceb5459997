"""What Python did on a page, read from the User Timing marks that
course_browser/python.js lists: one reading shared by the tests and the benchmarks,
which drive the page from outside and see nothing else of the runtime."""

# a grading interpreter booted and not yet used: more booted than ended (a page expression)
SPARE_BOOTED = """((count) => count("ready") > count("ended"))((kind) => performance
    .getEntriesByName(`course:interpreter-${kind}`).filter((m) => m.detail.role === "runner").length)"""


def marks(page, name, **detail):
    """The details of the page's marks called `name`, those whose detail has each
    key = value of `detail`."""
    return page.evaluate("""([name, want]) => performance.getEntriesByName(name, "mark").map((m) => m.detail ?? {})
        .filter((d) => Object.entries(want).every(([k, v]) => d[k] === v))""", [name, detail])


def restarts(page):
    """(role, reason) of each interpreter ended by Stop, a timeout or a crash, in order."""
    return [(m["role"], m["reason"]) for m in marks(page, "course:interpreter-ended") if m["reason"] != "done"]
