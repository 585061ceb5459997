"""Mutation testing of the hidden cases: every mutant of the learner-written lines
dies, or is listed in the exercise's equivalent.toml with a reason."""

import dataclasses

import pytest

from grader.catalog import load, load_all
from grader.mutate import KINDS, generate, learner_lines, mutants, mutation_report
from tests.marks import exercise_params

EXERCISES = sorted(load_all())


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_no_mutant_survives(exercise_id):
    exercise = load(exercise_id)
    result = mutation_report(exercise)
    assert result["total"] > 0, "the mutator made no mutants"
    assert result["killed"] + result["equivalent"] == result["total"]
    assert not result["survivors"], "\n".join(
        f"line {m['line']}: {m['before'].strip()} -> {m['after'].strip()}" for m in result["survivors"])
    assert not result["stale"], f"equivalent.toml lists mutants that are not made or are killed: {result['stale']}"
    assert 0 < result["rate"] <= 1


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_equivalent_listings_have_reasons(exercise_id):
    for entry in load(exercise_id).equivalent:
        assert isinstance(entry.get("after"), str) and entry["after"].strip()
        assert isinstance(entry.get("reason"), str) and entry["reason"].strip()


def test_every_kind_of_mutant_is_made():
    made = {kind: [] for kind in KINDS}
    for exercise_id in EXERCISES:
        for mutant in generate(load(exercise_id)):
            for kind in mutant.kinds:
                made[kind].append(exercise_id)
    missing = [kind for kind, where in made.items() if not where]
    assert not missing, f"the mutator made no mutant of kind {missing}"


@pytest.mark.parametrize("exercise_id,kinds", [
    ("mul-backward", {"operator", "unary-minus", "assign", "aug-op", "drop-operand", "attribute", "name", "remove"}),
    ("div-backward", {"swap-operands", "constant", "unary-minus"}),
    ("relu-backward", {"comparison", "constant"}),
    ("backward-tail", {"loop-order", "assign", "constant", "name", "remove"}),
    ("central-difference", {"swap-operands", "name", "constant"}),
])
def test_expected_kinds_per_exercise(exercise_id, kinds):
    made = set().union(*(m.kinds for m in generate(load(exercise_id))))
    assert kinds <= made, f"missing {kinds - made}"


def test_specific_mutants_are_made():
    afters = {ex: {after.strip() for _, _, after, _ in mutants(load(ex))} for ex in
              ("mul-backward", "backward-tail", "relu-backward", "sgd-step", "div-backward")}
    assert "self.grad = other.data * out.grad" in afters["mul-backward"]
    assert "self.grad += other.grad * out.grad" in afters["mul-backward"]
    assert "self.grad += out.data * out.grad" in afters["mul-backward"]
    assert "for v in topo:" in afters["backward-tail"]
    assert "self.grad = 0.0" in afters["backward-tail"]
    assert "self.grad += (1.0 if self.data >= 0 else 0.0) * out.grad" in afters["relu-backward"]
    assert any(a.startswith("pass") for a in afters["sgd-step"])
    assert "other.grad += self.data / other.data ** 2 * out.grad" in afters["div-backward"]


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_mutants_helper(exercise_id):
    exercise = load(exercise_id)
    found = mutants(exercise)
    region = set(learner_lines(exercise))
    assert found and region
    sources = [source for *_, source in found]
    assert len(set(sources)) == len(sources), "mutants are deduplicated by source"
    solution_lines = exercise.solution.split("\n")
    for line, before, after, source in found:
        assert source != exercise.solution
        assert line in region
        assert before == "\n".join(solution_lines[line - 1:line - 1 + before.count("\n") + 1])
        assert after in source
        # indentation is kept
        assert after[:len(after) - len(after.lstrip())] == before[:len(before) - len(before.lstrip())]


def test_learner_lines():
    assert learner_lines(load("backward-tail")) == [29, 30, 31]
    assert learner_lines(load("diamond")) == [11, 12, 19, 20]  # no blanks: where solution and starter differ
    assert learner_lines(load("sub-backward")) == [27, 28, 29, 30, 31, 32]  # the whole operation


def test_an_unlisted_survivor_is_reported():
    exercise = dataclasses.replace(load("relu-backward"), equivalent=())
    result = mutation_report(exercise)
    afters = {m["after"].strip() for m in result["survivors"]}
    assert "self.grad += (1.0 if self.data >= 0 else 0.0) * out.grad" in afters
    assert result["equivalent"] == 0


def test_a_listing_that_matches_a_killed_mutant_is_stale():
    exercise = load("mul-backward")
    wrong = {"after": "self.grad += other.grad * out.grad", "reason": "not really"}
    result = mutation_report(dataclasses.replace(exercise, equivalent=(wrong,)))
    assert result["stale"] == [wrong] and not result["survivors"]


@pytest.mark.parametrize("exercise_id", exercise_params(EXERCISES))
def test_solution_passes_without_its_demo(exercise_id):
    """Mutants are first run without the file's top-level demo (fast); a solution
    that needs its demo would send every mutant down the slow path."""
    from grader.cases import worker_inputs
    from grader.grading import data_for
    from grader.mutate import _passes, _without_demo

    exercise = load(exercise_id)
    data = data_for(exercise)
    assert _passes(exercise, data, worker_inputs(data), _without_demo(exercise.solution))
