"""Code blocks wrap their long lines, and a wrapped line keeps its indentation.

A code line cut off at the box's edge hides what a learner needs (a comment with
the local factor, a learner's own line on a phone), and a line that wraps back to
the margin breaks the shape Python reads. Pygments writes each line as
`<span id="__span-…">` (`line_spans` in mkdocs.yml); each line that starts with n
spaces gets `--course-indent: nch`, and course.css makes the line a block padded
by n characters with its first row pulled back by n: every later row starts under
the line's first character. The editors do the same (course_browser/editor.js).
"""

import re

LINE = re.compile(r'<span id="__span-[\w-]+">')


def _indent(html, start):
    """Leading spaces of the line whose markup starts at `start` (tags skipped)."""
    n, at = 0, start
    while at < len(html):
        if html[at] == "<":
            end = html.find(">", at)
            if end < 0:
                break
            at = end + 1
        elif html[at] == " ":
            n, at = n + 1, at + 1
        else:
            break
    return n


def hanging_indent(html):
    """The page's HTML with each indented code line marked with its indentation."""
    def mark(found):
        n = _indent(found.string, found.end())
        return found.group(0)[:-1] + f' style="--course-indent: {n}ch">' if n else found.group(0)
    return LINE.sub(mark, html)
