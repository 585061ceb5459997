"""CONTRIBUTING.md's "Add an exercise", followed by a test: a new exercise made
from the template is proved by the grader and shows up, gradable, on a page."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.build.test_site_build import _broken_site

ROOT = Path(__file__).resolve().parents[2]


def grader(*args, root):
    return subprocess.run([sys.executable, "-m", "grader", "--exercises", str(root), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow  # proves, mutates and builds a site
def test_a_new_exercise_from_the_template_is_proved_and_shows_up_on_a_page(tmp_path):
    exercises = tmp_path / "exercises"
    exercises.mkdir()
    made = grader("new", "cube-slope", "--level", "nudges", root=exercises)  # step 1
    assert made.returncode == 0, made.stderr
    assert (exercises / "cube-slope" / "starter.py").read_text().count("____") == 1
    proved = grader("prove", root=exercises)  # step 6
    assert proved.returncode == 0 and "1 exercises proved, 0 problems" in proved.stdout, proved.stdout
    mutated = grader("mutate", root=exercises)
    assert mutated.returncode == 0, mutated.stdout
    starter = grader("grade", "cube-slope", str(exercises / "cube-slope" / "starter.py"), root=exercises)
    assert starter.returncode == 1 and "Fill in the blank" in starter.stdout

    site = tmp_path / "site"
    built = _broken_site(tmp_path, "# Slopes\n\n/// level | nudges\n///\n\n/// exercise | cube-slope\nFind the slope.\n///\n",
                         exercises_dir=exercises)  # step 7
    assert built.returncode == 0, built.stderr
    html = (site / "index.html").read_text()
    assert 'data-exercise="cube-slope"' in html and "slope_of_f" in html
    (grading,) = site.glob("assets/course/exercises.*/cube-slope.grading.json")
    data = json.loads(grading.read_text())
    assert data["probe"] == "call" and len(data["cases"]) == 13 and len(data["mistakes"]) == 2
