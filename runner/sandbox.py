"""Run learner code in a fresh namespace, and undo what it did to the interpreter.

Learner code runs in the same interpreter as the grader (CPython for the CLI,
Pyodide in the browser's worker). It can redefine builtins, swap sys.stdout,
install trace hooks or patch our modules. `Sandbox` snapshots all of that
before the learner's code runs and restores it afterwards, using only
references captured up front, so a patched module cannot stop the restore.
Modules the learner imported are dropped again afterwards.

This keeps one run from changing the next; it decides no verdict (the
comparison happens where learner code can't reach: grader.compare). In the
browser, runner.guard makes the restore's own state unreadable and unchangeable.
"""

import builtins
import gc
import io
import os
import sys
from operator import attrgetter, is_

from .facts import OUTPUT_LIMIT

# Restored after every run: every module loaded before any learner code ran (our
# own, the reference engine, and the standard library: `io.StringIO = None` must not
# outlive its run). `sys` is restored per run (see new_restore); `__main__` is not ours.
# The JavaScript bridge is runner.guard's business: it is hidden during runs.
NOT_RESTORED = frozenset({"sys", "builtins", "__main__"})
BRIDGE_ROOTS = frozenset({"js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core"})
COURSE_PACKAGES = frozenset({"runner", "grader", "engine", "labs"})


class CappedOutput(io.TextIOBase):
    """A text stream that keeps the first `limit` characters and counts the rest."""

    def __init__(self, limit=OUTPUT_LIMIT):
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.dropped = 0

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.limit - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(len(text), room)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def getvalue(self):
        return "".join(self.parts)

    @property
    def truncated(self):
        return self.dropped > 0


def _dict_state(live):
    """(the live dict, a copy, its keys, its values): what a restore compares and puts back."""
    saved = dict(live)
    return live, saved, list(saved), list(saved.values())


def _capture():
    """The interpreter as it was before any learner code ran, captured once.

    Every loaded module of the standard library, the grader, the engine and the
    labs never changes legitimately, so one snapshot serves every restore (and no
    module has to be re-imported, which would cost a compile per run). Other packages
    loaded beside them (a test runner's, torch's) are not the learner's to reach in the
    browser, and some of them compute attributes on access, so they are left out.
    The dicts and lists our own modules hold at top level (`runner.probes.PROBES`,
    `OPS`, ...) are restored too; private ones (`_training`) are state, and stay.
    """
    ours = frozenset(sys.stdlib_module_names) | COURSE_PACKAGES
    modules = {name: mod for name, mod in sys.modules.items()
               if name not in NOT_RESTORED and name.split(".")[0] in ours and mod is not None
               and type(getattr(mod, "__dict__", None)) is dict}
    states = [_dict_state(mod.__dict__) for mod in modules.values()]
    functions, classes = _snapshot_objects([state for _, state, _, _ in states], frozenset(modules))
    fns = [fn for fn, _ in functions]
    # one column per attribute, so a check is a single C-level pass: map(is_, ...)
    function_attrs = [(attrgetter(attr), [dict(attrs)[attr] for _, attrs in functions], attr)
                      for attr in FUNCTION_ATTRS] if fns else []
    containers = [value for name, mod in modules.items() if name.split(".")[0] in COURSE_PACKAGES
                  for key, value in vars(mod).items() if not key.startswith("_") and type(value) in (dict, list)]
    return {"modules": modules, "module_list": list(modules.values()), "names": frozenset(sys.modules),
            "namespaces": [_dict_state(builtins.__dict__)] + states
            + [_dict_state(value) for value in containers if type(value) is dict],
            "lists": [(value, list(value)) for value in containers if type(value) is list],
            "functions": fns, "function_attrs": function_attrs, "classes": classes}


def _unchanged(live_values, saved_values, _len=len, _all=all, _map=map, _is=is_):
    # identity, never ==: a learner's object could answer __eq__ with a lie
    return _len(live_values) == _len(saved_values) and _all(_map(_is, live_values, saved_values))


def _restore_dict(live, saved, saved_keys, saved_values, displaced, _unchanged=_unchanged, _list=list,
                  _values=dict.values, _items=dict.items, _clear=dict.clear, _update=dict.update):
    if not (_unchanged(_list(_values(live)), saved_values) and _unchanged(_list(live), saved_keys)):
        displaced.append(_list(_items(live)))  # kept alive: no learner __del__ runs mid-restore
        _clear(live)
        _update(live, saved)


def _restore_hooks(hooks, limit, settings, displaced, _gettrace=sys.gettrace, _settrace=sys.settrace,
                   _getprofile=sys.getprofile, _setprofile=sys.setprofile, _setrecursionlimit=sys.setrecursionlimit):
    """Put back the hooks that were there (a debugger's, a profiler's), dropping the
    learner's, and the interpreter's settings (recursion limit, directory, ...)."""
    if _gettrace() is not hooks[0]:
        displaced.append(_gettrace())
        _settrace(hooks[0])
    if _getprofile() is not hooks[1]:
        displaced.append(_getprofile())
        _setprofile(hooks[1])
    _setrecursionlimit(limit)
    for get, put, value in settings:
        try:
            if get() != value:
                put(value)
        except OSError:  # the directory is gone: nothing to go back to
            pass


def _restore_functions(functions, function_attrs, _unchanged=_unchanged, _list=list, _map=map, _zip=zip,
                       _setattr=setattr):
    for get, saved, attr in function_attrs:
        if not _unchanged(_list(_map(get, functions)), saved):
            for fn, value in _zip(functions, saved):
                _setattr(fn, attr, value)


def _restore_classes(classes, displaced, _unchanged=_unchanged, _list=list,
                     _cdict=type.__dict__["__dict__"].__get__, _get=type(type.__dict__).get,  # noqa: B008 - bound once, before learner code
                     _tset=type.__setattr__, _tdel=type.__delattr__):
    for cls, saved, saved_keys, saved_values in classes:
        live = _cdict(cls)  # not vars(cls): a patched metaclass could answer that
        if _unchanged(_list(live.values()), saved_values) and _unchanged(_list(live), saved_keys):
            continue
        displaced.append(_list(live.items()))
        for key in [k for k in live if k not in saved]:
            _tdel(cls, key)
        for key, value in saved.items():
            if key not in ("__dict__", "__weakref__", "__doc__") and _get(live, key) is not value:
                _tset(cls, key, value)


def _restore_modules(pristine, saved_modules, displaced, _modules=sys.modules, _unchanged=_unchanged, _list=list,
                     _map=map, _type=type, _str=str, _all=all, _is=is_, _items=dict.items, _clear=dict.clear,
                     _update=dict.update):
    """Modules imported during the run go; the pristine ones are put back in place.
    Only str keys stay, so no learner __eq__ or __hash__ runs in a lookup below."""
    entries = _list(_items(_modules))
    displaced.append(entries)
    if not _all(_map(_is, _map(_type, _modules), [_str] * len(entries))):
        _clear(_modules)
        _update(_modules, {k: v for k, v in entries if _type(k) is _str})
    for name in _modules.keys() - pristine["names"]:
        if name not in saved_modules:
            del _modules[name]
    if not _unchanged(_list(_map(_modules.get, pristine["modules"])), pristine["module_list"]):
        _update(_modules, pristine["modules"])


def _restore(pristine, saved_modules, hooks, limit, lists, dicts, settings, *, _restore_hooks=_restore_hooks,
             _restore_dict=_restore_dict, _restore_functions=_restore_functions, _restore_classes=_restore_classes,
             _restore_modules=_restore_modules, _unchanged=_unchanged, _list=list,
             _gc=(gc.isenabled, gc.disable, gc.enable)):
    """Bring back the pristine interpreter; returns what learner code had left behind,
    for the caller to free once this frame, which holds the pristine state, is gone.

    Every function it and its parts call is bound as a default, so patching a module (or
    `sys.gettrace`) cannot blind it or run inside it (and, once runner.guard is armed,
    defaults can be neither read nor changed). It reads classes and dicts through
    C-level accessors, frees nothing and collects no garbage while it runs, so no
    learner `__eq__`, `__hash__`, metaclass or `__del__` runs with its frame on the stack."""
    displaced = []
    collecting = _gc[0]()
    _gc[1]()
    _restore_hooks(hooks, limit, settings, displaced)
    for live, saved in lists + pristine["lists"]:
        if not _unchanged(_list(live), saved):
            displaced.append(_list(live))
            live[:] = saved
    for live, state, state_keys, state_values in dicts + pristine["namespaces"]:
        _restore_dict(live, state, state_keys, state_values, displaced)
    _restore_functions(pristine["functions"], pristine["function_attrs"])
    _restore_classes(pristine["classes"], displaced)
    _restore_modules(pristine, saved_modules, displaced)
    if collecting:
        _gc[2]()
    return displaced


def _bind(now, _pristine=[]):  # noqa: B006 - the one pristine capture lives in this default
    """The sealed restore: `now` (what new_restore read) over the pristine capture.
    Runs nothing of the learner's, so no frame of learner code ever holds the capture."""
    if not _pristine:
        _pristine.append(_capture())

    def restore(_args=(_pristine[0], *now), _restore=_restore):
        displaced = _restore(*_args)
        del _args
        displaced.clear()  # learner finalizers run here, with no state of the restore on the stack
    return restore


def new_restore(_bind=_bind):
    """A restore function for the interpreter as it is now (`sys` and its hooks, the
    import system, the current directory) over the pristine capture. It takes no
    arguments: all it needs is bound."""
    # the import system as it is now; the bridge's finder is runner.guard's to put back
    finders = [f for f in sys.meta_path if str(type(f).__module__).split(".")[0] not in BRIDGE_ROOTS]
    lists = [(sys.path, list(sys.path)), (sys.path_hooks, list(sys.path_hooks)), (sys.meta_path, finders)]
    warnings = sys.modules.get("warnings")
    if type(getattr(warnings, "filters", None)) is list:
        lists.append((warnings.filters, list(warnings.filters)))
    # sys's own namespace (streams, hooks, path, modules, its functions) and the finder cache
    dicts = [_dict_state(sys.__dict__), _dict_state(sys.path_importer_cache)]
    settings = [(os.getcwd, os.chdir, os.getcwd())]
    if hasattr(sys, "get_int_max_str_digits"):
        settings.append((sys.get_int_max_str_digits, sys.set_int_max_str_digits, sys.get_int_max_str_digits()))
    restore = _bind((dict(sys.modules), (sys.gettrace(), sys.getprofile()), sys.getrecursionlimit(),
                     lists, dicts, settings))
    restore.streams = (sys.stdout, sys.stderr, sys.stdin)
    return restore


class Sandbox:
    """Note what is loaded now; `restore()` brings back the pristine interpreter.

    A restore runs after the learner's code and after the cases, so it checks
    before it writes: the common case, nothing touched, costs a few C-level
    passes instead of hundreds of attribute writes.
    """

    def __init__(self):
        self.restore = new_restore()


FUNCTION_ATTRS = ("__code__", "__defaults__", "__kwdefaults__")


def _snapshot_objects(module_states, trusted_names):
    """Functions (code, defaults) and classes (their dicts) defined in our modules,
    so a patch like `grade.__code__ = ...` or `Learner.__getitem__ = ...` is undone.
    Once the guard is armed only the classes are needed, and the capture skips
    every other value at once (the browser's boot pays for this walk)."""
    armed = guard_armed()
    functions, classes, seen = [], [], set()
    for state in module_states:
        for value in state.values():
            is_class = (isinstance(value, type) and isinstance(value.__module__, str)
                        and value.__module__ in trusted_names)
            if (armed and not is_class) or id(value) in seen:
                continue
            seen.add(id(value))
            if is_class:
                saved = dict(vars(value))
                classes.append((value, saved, list(saved), list(saved.values())))
            if armed:
                continue
            for member in (saved.values() if is_class else [value]):
                fn = getattr(member, "__func__", member)
                if type(fn).__name__ == "function":
                    functions.append((fn, [(a, getattr(fn, a)) for a in FUNCTION_ATTRS]))
    return functions, classes


def guard_armed():
    """Once runner.guard is armed, code and defaults can't be changed (nor read):
    there is nothing of theirs to restore."""
    import _imp

    return type(_imp.create_builtin).__name__ != "builtin_function_or_method"


def fresh_namespace():
    return {"__name__": "__main__", "__builtins__": builtins.__dict__.copy()}
