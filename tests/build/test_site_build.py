"""`mkdocs build` output, and the build failing clearly on authoring mistakes."""

import hashlib
import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from runner.facts import STORAGE
from tests.small_course import course_config

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build(config, site_dir):
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "-d", str(site_dir)], cwd=ROOT, env=ENV, capture_output=True, text=True)


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


def test_the_site_is_self_contained(site):
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert list((site / "assets/pyodide").glob(f"314.*/{name}")), name
    course = site / "assets/course"
    assert list(course.glob("course.*.js")) and list(course.glob("worker.*.js"))
    html = (site / "autograd/index.html").read_text()
    assert 'name="course-runtime"' in html
    assert "immutable" in (site / "_headers").read_text()
    assert "fonts.googleapis" not in html and "cdn.jsdelivr" not in html and "unpkg" not in html


def test_every_file_under_a_year_long_cache_name_is_named_by_its_content(site):
    """`_headers` lets browsers keep /assets/course/ for a year without asking: a file
    there whose name does not change with its bytes would reach no returning learner."""
    assert "/assets/course/*\n  Cache-Control: public, max-age=31536000, immutable" in (site / "_headers").read_text()
    course = site / "assets/course"
    for path in (p for p in course.rglob("*") if p.is_file()):
        assert re.search(r"[.-][A-Za-z0-9]{8,}[./]", path.relative_to(course).as_posix()), path
    for kind in ("runner", "labs"):  # the Python files of the grading and the lab interpreters
        (files,) = course.glob(f"{kind}.*.json")
        assert files.name == f"{kind}.{hashlib.sha256(files.read_bytes()).hexdigest()[:10]}.json"
    (folder,) = course.glob("exercises.*")
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.iterdir() if p.suffix == ".json"):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    assert folder.name == f"exercises.{digest.hexdigest()[:10]}"


def test_the_course_files_carry_no_answer(site):
    """Every grading interpreter gets the runner package only: it runs code and reports
    outputs, and holds no engine, solution, mistake, expected output or comparison.
    The reference engine ships apart, for the lab interpreter."""
    (files_path,) = (site / "assets/course").glob("runner.*.json")
    files = json.loads(files_path.read_text(encoding="utf-8"))
    names = set(files)
    assert {"runner/probes.py", "runner/guard.py", "runner/execute.py", "runner/api.py", "runner/sandbox.py",
            "runner/facts.json"} <= names
    assert all(n.startswith("runner/") for n in names), names
    assert files["runner/guard.py"] == (ROOT / "runner/guard.py").read_text(encoding="utf-8")
    text = "".join(files.values())
    (data_file,) = (site / "assets/course").glob("exercises.*/mul-backward.grading.json")
    expected = [x for case in json.loads(data_file.read_text())["cases"] for x in case["expected"]]
    assert not [x for x in expected if len(repr(x)) >= 6 and repr(x) in text]
    (labs_path,) = (site / "assets/course").glob("labs.*.json")
    labs = json.loads(labs_path.read_text(encoding="utf-8"))
    assert {"engine/engine.py", "labs/api.py"} <= set(labs)
    assert not [n for n in labs if not n.startswith(("engine/", "labs/"))]


def test_each_exercise_gives_only_what_it_declares(site):
    """What an exercise's grading interpreter gets beyond the runner: the files of the
    names it declares in `gives`, and no module with the rules it asks for."""
    folder = next((site / "assets/course").glob("exercises.*"))
    given = {p.stem: json.loads(p.read_text())["given"] for p in folder.glob("*.json") if ".grading" not in p.name}
    assert set(given["mul-backward"]) == {"engine/__init__.py", "engine/given.py", "engine/order.py"}
    assert "engine/engine.py" not in given["backward-tail"] and "engine/nn.py" not in given["mlp"]
    assert "engine/nn.py" in given["sgd-step"]
    for exercise, files in given.items():
        assert "class Value" not in "".join(v for k, v in files.items() if k != "engine/engine.py") or \
            exercise in ("mlp", "sgd-step"), exercise


def test_grading_data_stays_on_the_page(site):
    """Each exercise's grading data (cases, expected outputs, mistakes' signatures) is
    a file for the page, and the worker is sent only the cases' inputs."""
    from grader.cases import grading_data
    from grader.catalog import load

    (data_file,) = (site / "assets/course").glob("exercises.*/mul-backward.grading.json")
    data = json.loads(data_file.read_text())
    assert data == json.loads(json.dumps(grading_data(load("mul-backward"))))
    assert data["cases"] and all("expected" in c and "input" in c for c in data["cases"])
    assert {m["name"] for m in data["mistakes"]} == {m.name for m in load("mul-backward").mistakes}


def test_exercises_show_their_starter_and_the_solution_only_on_request(site):
    from grader.catalog import load_all

    html = (site / "autograd/index.html").read_text()
    exercises = load_all()
    found = re.findall(r'data-exercise="([a-z-]+)".*?course-exercise__starter"[^>]*>(.*?)</textarea>', html, re.S)
    assert len(found) == 8  # three in the skip test, five in the level
    for exercise_id, starter_html in found:
        code = unescape(re.sub(r"<[^>]+>", "", starter_html))
        assert code.strip() == exercises[exercise_id].starter.strip()
        assert code.strip() != exercises[exercise_id].solution.strip()
    (data_file,) = (site / "assets/course").glob("exercises.*/mul-backward.json")
    data = json.loads(data_file.read_text())
    assert "other.data * out.grad" in data["solution"] and len(data["hints"]) == 3


def test_blocks_render_with_their_data(site):
    html = (site / "autograd/index.html").read_text()
    assert 'data-exercise="mul-backward"' in html and 'data-slot="quiz-sub-backward"' in html
    assert 'data-question="dl-dd"' in html and 'data-answer="7"' in html
    assert 'class="course-locked" data-after="dl-dd"' in html
    assert '"grads": [-6.0, -4.0, -2.0, -2.0, -2.0, 7.0, 1.0]' in html.replace("&quot;", '"')


def _broken_site(tmp_path, page, exercises_dir=None):
    """Build a one-page site with the course plugin; return the finished process.
    No exercises unless given: the build refuses an exercise that is on no page."""
    if exercises_dir is None:
        exercises_dir = tmp_path / "no-exercises"
        exercises_dir.mkdir()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(page)
    config = course_config(tmp_path, docs, exercises_dir)
    return build(config, tmp_path / "site")


def test_unknown_exercise_fails_the_build(tmp_path):
    result = _broken_site(tmp_path, "/// level | t\n///\n/// exercise | no-such-exercise\nPrompt\n///\n")
    assert result.returncode != 0
    assert "unknown exercise" in result.stderr and "no-such-exercise" in result.stderr


def test_a_block_with_bad_options_fails_the_build(tmp_path):
    result = _broken_site(tmp_path, "/// level | t\n///\n/// question | q1\n    answer: [1, 2]\nWhat?\n///\n")
    assert result.returncode != 0
    assert "index.md:4: /// question: option 'answer': must be a number or a string" in result.stderr


def test_a_wrong_choice_answer_fails_the_build(tmp_path):
    result = _broken_site(tmp_path, '/// level | t\n///\n/// question | q1\n    kind: choice\n    choices: ["a", "b"]\n    answer: c\nWhat?\n///\n')
    assert result.returncode != 0 and "is not one of the choices" in result.stderr


def test_a_lab_question_with_a_number_of_its_own_fails_the_build(tmp_path):
    """A `predicts` question's numbers are the lab's (the engine's), never the page's."""
    result = _broken_site(tmp_path, "/// level | t\n///\n/// question | q1\n    predicts: a\n    answer: 3\nWhat is dL/da?\n///\n")
    assert result.returncode != 0 and "the lab computes this question's answer" in result.stderr


def test_lab_questions_render_as_the_lab_expects(site):
    html = (site / "alive/index.html").read_text()
    tags = {m[1]: m[0] for m in re.finditer(r'<div class="course-question"[^>]*data-question="([\w-]+)"[^>]*>', html)}
    for qid, wants in {"alive-predict-a": ['data-predicts="a"'], "alive-c-grad": ['data-predicts="c"'],
                       "alive-flat-a": ['data-task="flat"', 'data-wrt="a"', 'data-example="a*a - 4*a"']}.items():
        for want in ['data-mounted="lab"', *wants]:
            assert want in tags[qid], (qid, want)
        assert "data-answer" not in tags[qid]  # the engine's number, filled in by the lab


def test_malformed_exercise_metadata_fails_the_build(tmp_path):
    exercises = tmp_path / "exercises"
    (exercises / "broken").mkdir(parents=True)
    (exercises / "broken" / "exercise.toml").write_text('title = "x"\n')
    result = _broken_site(tmp_path, "# hi\n", exercises_dir=exercises)
    assert result.returncode != 0 and "'level' must be a non-empty string" in result.stderr


def test_each_page_loads_only_the_runtime_it_needs(site):
    """Code pages start Python from the <head> and preload the editor; a page with
    only a lab starts Python but loads no editor; the course map needs neither."""
    head = lambda page: (site / page / "index.html").read_text().split("</head>")[0]  # noqa: E731
    early = "__courseEarlyPython"
    assert early in head("autograd") and "chunks/editor." in head("autograd")
    assert early in head("alive") and "chunks/editor." not in head("alive")
    assert "&#34;base&#34;: &#34;../assets/course/&#34;" in head("alive").replace("&quot;", "&#34;")
    index = (site / "index.html").read_text()
    assert early not in index and "chunks/editor." not in index
    drafts = f"<script>{inline_script('drafts')}</script>"  # saved code, before the first paint
    assert STORAGE["key"] in drafts
    assert "course-draft" not in index and drafts not in index
    article = (site / "autograd/index.html").read_text().split("<article")[1]
    assert drafts in article.split("</article>")[0]


def inline_script(name):
    """A classic script as the bundler built it (course_browser/inline.mjs) for pages to inline."""
    dist = ROOT / "course_browser/dist"
    return (dist / json.loads((dist / "manifest.json").read_text())["inline"][name]).read_text().strip()


def test_math_is_rendered_at_build_time(site):
    html = (site / "autograd/index.html").read_text()
    assert html.count('<span class="arithmatex"><span class="katex">') >= 20
    assert "\\(" not in html.split('<article')[1].split("</article>")[0]  # no TeX left to render
    assert "<math" in html  # MathML for screen readers, as KaTeX's htmlAndMathml gives
    course = site / "assets/course"
    assert not [p for p in course.rglob("*.js") if b"renderToString" in p.read_bytes()], "KaTeX's JS shipped"


def test_search_does_not_give_away_locked_sections(site):
    """The search index is one file for every learner: what a locked section holds stays out."""
    index = json.loads((site / "search/search_index.json").read_text())
    text = " ".join(doc["title"] + " " + doc["text"] for doc in index["docs"])
    assert "Here is the core of an autograd engine" not in text  # autograd.md, locked until dl-da
    assert "optimizer.zero_grad()" not in text  # accumulate.md, locked until the diamond exercise
    assert "What does PyTorch do that your engine doesn't" in text  # open text is still found
