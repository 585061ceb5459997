"""The capstone's engine: assembled from the learner's solved pieces, it trains like the
reference when every piece is right, and a wrong piece is pinned on its own blank."""

import ast
import dataclasses
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader import catalog
from labs import capstone
from labs.capstone import capstone_pieces

ROOT = Path(__file__).resolve().parents[2]
PIECES = capstone_pieces(catalog.load_all())  # as the page lists them
EXERCISE = {p["method"]: p["exercise"] for p in PIECES}
SOLUTIONS = {p["method"]: catalog.load(p["exercise"]).solution for p in PIECES}  # keyed as the page sends them


def test_every_piece_is_written_by_one_exercise_on_its_page():
    assert [p["method"] for p in PIECES] == list(capstone.PIECES)
    for piece in PIECES:
        name = piece["method"]
        if name in capstone.NETWORK:
            assert capstone._class_node(SOLUTIONS[name], name)
        else:
            assert capstone.learner_method(SOLUTIONS[name], name)
        assert f"/// exercise | {piece['exercise']}" in (ROOT / "docs" / f"{piece['page']}.md").read_text()


def test_a_piece_written_twice_stops_the_build():
    exercises = catalog.load_all()
    copy = dataclasses.replace(exercises["pow-backward"], id="cube-backward")
    with pytest.raises(ValueError, match="pow-backward and cube-backward both write Value.__pow__"):
        capstone_pieces({**exercises, "cube-backward": copy})


@pytest.fixture(scope="module")
def trained():
    """Thirty steps of the engine built from every solution (2 s), shared by the tests that read it."""
    return capstone.train(SOLUTIONS, steps=30)


@pytest.mark.slow  # trains two engines for 30 steps
def test_all_solutions_train_exactly_like_the_reference(trained):
    run = trained
    assert set(run["sources"].values()) == {"yours"}
    assert run["worst_gradient_gap"] < 1e-12
    assert run["losses"][-1] < run["losses"][0] / 10
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(run["losses"], run["reference"]))


@pytest.mark.slow  # trains for 12 steps
def test_training_is_resumable_from_the_parameters_the_page_keeps():
    whole = capstone.train(SOLUTIONS, steps=6)
    first = capstone.train(SOLUTIONS, steps=3)
    rest = capstone.train(SOLUTIONS, params=first["params"], steps=3)
    assert first["losses"] + rest["losses"] == pytest.approx(whole["losses"], rel=1e-12)


def test_unsolved_pieces_are_the_references():
    run = capstone.train({"__mul__": SOLUTIONS["__mul__"]}, steps=2)
    assert run["sources"]["__mul__"] == "yours"
    assert run["sources"]["tanh"] == "reference"


@pytest.mark.parametrize("name", list(capstone.PIECES))
def test_each_known_mistake_is_pinned_on_its_own_blank(name):
    for mistake in catalog.load(EXERCISE[name]).mistakes:
        bad = {**SOLUTIONS, name: mistake.code}
        wrong = [row["method"] for row in capstone.check_pieces(bad) if not row["ok"]]
        # a mistake in a method this piece doesn't take (diamond's __mul__) is not this piece's
        correct_here = _same_method(mistake.code, SOLUTIONS[name], name)
        assert wrong == ([] if correct_here else [name]), mistake.name


def _same_method(code, solution, name):
    if name in capstone.NETWORK:
        return ast.dump(capstone._class_node(code, name)) == ast.dump(capstone._class_node(solution, name))
    return ast.dump(capstone.learner_method(code, name)) == ast.dump(capstone.learner_method(solution, name))


def test_a_piece_without_its_method_is_reported_not_raised():
    rows = capstone.check_pieces({**SOLUTIONS, "tanh": "class Value:\n    pass\n"})
    row = next(r for r in rows if r["method"] == "tanh")
    assert row["ok"] is False and "no Value.tanh" in row["problem"]


def test_the_learners_network_trains_and_a_wrong_line_is_pinned_on_it():
    forward = {**SOLUTIONS, "Neuron": SOLUTIONS["Neuron"].replace(
        "sum((wi * xi for wi, xi in zip(self.w, x)), self.b)", "sum((wi * xi for wi, xi in zip(self.w, x[::-1])), self.b)")}
    run = capstone.train(forward, steps=3)
    assert run["sources"]["Neuron"] == "yours" and run["worst_gradient_gap"] > 1e-6
    listing = {**SOLUTIONS, "Neuron": SOLUTIONS["Neuron"].replace("return self.w + [self.b]", "return self.w")}
    assert capstone.train(listing, steps=3)["worst_gradient_gap"] < 1e-12  # training walks the structure
    for bad, words in ((forward, "your network outputs"), (listing, "6 are missing")):
        rows = {row["method"]: row for row in capstone.check_pieces(bad)}
        assert [e for e, row in rows.items() if not row["ok"]] == ["Neuron"]
        assert words in rows["Neuron"]["problem"]


def test_each_class_is_the_learners_only_where_they_wrote_it():
    """The mlp exercise's code holds a Neuron and a Layer too, the course's: only its MLP
    is the learner's. A wrong Neuron there is not theirs and changes nothing."""
    not_theirs = SOLUTIONS["MLP"].replace("return self.w + [self.b]", "return self.w")
    rows = {row["method"]: row for row in capstone.check_pieces({"MLP": not_theirs})}
    assert rows["MLP"]["ok"] and rows["MLP"]["source"] == "yours"
    assert rows["Neuron"]["source"] == rows["Layer"]["source"] == "reference"
    source = capstone.engine_source({"MLP": not_theirs})
    assert "mine: MLP;" in source and "return self.w + [self.b]" in source


def test_the_course_classes_are_the_exercises_solutions():
    for name in capstone.NETWORK:
        assert ast.dump(capstone.COURSE_CLASSES[name]) == ast.dump(capstone._class_node(SOLUTIONS[name], name))


@pytest.mark.slow  # trains two engines for 30 steps
def test_the_boundary_is_the_learners_trained_network_on_a_grid(trained):
    run = trained
    grid = capstone.boundary(SOLUTIONS, run["params"], nx=7, ny=5)
    assert len(grid["z"]) == 5 and all(len(row) == 7 for row in grid["z"])
    # the trained network puts each training point on its own side
    model = capstone.assemble(SOLUTIONS)[1](2, capstone.SIZES)
    capstone._set(model, run["params"])
    assert all((model(x).data > 0) == (y > 0) for x, y in zip(grid["points"], grid["labels"]))
    assert min(min(row) for row in grid["z"]) < 0 < max(max(row) for row in grid["z"])
    assert grid["right"] == len(grid["points"])


def test_the_moons_need_a_curved_boundary():
    """The lower moon's tip lies inside the triangle of three upper-moon points, so no
    straight line puts every point on its own side."""
    up = [x for x, y in zip(capstone.XS, capstone.YS) if y > 0]
    down = [x for x, y in zip(capstone.XS, capstone.YS) if y < 0]
    assert len(up) == len(down) == 8 and capstone.two_moons() == (capstone.XS, capstone.YS)

    def inside(p, a, b, c):
        side = [(b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) for a, b in ((a, b), (b, c), (c, a))]
        return all(s > 0 for s in side) or all(s < 0 for s in side)
    assert inside(down[0], up[0], up[4], up[-1]), (down[0], up[0], up[4], up[-1])


@pytest.mark.slow  # trains two engines for 35 steps
def test_a_broken_mul_does_not_learn_while_the_reference_does():
    broken = {**SOLUTIONS, "__mul__": next(
        m for m in catalog.load("mul-backward").mistakes if m.name == "grad-for-data").code}
    run = capstone.train(broken, steps=30)
    assert run["reference"][-1] < run["reference"][0] / 10  # the reference learns on its own path
    assert run["losses"][-1] > run["losses"][0] * 0.9  # the broken engine does not
    assert run["worst_gradient_gap"] > 1e-3
    rest = capstone.train(broken, params=run["params"], reference_params=run["reference_params"], steps=5)
    assert rest["reference"][0] < run["reference"][-1]  # resumed where the page left each engine


def test_a_syntax_error_names_its_piece():
    codes = {**SOLUTIONS, "tanh": "class Value:\n    def tanh(self:\n"}
    with pytest.raises(capstone.PieceError, match=r"^tanh \(tanh\): your saved code does not parse \(line 2"):
        capstone.train(codes, steps=1)
    row = next(r for r in capstone.check_pieces(codes) if r["method"] == "tanh")
    assert row["ok"] is False and row["problem"].startswith("your saved code does not parse (line 2")


@pytest.mark.parametrize("name", ["__mul__", "MLP"])
def test_a_starters_blank_names_its_piece_not_a_name_error(name):
    """A starter saved as a solved exercise's code (progress from before the code that
    passed was kept): the page hears which piece to check again, never a NameError."""
    codes = {**SOLUTIONS, name: (ROOT / "exercises" / EXERCISE[name] / "starter.py").read_text()}
    expected = rf"^{re.escape(capstone.PIECES[name][0])} \({name}\): your saved code still has blanks \(____\)"
    said = capstone.for_page(capstone.train, codes, steps=1)
    assert said["piece"] == name and re.match(expected, said["error"]), said
    row = next(r for r in capstone.check_pieces(codes) if r["method"] == name)
    assert row["ok"] is False and row["problem"] == "your saved code still has blanks (____): check its exercise again"


@pytest.mark.parametrize("which", ["all", "none", "mul-only", "all-but-network", "neuron-and-layer"])
@pytest.mark.slow  # a CPython process trains the downloaded engine
def test_the_downloaded_engine_runs_under_cpython_and_trains(tmp_path, which):
    codes = {"all": SOLUTIONS, "none": {}, "mul-only": {"__mul__": SOLUTIONS["__mul__"]},
             "all-but-network": {e: c for e, c in SOLUTIONS.items() if e not in capstone.NETWORK},
             "neuron-and-layer": {e: SOLUTIONS[e] for e in ("Neuron", "Layer")}}[which]
    path = tmp_path / "engine.py"
    path.write_text(capstone.engine_source(codes))
    # plain CPython, in an empty folder, with none of the course on its path
    # (-S too: the venv's editable install would put the course's `engine` on the path)
    done = subprocess.run([sys.executable, "-I", "-S", str(path)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    losses = [float(line.split("loss ")[1]) for line in done.stdout.splitlines() if line.startswith("step ")]
    assert losses[-1] < losses[0] / 10, done.stdout
    assert "16 of 16 points on their own side" in done.stdout


def test_the_downloaded_engine_holds_the_learners_own_lines():
    mul = SOLUTIONS["__mul__"].replace("self.grad += other.data * out.grad",
                                            "self.grad += other.data * out.grad  # my own line")
    source = capstone.engine_source({"__mul__": mul})
    assert "            self.grad += other.data * out.grad  # my own line" in source.splitlines()
    assert "mine: __mul__;" in source
    with pytest.raises(capstone.PieceError, match="multiplication"):
        capstone.engine_source({"__mul__": "def ("})
