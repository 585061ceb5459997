"""The Content-Security-Policy the build writes into the finished pages (course_build/csp.py)."""

import base64
import hashlib

import pytest

from course_build import csp


def page(body):
    return (f'<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" '
            f'content="{csp.PLACEHOLDER}"></head><body>{body}</body></html>')


def sha256(script):
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def test_every_page_names_every_inline_script_of_the_site(tmp_path):
    """Instant navigation runs the next page's inline scripts under the first page's policy."""
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(page("<script>first()</script>"))
    (tmp_path / "a/index.html").write_text(page('<script>second()</script><script type="application/json">{}</script>'))
    header = csp.finalize(tmp_path)
    for path in ("index.html", "a/index.html"):
        text = (tmp_path / path).read_text()
        assert csp.PLACEHOLDER not in text
        assert sha256("first()") in text and sha256("second()") in text and sha256("{}") not in text
    assert "frame-ancestors" in header and sha256("second()") in header


def test_a_page_with_no_place_for_the_policy_fails_the_build(tmp_path):
    (tmp_path / "index.html").write_text(page(""))
    (tmp_path / "raw.html").write_text("<html><head></head><body><script>x()</script></body></html>")
    with pytest.raises(csp.PolicyError, match="raw.html"):
        csp.finalize(tmp_path)
