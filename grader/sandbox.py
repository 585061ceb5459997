"""Run learner code in a fresh namespace, and undo what it did to the interpreter.

Learner code runs in the same interpreter as the grader (CPython for the CLI,
Pyodide in the browser's worker). It can redefine builtins, swap sys.stdout,
install trace hooks or patch our modules. `Sandbox` snapshots all of that
before the learner's code runs and restores it afterwards, using only
references captured up front, so a patched module cannot stop the restore.
Modules the learner imported are dropped again afterwards.

This protects honest feedback; it is not a security boundary. Client-side
grading can always be read and bypassed by a determined learner.
"""

import builtins
import io
import sys
from operator import attrgetter, is_

from .facts import OUTPUT_LIMIT

# Restored after every run: every module loaded before any learner code ran (our
# own, the reference engine, and the standard library: `io.StringIO = None` must not
# outlive its run). `sys` is restored field by field; `__main__` is not ours.
NOT_RESTORED = frozenset({"sys", "builtins", "__main__"})


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


class _Pristine:
    """The interpreter as it was before any learner code ran, captured once.

    Our own modules, the reference engine and the stdlib modules the tests lean
    on never change legitimately, so one snapshot serves every restore (and no
    module has to be re-imported, which would cost a compile per run).
    """

    def __init__(self):
        _loaded_at_start.update(sys.modules)
        self.modules = {name: mod for name, mod in sys.modules.items()
                        if _is_trusted(name) and mod is not None
                        and type(getattr(mod, "__dict__", None)) is dict}
        self.module_list = list(self.modules.values())
        self.module_names = frozenset(sys.modules)
        states = [_dict_state(mod.__dict__) for mod in self.module_list]
        # every namespace a restore puts back: builtins, then each trusted module's dict
        self.dicts = [_dict_state(builtins.__dict__)] + states
        functions, self.classes = _snapshot_objects(state for _, state, _, _ in states)
        self.functions = [fn for fn, _ in functions]
        # one column per attribute, so a check is a single C-level pass: map(is_, ...)
        self.function_attrs = [(attrgetter(attr), [dict(attrs)[attr] for _, attrs in functions], attr)
                               for attr in FUNCTION_ATTRS]


def _dict_state(live):
    """(the live dict, a copy, its keys, its values): what a restore compares and puts back."""
    saved = dict(live)
    return live, saved, list(saved), list(saved.values())


# A container, not a plain global: restoring this module's own dict must not forget it.
_pristine = {}


def _is_trusted(name):
    return name not in NOT_RESTORED and (name in _loaded_at_start or name.split(".")[0] in ("grader", "engine"))


_loaded_at_start = set()


class Sandbox:
    """Note what is loaded now; `restore()` brings back the pristine interpreter.

    A restore runs after the learner's code and after every hidden test, so it
    checks before it writes: the common case, nothing touched, costs a few
    C-level passes instead of hundreds of attribute writes.
    """

    def __init__(self):
        if "state" not in _pristine:
            _pristine["state"] = _Pristine()
        self._pristine = _pristine["state"]
        self._modules = dict(sys.modules)
        self._streams = (sys.stdout, sys.stderr, sys.stdin)
        self._hooks = (sys.gettrace(), sys.getprofile(), sys.displayhook, sys.excepthook)
        self._recursion_limit = sys.getrecursionlimit()
        self.restore = self._make_restore()

    def _make_restore(self):
        # Everything the restore needs is captured here, as locals of this closure.
        pristine = self._pristine
        saved_modules, live_modules = self._modules, sys.modules
        trusted_modules, trusted_module_list, known_names = (pristine.modules, pristine.module_list,
                                                             pristine.module_names)
        namespaces, functions, function_attrs, classes = (pristine.dicts, pristine.functions,
                                                          pristine.function_attrs, pristine.classes)
        set_attr, del_attr, type_dict, values, listed, zipped = setattr, delattr, vars, dict.values, list, zip
        streams, hooks, limit = self._streams, self._hooks, self._recursion_limit
        clear, update, keys = dict.clear, dict.update, dict.keys
        settrace, setprofile, setlimit = sys.settrace, sys.setprofile, sys.setrecursionlimit
        gettrace, getprofile = sys.gettrace, sys.getprofile
        sys_module, is_trusted = sys, _is_trusted
        length, every, mapped, same = len, all, map, is_

        def unchanged(live_values, saved_values):
            # identity, never ==: a learner's object could answer __eq__ with a lie
            return length(live_values) == length(saved_values) and every(mapped(same, live_values, saved_values))

        def restore_dict(live, saved, saved_keys, saved_values):
            if not (unchanged(listed(values(live)), saved_values) and unchanged(listed(live), saved_keys)):
                clear(live)
                update(live, saved)

        def restore():
            # Put back the hooks that were there (a debugger's, a profiler's), dropping the learner's.
            if gettrace() is not hooks[0]:
                settrace(hooks[0])
            if getprofile() is not hooks[1]:
                setprofile(hooks[1])
            sys_module.displayhook, sys_module.excepthook = hooks[2], hooks[3]
            sys_module.stdout, sys_module.stderr, sys_module.stdin = streams
            setlimit(limit)
            for live, state, state_keys, state_values in namespaces:
                restore_dict(live, state, state_keys, state_values)
            for get, saved, attr in function_attrs:
                if not unchanged(listed(mapped(get, functions)), saved):
                    for fn, value in zipped(functions, saved):
                        set_attr(fn, attr, value)
            for cls, saved, saved_keys, saved_values in classes:
                live = type_dict(cls)
                if unchanged(listed(live.values()), saved_values) and unchanged(listed(live), saved_keys):
                    continue
                for key in [k for k in live if k not in saved]:
                    del_attr(cls, key)
                for key, value in saved.items():
                    if key not in ("__dict__", "__weakref__", "__doc__") and type_dict(cls).get(key) is not value:
                        set_attr(cls, key, value)
            # Modules imported during the run go; a trusted one we have no pristine copy of
            # goes too (the next import is fresh); the pristine ones are put back in place.
            for name in keys(live_modules) - known_names:
                if name not in saved_modules or is_trusted(name):
                    del live_modules[name]
            if not unchanged(listed(mapped(live_modules.get, trusted_modules)), trusted_module_list):
                update(live_modules, trusted_modules)
        return restore


FUNCTION_ATTRS = ("__code__", "__defaults__", "__kwdefaults__")


def _snapshot_objects(module_states):
    """Functions (code, defaults) and classes (their dicts) defined in our modules,
    so a patch like `grade.__code__ = ...` or `Learner.__getitem__ = ...` is undone."""
    functions, classes, seen = [], [], set()
    for state in module_states:
        for value in state.values():
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, type) and isinstance(value.__module__, str) and _is_trusted(value.__module__):
                saved = dict(vars(value))
                classes.append((value, saved, list(saved), list(saved.values())))
                members = list(vars(value).values())
            else:
                members = [value]
            for member in members:
                fn = getattr(member, "__func__", member)
                if type(fn).__name__ == "function":
                    functions.append((fn, [(a, getattr(fn, a)) for a in FUNCTION_ATTRS]))
    return functions, classes


def fresh_namespace():
    return {"__name__": "__main__", "__builtins__": builtins.__dict__.copy()}
