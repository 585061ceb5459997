"""The whole course, checked before a page is built.

An authoring mistake that builds anyway ships a level that can never be cleared, an
exercise that lost its cases, or a learner's wrong answer marked right. So the build
reads every page's blocks from the Markdown source (for file:line) and fails on:

- a block name, option or lab kind it does not know, or an option value of the wrong
  type (with a "did you mean" from difflib), each lab held to its own options;
- a question with no id, a number answer that is no number, a choice answer that is no
  choice, a slip equal to the answer;
- an id used twice (questions and exercise slots share one namespace: locks name them),
  a `locked` or a lab's `hides` naming an id that does not exist;
- a page with graded blocks and no `/// level`, two pages with one level id, a level
  page missing from `nav` or from the course map, a course map entry naming no level;
- an exercise on no page, an unknown exercise, an exercise on another level's page.

The exercise folders are checked as they load (grader/catalog.py) and proved by the
plugin (grader/proof.py).
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from grader.catalog import suggestion
from labs import LABS

from .blocks import BLOCKS
from .blocks.lab import lab_options, option_problems

HEADER = re.compile(r"^(/{3,}) *([A-Za-z][\w-]*) *(?:\| *(.*?))? *$")
CODE_FENCE = re.compile(r"^ {0,3}(```|~~~)")
MAP_ENTRY = re.compile(r"\]\((?P<href>[^)#\s]+)[^)]*\)\{[^}]*data-level=\"(?P<level>[\w-]+)\"")
SCHEMAS = {block.NAME: block for block in BLOCKS}
# blocks that only make sense inside a level: their ids and state are the level's
LEVEL_BLOCKS = {"question", "exercise", "locked", "quiz", "recap"}
# A slip is read inside "Not yet: <the learner's number> is <slip>" (course_browser/question.js),
# so it names what that number is ("d's own value: …", "the right size with the wrong sign: …");
# a slip that starts like these reads as "0.25 is that multiplies by x".
SLIP_OPENINGS = {"that", "this", "it", "is", "was", "you", "your", "because", "which", "not", "yes", "no"}


@dataclass
class Problem:
    path: str
    line: int | None
    message: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


@dataclass
class Block:
    path: str
    line: int
    name: str
    argument: str
    options: dict = field(default_factory=dict)
    option_lines: dict = field(default_factory=dict)
    body: list = field(default_factory=list)


def read_blocks(text, path, problems):
    """Every `/// name | argument` block of a page, with its options and its body's lines."""
    blocks, open_blocks, in_code = [], [], False
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if CODE_FENCE.match(line):
            in_code = not in_code
        if in_code:
            i += 1
            continue
        header = HEADER.match(line)
        if header:
            block = Block(path, i + 1, header[2], (header[3] or "").strip())
            i = _read_options(lines, i + 1, block, problems)
            blocks.append(block)
            open_blocks.append((header[1], block))
            continue
        closing = re.match(r"^(/{3,}) *$", line)
        if closing and open_blocks:
            while open_blocks and open_blocks[-1][0] != closing[1]:
                open_blocks.pop()
            if open_blocks:
                open_blocks.pop()
        for _, block in open_blocks:
            block.body.append(line)
        i += 1
    return blocks


def _read_options(lines, i, block, problems):
    """The block's YAML options: the lines indented by four spaces right after its header."""
    start = i
    while i < len(lines) and lines[i].startswith("    ") and lines[i].strip():
        i += 1
    text = "\n".join(line[4:] for line in lines[start:i])
    if not text:
        return i
    try:
        options = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problems.append(Problem(block.path, start + 1 + (mark.line if mark else 0),
                                f"/// {block.name}: its options are not valid YAML: {getattr(e, 'problem', e)}"))
        return i
    if not isinstance(options, dict):
        problems.append(Problem(block.path, start + 1, f"/// {block.name}: options are `name: value` lines"))
        return i
    block.options = options
    for n, line in enumerate(lines[start:i]):
        key = re.match(r"^    ([\w-]+)\s*:", line)
        if key:
            block.option_lines.setdefault(key[1], start + 1 + n)
    return i


def check_block(block, problems):
    """One block against its schema: its name, each option's name and type."""
    schema = SCHEMAS.get(block.name)
    if schema is None:
        close = suggestion(block.name, SCHEMAS)
        if "did you mean" in close:  # another extension's block (details, admonition…) is not ours to judge
            problems.append(Problem(block.path, block.line, f"unknown block '/// {block.name}'{close}"))
        return False
    if block.name == "lab":
        return check_lab(block, problems)
    known = set(getattr(schema, "OPTIONS", {}) or {})
    for key, value in block.options.items():
        line = block.option_lines.get(key, block.line)
        if key not in known:
            what = f"/// {block.name}" + (f" | {block.argument}" if block.argument else "")
            hint = suggestion(key, known) if known else " (this block takes no options)"
            problems.append(Problem(block.path, line, f"{what}: unknown option {key!r}{hint}"))
            continue
        try:
            schema.OPTIONS[key][1](value)
        except (ValueError, TypeError) as e:
            problems.append(Problem(block.path, line, f"/// {block.name}: option {key!r}: {e}"))
    if schema.ARGUMENT is True and not block.argument:
        problems.append(Problem(block.path, block.line, f"/// {block.name} needs an id: `/// {block.name} | my-id`"))
    if block.name == "question":
        check_question(block, problems)
    return True


def check_lab(block, problems):
    """A lab block against the lab's own options (labs/<name>.py declares them)."""
    if lab_options(block.argument) is None:
        problems.append(Problem(block.path, block.line, f"/// lab | {block.argument}: unknown lab"
                                f"{suggestion(block.argument, LABS)}"))
        return False
    for key, message in option_problems(block.argument, block.options):
        problems.append(Problem(block.path, block.option_lines.get(key, block.line), message))
    return True


def check_question(block, problems):
    o = block.options
    if o.get("predicts") or o.get("kind") == "flat":
        return  # the lab computes its numbers; the block itself refuses numbers of its own
    kind, answer = o.get("kind", "number"), str(o.get("answer", "")).strip()
    where = f"/// question | {block.argument}"
    line = block.option_lines.get("answer", block.line)
    if not answer:
        problems.append(Problem(block.path, block.line, f"{where}: the option 'answer' is required"))
    elif kind == "number":
        try:
            value = float(answer.replace("−", "-"))
        except ValueError:
            problems.append(Problem(block.path, line, f"{where}: answer {answer!r} is not a number"))
            return
        tolerance = float(o.get("tolerance", 1e-3))
        slips = o.get("slips") if isinstance(o.get("slips"), dict) else {}
        for slip, text in slips.items():
            first = str(text).split(maxsplit=1)[0].strip(",.:;").lower() if str(text).strip() else ""
            if first in SLIP_OPENINGS:
                problems.append(Problem(block.path, block.option_lines.get("slips", line),
                                        f"{where}: the slip for {slip} reads \"Not yet: {slip} is {text}\": "
                                        "name what the number is (\"x itself: …\", \"the slope of …\")"))
        for slip in slips:
            if isinstance(slip, (int, float)) and abs(float(slip) - value) <= tolerance:
                problems.append(Problem(block.path, block.option_lines.get("slips", line),
                                        f"{where}: the slip {slip} is the answer itself ({answer}): "
                                        "a right answer would be told it is a slip"))
    elif kind == "choice" and answer not in [str(c) for c in o.get("choices") or []]:
        problems.append(Problem(block.path, line, f"{where}: answer {answer!r} is not one of the choices"
                                f"{suggestion(answer, [str(c) for c in o.get('choices') or []])}"))


@dataclass
class Page:
    path: str  # as the error shows it
    src: str  # docs-relative, as nav and links name it
    blocks: list


def check_course(pages, exercises, nav_files=None):
    """Every problem of the course, in page order. `pages`: [(shown path, docs-relative
    path, text)]; `exercises`: the catalog; `nav_files`: docs-relative paths in `nav`
    (None when the site has no nav: MkDocs then lists every page)."""
    problems = []
    read = [Page(shown, src, read_blocks(text, shown, problems)) for shown, src, text in pages]
    for page in read:
        page.blocks = [b for b in page.blocks if check_block(b, problems)]
    levels = _check_levels(read, problems)
    _check_ids(read, problems)
    _check_exercises(read, exercises, levels, problems)
    _check_nav_and_map(read, levels, nav_files, problems)
    return problems


def _check_levels(pages, problems):
    """{level id: (page, block)}; a page with graded blocks needs exactly one level."""
    levels = {}
    for page in pages:
        own = [b for b in page.blocks if b.name == "level"]
        for extra in own[1:]:
            problems.append(Problem(page.path, extra.line, "a page has one `/// level`; this is its second"))
        if own:
            first = own[0]
            if first.argument in levels:
                other = levels[first.argument][1]
                problems.append(Problem(page.path, first.line, f"level id {first.argument!r} is already the level "
                                        f"of {other.path}:{other.line}: each page needs its own"))
            else:
                levels[first.argument] = (page, first)
        graded = [b for b in page.blocks if b.name in LEVEL_BLOCKS]
        if graded and not own:
            problems.append(Problem(page.path, graded[0].line, f"/// {graded[0].name} on a page with no "
                                    "`/// level | <id>`: its progress belongs to no level"))
    return levels


def _slot(block):
    return str(block.options.get("slot") or block.argument)


def _check_ids(pages, problems):
    """Question ids and exercise slots, unique across the course; what locks and hides name exists."""
    ids = {}
    for page in pages:
        for block in page.blocks:
            if block.name not in ("question", "exercise") or not block.argument:
                continue
            key = block.argument if block.name == "question" else _slot(block)
            if key in ids:
                other = ids[key][1]
                problems.append(Problem(page.path, block.line, f"the id {key!r} is already used at "
                                        f"{other.path}:{other.line}: progress is kept by id, so each must be unique"
                                        + ("; give the exercise a `slot:`" if block.name == "exercise" else "")))
            else:
                ids[key] = (block.name, block)
    questions = {k for k, (kind, _) in ids.items() if kind == "question"}
    for page in pages:
        for block in page.blocks:
            if block.name == "locked" and block.argument and block.argument not in ids:
                problems.append(Problem(page.path, block.line, f"/// locked | {block.argument}: no question or "
                                        f"exercise has this id, so the section never opens"
                                        f"{suggestion(block.argument, ids)}"))
            hides = block.options.get("hides") if block.name == "lab" else None
            for qid in [hides] if isinstance(hides, str) else hides or []:
                if qid not in questions:
                    line = block.option_lines.get("hides", block.line)
                    problems.append(Problem(page.path, line, f"/// lab: hides {qid!r}, which is no question"
                                            f"{suggestion(qid, questions)}"))


def _check_exercises(pages, exercises, levels, problems):
    placed = set()
    for page in pages:
        level = next((b.argument for b in page.blocks if b.name == "level"), None)
        for block in (b for b in page.blocks if b.name == "exercise" and b.argument):
            exercise = exercises.get(block.argument)
            if exercise is None:
                problems.append(Problem(page.path, block.line, f"/// exercise | {block.argument}: unknown exercise"
                                        f"{suggestion(block.argument, exercises)}; add exercises/{block.argument}/"))
                continue
            placed.add(exercise.id)
            if level and exercise.level != level:
                problems.append(Problem(page.path, block.line, f"/// exercise | {exercise.id}: its exercise.toml "
                                        f"says level = {exercise.level!r}, but this page is level {level!r}"))
    for exercise_id in sorted(set(exercises) - placed):
        folder = Path(exercises[exercise_id].folder)
        problems.append(Problem(str(folder / "exercise.toml"), None, f"exercise {exercise_id!r} is on no page: "
                                f"add `/// exercise | {exercise_id}` to its level's page"))


def _check_nav_and_map(pages, levels, nav_files, problems):
    if nav_files is not None:
        for page in pages:
            if page.src not in nav_files:
                problems.append(Problem(page.path, None, "this page is not in mkdocs.yml's `nav`: "
                                        "no learner can reach it from the menu"))
    maps = [(page, b) for page in pages for b in page.blocks if b.name == "course-map"]
    if not maps:
        return
    by_src = {page.src: page for page in pages}
    on_map = set()
    for page, block in maps:
        for n, line in enumerate(block.body, block.line + 1):
            for entry in MAP_ENTRY.finditer(line):
                level, href = entry["level"], entry["href"]
                on_map.add(level)
                if level not in levels:
                    problems.append(Problem(page.path, n, f"course map: data-level={level!r} is no level"
                                            f"{suggestion(level, levels)}"))
                    continue
                target = by_src.get(str(Path(page.src).parent / href).removeprefix("./"))
                if target is not None and target is not levels[level][0]:
                    problems.append(Problem(page.path, n, f"course map: {href} is not the page of level {level!r} "
                                            f"({levels[level][0].src})"))
    for level, (page, block) in levels.items():
        if level not in on_map:
            where = maps[0][0]
            problems.append(Problem(page.path, block.line, f"level {level!r} is not on the course map "
                                    f"({where.path}:{maps[0][1].line}): learners would not see it"))
