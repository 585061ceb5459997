"""docs/instructors.md's reference table names every block, option, exercise.toml key,
probe and operation the build accepts, and nothing it does not; the threat model is
shown once; the README stays a front door."""

import re
from pathlib import Path

from course_build.blocks.lab import lab_options
from course_build.validate import SCHEMAS
from grader.cases import OPERATIONS
from grader.catalog import EQUIVALENT_KEYS, GRADING_KEYS, GROUP_KEYS, META_KEYS, MISTAKE_KEYS, SOLUTION_KEYS
from labs import LABS
from runner.probes import PROBES

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8")


def reference_rows():
    table = GUIDE.split("## Reference", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 4 and cells[0] not in ("where", "---"):
            rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1]), cells[2]))
    return rows


def documented(where):
    return {name for w, names, _ in reference_rows() if w == where for name in names}


def test_every_block_and_lab_is_in_the_reference():
    blocks = {n for w, names, _ in reference_rows() if w == "block" for n in names if n.startswith("//")}
    assert {b.lstrip("/").strip() for b in blocks} == set(SCHEMAS)
    labs = {names[1] for w, names, _ in reference_rows() if w == "block" and names[0] == "/// lab"}
    assert labs == set(LABS)


def test_every_option_is_in_the_reference():
    assert documented("question") == set(SCHEMAS["question"].OPTIONS)
    assert documented("exercise") == set(SCHEMAS["exercise"].OPTIONS)
    assert documented("lab") == {o for name in LABS for o in lab_options(name)}


def test_every_exercise_key_probe_and_operation_is_in_the_reference():
    assert documented("exercise.toml") == META_KEYS - {"solution", "grading", "groups", "mistakes"}
    assert documented("[solution]") == SOLUTION_KEYS
    assert documented("[[groups]]") == GROUP_KEYS
    assert documented("[grading]") == GRADING_KEYS
    assert documented("[[mistakes]]") == MISTAKE_KEYS
    assert documented("equivalent.toml") == EQUIVALENT_KEYS
    assert documented("operation") == set(OPERATIONS)
    probe_row = next(value for w, names, value in reference_rows() if names == ["probe"])
    assert set(re.findall(r"`(\w+)`", probe_row)) == set(PROBES)


def test_the_threat_model_is_shown_once():
    assert GUIDE.count("## Threat model") == 1 and "--8<--" not in GUIDE
    assert "Threat model" not in (ROOT / "README.md").read_text(encoding="utf-8").replace("#threat-model", "")


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    layout = readme.split("## Layout", 1)[1].split("```")[1]
    named = {line.split()[0].rstrip("/") for line in layout.splitlines() if line and not line.startswith(" ")}
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / ".git").exists() is False
               and p.name not in {".git", ".venv", "node_modules", "site", "build", ".cache", "screenshots",
                                  "test-results"} and not p.name.endswith((".egg-info", "_cache"))}
    assert folders <= named, f"not in the README's layout: {folders - named}"
