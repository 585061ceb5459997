"""A broken course fails the build, saying where (file:line) and, for a misspelt
name, what was meant. Each test is one authoring mistake an instructor can make.

Page mistakes go through the real `mkdocs build` of a small course. Exercise-folder
mistakes are read by grader/catalog.py and proved by course_build/exercise_data.py,
the very functions the build calls; one test of each kind runs them through the build.
"""

import io
import logging
import os
import shutil
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from course_build.exercise_data import proved_grading_data
from grader.catalog import ExerciseError, load_exercise
from tests.marks import slow
from tests.small_course import course_config

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "grader" / "template"
LEVEL = "/// level | t\n///\n\n"
Built = namedtuple("Built", "passed said")  # said: what the build logged at WARNING and above, and raised


def new_exercise(root, exercise_id="cube-slope", level="t"):
    folder = root / exercise_id
    shutil.copytree(TEMPLATE, folder)
    toml = folder / "exercise.toml"
    toml.write_text(toml.read_text().replace("TITLE", "Cube slope").replace("LEVEL", level))
    return folder


def build_course(tmp_path, pages, exercises=(), nav=None):
    """Build a small course with mkdocs' own build, in this process: a new process per
    test spent most of its second importing. What the CLI would print, the build logs
    (mkdocs' warnings and errors) and raises; test_the_build_warns_when_site_url_is_unset
    runs the CLI itself."""
    docs, root = tmp_path / "docs", tmp_path / "exercises"
    docs.mkdir()
    root.mkdir(exist_ok=True)
    for name, text in pages.items():
        (docs / name).write_text(text)
    for exercise_id in exercises:
        if not (root / exercise_id).exists():
            new_exercise(root, exercise_id)
    config = course_config(tmp_path, docs, root, nav)
    said = io.StringIO()
    handler = logging.StreamHandler(said)
    handler.setLevel(logging.WARNING)
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        build(load_config(str(config), site_dir=str(tmp_path / "site"), strict=True))
        return Built(True, said.getvalue())
    except (Exception, SystemExit) as e:  # mkdocs' Abort is a SystemExit
        return Built(False, f"{said.getvalue()}{type(e).__name__}: {e}\n")
    finally:
        logger.removeHandler(handler)


def fails_with(tmp_path, pages, *wanted, **course):
    result = build_course(tmp_path, pages, **course)
    assert not result.passed, "the build passed"
    for text in wanted:
        assert text in result.said, f"{text!r} not in:\n{result.said[-3000:]}"
    return result.said


def at(tmp_path, line, page="index.md"):
    return f"{tmp_path / 'docs' / page}:{line}: "


QUESTION = "/// question | q-one\n    answer: 2\nWhat?\n///\n\n"


# -- pages -------------------------------------------------------------------

def test_a_misspelt_locked_id(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + QUESTION + "/// locked | q-onee\nLater.\n///\n"},
               at(tmp_path, 9), "the section never opens", "(did you mean 'q-one'?)")


def test_a_misspelt_option(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + "/// question | q1\n    anwser: 2\nWhat?\n///\n"},
               at(tmp_path, 5), "unknown option 'anwser'", "(did you mean 'answer'?)")


def test_a_misspelt_block_name(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + "/// qestion | q1\n    answer: 2\nWhat?\n///\n"},
               at(tmp_path, 4), "unknown block '/// qestion'", "(did you mean 'question'?)")


def test_an_option_of_the_wrong_type(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + "/// question | q1\n    answer: [1, 2]\nWhat?\n///\n"},
               at(tmp_path, 5), "option 'answer': must be a number or a string")


def test_an_option_another_lab_takes(tmp_path):
    fails_with(tmp_path, {"index.md": "/// lab | tangent\n    expr: a*b\n///\n"},
               at(tmp_path, 2), "/// lab | tangent: unknown option 'expr'", "known: h, hides, x0")


def test_a_lab_option_of_the_wrong_kind(tmp_path):
    """Each lab checks its own options: the level-graph draws two graphs, no other."""
    fails_with(tmp_path, {"index.md": "/// lab | level-graph\n    a: 2\n    graph: ring\n///\n"},
               at(tmp_path, 3), "/// lab | level-graph: option 'graph': must be tree or shared, not 'ring'")


def test_a_misspelt_lab(tmp_path):
    fails_with(tmp_path, {"index.md": "/// lab | tangnet\n///\n"},
               at(tmp_path, 1), "unknown lab", "(did you mean 'tangent'?)")


def test_a_lab_hiding_no_question(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + QUESTION + "/// lab | expression\n    hides: [q-on]\n///\n"},
               at(tmp_path, 10), "hides 'q-on', which is no question", "(did you mean 'q-one'?)")


def test_a_number_answer_that_is_no_number(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + "/// question | q1\n    answer: two\nWhat?\n///\n"},
               at(tmp_path, 5), "answer 'two' is not a number")


def test_a_slip_that_is_the_answer(tmp_path):
    page = LEVEL + '/// question | q1\n    answer: 2\n    slips:\n      2.0: "the sign"\nWhat?\n///\n'
    fails_with(tmp_path, {"index.md": page}, at(tmp_path, 6), "the slip 2.0 is the answer itself")


def test_a_slip_that_does_not_fit_its_sentence(tmp_path):
    """Learners read "Not yet: 0.25 is <slip>": a slip names what their number is."""
    page = LEVEL + '/// question | q1\n    answer: 4\n    slips:\n      0.25: "that multiplies by x"\nWhat?\n///\n'
    fails_with(tmp_path, {"index.md": page}, at(tmp_path, 6),
               'reads "Not yet: 0.25 is that multiplies by x": name what the number is')


def test_a_wrong_choice_answer(tmp_path):
    page = LEVEL + '/// question | q1\n    kind: choice\n    choices: ["yes", "no"]\n    answer: "yse"\nWhat?\n///\n'
    fails_with(tmp_path, {"index.md": page}, at(tmp_path, 7), "is not one of the choices",
               "(did you mean 'yes'?)")


def test_a_question_id_used_twice(tmp_path):
    pages = {"index.md": LEVEL + QUESTION, "two.md": "/// level | u\n///\n\n" + QUESTION}
    fails_with(tmp_path, pages, at(tmp_path, 4, "two.md"), "the id 'q-one' is already used at",
               f"{tmp_path / 'docs' / 'index.md'}:4")


def test_a_page_reusing_another_levels_id(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL, "two.md": LEVEL}, at(tmp_path, 1, "two.md"),
               "level id 't' is already the level of")


def test_graded_blocks_on_a_page_with_no_level(tmp_path):
    fails_with(tmp_path, {"index.md": "# Hi\n\n" + QUESTION}, at(tmp_path, 3),
               "/// question on a page with no `/// level | <id>`")


def test_a_page_missing_from_nav(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL, "two.md": "# Two\n"}, f"{tmp_path / 'docs' / 'two.md'}: ",
               "not in mkdocs.yml's `nav`", nav=["index.md"])


def test_a_level_missing_from_the_course_map(tmp_path):
    home = "# Course\n\n/// course-map\n1. [One](one.md){ data-level=\"one\" }\n///\n"
    pages = {"index.md": home, "one.md": "/// level | one\n///\n", "two.md": "/// level | two\n///\n"}
    fails_with(tmp_path, pages, at(tmp_path, 1, "two.md"), "level 'two' is not on the course map")


def test_a_course_map_entry_naming_no_level(tmp_path):
    home = "# Course\n\n/// course-map\n1. [One](one.md){ data-level=\"onw\" }\n///\n"
    fails_with(tmp_path, {"index.md": home, "one.md": "/// level | one\n///\n"}, at(tmp_path, 4),
               "data-level='onw' is no level", "(did you mean 'one'?)")


def test_an_exercise_on_no_page(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL}, "cube-slope/exercise.toml: exercise 'cube-slope' is on no page",
               exercises=["cube-slope"])


def test_a_misspelt_exercise(tmp_path):
    fails_with(tmp_path, {"index.md": LEVEL + "/// exercise | cube-slop\nGo.\n///\n/// exercise | cube-slope\n///\n"},
               at(tmp_path, 4), "unknown exercise", "(did you mean 'cube-slope'?)", exercises=["cube-slope"])


def test_an_exercise_on_another_levels_page(tmp_path):
    fails_with(tmp_path, {"index.md": "/// level | other\n///\n\n/// exercise | cube-slope\n///\n"},
               at(tmp_path, 4), "says level = 't', but this page is level 'other'", exercises=["cube-slope"])


# -- exercise folders: what grader/catalog.py reads --------------------------

def edited_exercise(root, edit, name="exercise.toml"):
    """A new exercise under `root`, its file `name` passed through `edit`: (folder, that file)."""
    folder = new_exercise(root)
    path = folder / name
    path.write_text(edit(path.read_text()))
    return folder, path


def broken(tmp_path, edit, name="exercise.toml"):
    folder, _ = edited_exercise(tmp_path, edit, name)
    with pytest.raises(ExerciseError) as error:
        load_exercise(folder)
    return str(error.value), folder


def test_a_misspelt_grading_key(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace("seed = 1", "seed = 1\nfocs = []"))
    assert f"{folder / 'exercise.toml'}:18: " in message
    assert "unknown key 'focs' in [grading] (did you mean 'focus'?)" in message


def test_a_misspelt_top_level_key(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace("hints = [", "hint = ["))
    assert f"{folder / 'exercise.toml'}:4: " in message and "(did you mean 'hints'?)" in message


def test_a_misspelt_mistake_key(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace('fill = ["3 * x ** 2"]', 'fil = ["3 * x ** 2"]'))
    assert f"{folder / 'exercise.toml'}:27: " in message and "(did you mean 'fill'?)" in message


def test_an_unknown_operation(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace('probe = "call"\nfunction = "slope_of_f"',
                                                           'probe = "value"\nops = ["add", "mull"]'))
    assert f"{folder / 'exercise.toml'}:14: " in message
    assert "unknown operation 'mull' (did you mean 'mul'?)" in message


def test_an_equivalent_mutant_with_no_reason(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace('reason = "(−x)² = x²"', ""), "equivalent.toml")
    assert f"{folder / 'equivalent.toml'}:4: " in message and "says why the mutant is not wrong" in message


def test_a_starter_with_no_blank(tmp_path):
    message, folder = broken(tmp_path, lambda t: t.replace("____", "0"), "starter.py")
    assert f"{folder / 'exercise.toml'}:10: " in message and "starter.py has no blank" in message


def test_a_fill_for_the_wrong_number_of_blanks(tmp_path):
    message, _ = broken(tmp_path, lambda t: t.replace('fill = ["3 * x ** 2"]', 'fill = ["3 * x", "2"]'))
    assert "`fill` gives 2 filling(s), but starter.py has 1 blank(s)" in message


def test_a_broken_exercise_fails_the_build_with_its_line(tmp_path):
    _, toml = edited_exercise(tmp_path / "exercises", lambda t: t.replace("seed = 1", "seed = 1\nfocs = []"))
    fails_with(tmp_path, {"index.md": LEVEL + "/// exercise | cube-slope\n///\n"},
               f"{toml}:18: ", "(did you mean 'focus'?)")


# -- proofs: `make build` refuses what `grader prove` refuses ------------------

def refused(tmp_path, edit, name):
    folder, _ = edited_exercise(tmp_path / "exercises", edit, name)
    exercise = load_exercise(folder)
    with pytest.raises(Exception) as error:
        proved_grading_data({exercise.id: exercise}, cache=tmp_path / "cache")
    assert f"{folder / 'exercise.toml'}: exercise 'cube-slope': " in str(error.value)
    return str(error.value)


def test_a_solution_that_fails_its_cases(tmp_path):
    wrong = refused(tmp_path, lambda t: t.replace('fill = ["3 * x ** 2 - 2"]', 'fill = ["3 * x ** 2 + 2"]'),
                    "exercise.toml")
    assert "the [solution] does not pass" in wrong


def test_a_known_mistake_that_passes(tmp_path):
    message = refused(tmp_path, lambda t: t.replace('fill = ["3 * x ** 2"]', 'fill = ["3 * x ** 2 - 2"]'),
                      "exercise.toml")
    assert "mistake 'drops-the-linear-term' passes, but it is a known mistake" in message


def test_a_starter_that_passes(tmp_path):
    message = refused(tmp_path, lambda t: t.replace("return ____", "return 3 * x ** 2 - 2  # ____"), "starter.py")
    assert "starter.py passes" in message


def test_an_unproved_exercise_fails_the_build(tmp_path):
    edited_exercise(tmp_path / "exercises", lambda t: t.replace('fill = ["3 * x ** 2 - 2"]', 'fill = ["3 * x ** 2 + 2"]'))
    fails_with(tmp_path, {"index.md": LEVEL + "/// exercise | cube-slope\n///\n"},
               "`python -m grader prove` refuses the course", "the [solution] does not pass")


# -- the answer key: expected outputs never come from the solution ---------------

@pytest.mark.parametrize(("exercise_id", "right", "backwards"), [
    ("chain-by-hand", "dL_dd = 2 * d * dL_dL", "dL_dd = -2 * d * dL_dL"),
    ("central-difference", "(f(x + h) - f(x - h))", "(f(x - h) - f(x + h))"),
    slow("sgd-step", "p.data -= lr * p.grad", "p.data += lr * p.grad"),  # its proof trains networks
])
def test_a_backwards_solution_fails_to_prove(tmp_path, exercise_id, right, backwards):
    folder = tmp_path / exercise_id
    shutil.copytree(ROOT / "exercises" / exercise_id, folder)
    toml, starter = folder / "exercise.toml", folder / "starter.py"
    head, solution, rest = toml.read_text().partition("[solution]")
    if right in rest.split("\n[", 1)[0]:  # the line is the learner's: in the [solution] fillings
        toml.write_text(head + solution + rest.replace(right, backwards, 1))
    else:  # the line is given: in the starter, so in the solution too
        assert right in starter.read_text()
        starter.write_text(starter.read_text().replace(right, backwards))
    exercise = load_exercise(folder)
    with pytest.raises(Exception, match=r"the \[solution\] does not pass"):
        proved_grading_data({exercise.id: exercise}, cache=tmp_path / "cache")


def test_a_call_exercise_without_an_answer_key(tmp_path):
    folder = new_exercise(tmp_path)
    (folder / "reference.py").unlink()
    with pytest.raises(ExerciseError, match="needs reference.py: the expected outputs come from it, never from"):
        load_exercise(folder)


def test_the_build_warns_when_site_url_is_unset(tmp_path):
    """Canonical links, the sitemap and a sub-path's 404 page need it (tests/e2e/test_publish.py)."""
    build_course(tmp_path, {"index.md": "# Hi\n"})
    config = tmp_path / "mkdocs.yml"
    config.write_text(config.read_text().replace("site_url: http://127.0.0.1/\n", ""))
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(config), "-d", str(tmp_path / "s2")],
                            cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0 and "site_url is unset" in result.stderr and "SITE_URL=" in result.stderr
