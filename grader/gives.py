"""What an exercise gives the learner's code, as the files its grading interpreter gets.

An exercise declares `gives = ["engine.given.backward_pass", "engine.Value", ...]` in
its exercise.toml: the names its starter imports from the course. The grading
interpreter (the browser's worker, the CLI's child) gets the source files that
define those names, their relative imports, and a generated `__init__.py` per
package that exports the given names and nothing else. So `from engine import
Value` in an exercise that asks for `Value`'s rules finds no reference engine,
only a message: this exercise gives you X; write Y yourself.
"""

import ast
import importlib
import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine",)  # the course packages an exercise may give from


class GivesError(ValueError):
    pass


def _source_path(module_name):
    return ROOT / (module_name.replace(".", "/") + ".py")


def _ship(module_name, files):
    """Put `module_name`'s file, and the package modules it imports, into `files`."""
    path = _source_path(module_name)
    key = path.relative_to(ROOT).as_posix()
    if key in files:
        return
    text = path.read_text(encoding="utf-8")
    files[key] = text
    package = module_name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            _ship(f"{package}.{node.module}", files)
        elif isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if any(n.split(".")[0] in PACKAGES for n in names):
                raise GivesError(f"{key} imports the course absolutely ({names[0]}): use a relative import")


def _resolve(dotted):
    """(module the name is imported from, the module that defines it, name)."""
    if not isinstance(dotted, str) or dotted.count(".") < 1 or dotted.split(".")[0] not in PACKAGES:
        raise GivesError(f"gives: {dotted!r} is not a name from {', '.join(PACKAGES)} "
                         "(write it as package.name or package.module.name)")
    module_name, name = dotted.rsplit(".", 1)
    try:
        obj = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise GivesError(f"gives: {dotted!r} does not exist") from None
    defining = inspect.getmodule(obj)
    if defining is None or not defining.__name__.startswith(module_name.split(".")[0] + "."):
        raise GivesError(f"gives: {dotted!r} is not defined in a module of the course")
    return module_name, defining.__name__, name


def describe(gives):
    """The given names in words, for the learner's message."""
    return ", ".join(d.rsplit(".", 1)[1] for d in gives) or "nothing from the course"


def _init(package, exports, gives):
    lines = [f'"""What this exercise gives you from `{package}`; the rest is yours to write."""', "",
             f"__course_gives__ = {describe(gives)!r}", ""]
    lines += [f"from .{module.split('.', 1)[1]} import {name}" for module, name in exports]
    lines += ["", "", "def __getattr__(name):",
              "    raise ImportError(f\"this exercise gives you {__course_gives__}; \"",
              "                      f\"write {name} yourself\", name=name)", ""]
    return "\n".join(lines)


def given_files(gives):
    """{path: text} of what the exercise gives, for its grading interpreter."""
    files, exports = {}, {package: [] for package in PACKAGES}
    for dotted in gives:
        module_name, defining, name = _resolve(dotted)
        _ship(defining, files)
        if module_name in PACKAGES:
            exports[module_name].append((defining, name))
        else:
            _ship(module_name, files)
    for package in PACKAGES:
        files[f"{package}/__init__.py"] = _init(package, exports[package], gives)
    return dict(sorted(files.items()))
