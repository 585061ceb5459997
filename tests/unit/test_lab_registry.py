"""One registry entry per lab (labs.LABS) is all the build, the worker and the page read:
the widget is found by its name, the worker's table is the labs' own functions, and
each lab's options hold their own defaults."""

import re
from pathlib import Path

import pytest

from labs import LABS, api
from labs.entry import COMMON_OPTIONS

WIDGETS = Path(__file__).resolve().parents[2] / "course_browser" / "labs"


def test_every_lab_has_its_widget_and_every_widget_a_lab():
    assert {p.stem for p in WIDGETS.glob("*.js")} == set(LABS)
    for name in LABS:
        assert re.search(r"^export function mount\(root\)", (WIDGETS / f"{name}.js").read_text(), re.M), name


def test_the_worker_calls_exactly_what_the_labs_declare():
    declared = [fn for lab in LABS.values() for fn in lab.worker]
    assert sorted(api.API) == sorted(declared)  # and no name is declared twice
    assert {n: api.API[n] for n in declared} == {n: f for lab in LABS.values() for n, f in lab.worker.items()}


def test_the_page_discards_the_lab_interpreter_after_learner_code_only():
    assert set(api.DISCARD_AFTER) == {"capstone_train", "capstone_check", "capstone_boundary", "capstone_engine"}
    assert set(api.DISCARD_AFTER) == {fn for lab in LABS.values() if lab.runs_learner_code for fn in lab.worker}


def test_each_labs_defaults_pass_its_own_checks():
    for name, lab in LABS.items():
        assert not set(lab.options) & set(COMMON_OPTIONS), name
        for option, (default, check) in {**COMMON_OPTIONS, **lab.options}.items():
            assert check(default) == default, (name, option)


def test_an_unknown_worker_function_is_refused():
    with pytest.raises(ValueError, match="unknown worker function 'open'"):
        api.call("open", "[]")
