"""What the built site lets a learner read: the search index holds no answer, no
recap and no starter code, and the questions' feedback reads as sentences."""

import json
import re
from html import unescape

import pytest

from course_build.codewrap import hanging_indent
from course_build.search_index import exclude_hidden, leaks
from grader.catalog import load_all

from .test_site_build import ROOT, build

# a slip completes "Not yet: 6 is …": what the number is, never a clause of its own
NOT_A_NOUN_PHRASE = {"that", "which", "because", "since", "as", "when", "if", "is", "are", "was", "it", "you",
                     "your", "this", "not", "so", "but", "and", "multiply", "divide", "add", "use"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    result = build(ROOT / "mkdocs.yml", target)
    assert result.returncode == 0, result.stderr
    return target


def written_lines(exercise):
    """The solution's lines that the starter does not show: what the learner writes."""
    given = {line.strip() for line in exercise.starter.splitlines()}
    return {line.strip() for line in exercise.solution.splitlines()
            if line.strip() not in given and len(line.strip()) >= 12 and not line.strip().startswith("#")}


def recap_texts(site):
    """A sentence from each level's recap (it opens once the level is cleared)."""
    texts = []
    for page in site.glob("*/index.html"):
        for recap in re.findall(r'<section class="course-recap"[^>]*>(.*?)</section>', page.read_text(), re.S):
            words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", recap))).strip()
            if len(words) > 40:
                texts.append(words[:40])
    return texts


def test_a_search_finds_no_answer_recap_or_starter_code(site):
    exercises = load_all()
    forbidden = set(recap_texts(site))
    assert forbidden, "no recap found: the test would prove nothing"
    for exercise in exercises.values():
        forbidden |= written_lines(exercise)
        forbidden |= {line.strip() for line in exercise.starter.splitlines() if "____" in line and len(line.strip()) >= 12}
    forbidden |= {"lr * p.grad", "reversed(topo)"}  # the searches, answers of sgd-step and backward-tail
    assert leaks(site, forbidden) == []


def page_text(page):
    html = re.sub(r"<(script|style|textarea)\b.*?</\1>", " ", page.read_text(), flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_learner_pages_name_no_internal_file_or_exercise_id(site):
    """The instructor guide may name files; a level page speaks to the learner, locked
    parts included (they open)."""
    ids = {i for i in load_all() if "-" in i}  # "diamond" and "mlp" are words the prose uses too
    found = []
    for page in site.glob("*/index.html"):
        if page.parent.name in {"instructors", "search", "assets"}:
            continue
        text = page_text(page)
        found += [(page.parent.name, name) for name in
                  re.findall(r"\b(?:tests|labs|grader|engine|course_\w+)/[\w/]+\.py\b", text)]
        found += [(page.parent.name, i) for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
    assert found == []


def test_locked_text_and_its_headings_are_marked_for_search_to_skip():
    page = ('<p>open</p><div class="course-locked" data-after="q"><h2 id="x">Secret</h2>'
            '<div class="inner"><p>a</p></div><p>b</p></div><h2 id="y">Open</h2>'
            '<section class="course-recap"><h3>Recap</h3></section>')
    marked = exclude_hidden(page)
    assert marked.count('data-search-exclude=""') == 4
    assert '<h2 id="y">Open</h2>' in marked  # after the locked part: searchable
    assert exclude_hidden(marked) == marked  # marked once


def slips_and_reasons(site):
    for page in site.glob("*/index.html"):
        html = page.read_text()
        for attrs in re.findall(r'<div class="course-question"[^>]*>', html):
            qid = re.search(r'data-question="([^"]+)"', attrs).group(1)
            for kind in ("slips", "reasons"):
                found = re.search(rf'data-{kind}="([^"]*)"', attrs)
                if found:
                    value = json.loads(unescape(found.group(1)))
                    pairs = value if kind == "slips" else list(value.items())
                    yield from ((page.parent.name, qid, kind, message) for _wrong, message in pairs)


def test_every_slip_and_reason_reads_as_a_sentence(site):
    messages = list(slips_and_reasons(site))
    assert any(kind == "reasons" for *_, kind, _m in messages)
    bad = []
    for where, qid, kind, message in messages:
        first = re.match(r"[A-Za-z]+", message)
        if not message.endswith("."):
            bad.append((where, qid, message, "no full stop"))
        if kind == "slips":
            # "Not yet: 6 is <message>": mid-sentence, a noun phrase
            # (a capital starts a name, L or MLP, never a sentence: "Your …")
            word = first.group(0) if first else ""
            if word.lower() in NOT_A_NOUN_PHRASE or word[:1].isupper() and len(word) > 1 and word[1:].islower():
                bad.append((where, qid, message, "does not complete 'Not yet: N is …'"))
        elif not message[0].isupper():
            bad.append((where, qid, message, "a reason is a sentence of its own"))
    assert bad == []


def test_each_indented_code_line_carries_its_indentation():
    html = ('<code><span id="__span-0-1"><span class="k">def</span> f():\n</span>'
            '<span id="__span-0-2"><span class="w">    </span><span class="sd">"""doc</span>\n</span>'
            '<span id="__span-0-3">        <span class="k">return</span> 1\n</span></code>')
    marked = hanging_indent(html)
    assert '<span id="__span-0-1">' in marked
    assert '<span id="__span-0-2" style="--course-indent: 4ch">' in marked
    assert '<span id="__span-0-3" style="--course-indent: 8ch">' in marked


def test_built_code_blocks_have_one_element_a_line(site):
    html = (site / "pytorch/index.html").read_text()
    assert re.search(r'<span id="__span-\d+-\d+" style="--course-indent: 4ch">', html)
