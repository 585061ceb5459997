"""Keep learner code away from the JavaScript bridge in the browser's worker.

Pyodide's interpreter carries a bridge to the worker's JavaScript (`js`,
`pyodide.ffi`, the `_pyodide_core` built-in). From JavaScript, code could
reach storage the site relies on. Nothing that decides a verdict lives in this
interpreter any more (see grader.compare), but pasted code must not reach the
bridge either. Two layers do it:

1. An audit hook (PEP 578), armed once at boot and never removable, refuses
   what would reach hidden objects: the `gc` object walks, reading or setting
   function defaults and code (where the guard keeps its own state), adding
   audit hooks, and importing the bridge.
2. `hide()` / `unhide()` take the bridge out of the interpreter for the length
   of every call from the page: out of `sys.modules`, out of the import system
   and the event loop, and the bridge modules' own namespaces emptied, so no
   function that learner code can find (through `object.__subclasses__()`,
   `__globals__` or frames) leads back to it. Only the worker's JavaScript
   holds these two functions; no Python namespace does.

`_imp.create_builtin`, which would build a fresh copy of a built-in module, is
replaced by a version that refuses every module already loaded at boot.

This is defence in depth, not a sandbox: the worker's JavaScript also drops
its own network and storage powers once Python is up (worker.js).
"""

import sys

from .sandbox import BRIDGE_ROOTS

BLOCKED_EVENTS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents",
                            "sys.addaudithook", "function.__new__", "code.__new__"})
GUARDED_ATTRIBUTES = frozenset({"__defaults__", "__kwdefaults__"})
SET_GUARDED_ATTRIBUTES = frozenset({"__code__", "__defaults__", "__kwdefaults__"})

# Module-level source, compiled into a namespace of its own: the functions below
# keep their state in default arguments, which the audit hook makes unreadable.
_SOURCE = '''
def audit(event, args, _blocked=BLOCKED_EVENTS, _get=GUARDED_ATTRIBUTES,
          _set=SET_GUARDED_ATTRIBUTES, _roots=BRIDGE_ROOTS, _type=type, _str=str, _error=RuntimeError):
    if event in _blocked:
        raise _error(f"{event} is not available in exercises")
    if event == "object.__getattr__" and args[1] in _get:
        raise _error(f"reading {args[1]} is not available in exercises")
    if event == "object.__setattr__" and args[1] in _set:
        raise _error(f"changing {args[1]} is not available in exercises")
    if event == "import" and _type(args[0]) is _str and args[0].split(".")[0] in _roots:
        raise _error(f"import {args[0]} is not available in exercises")


def create_builtin(spec, _original=ORIGINAL_CREATE_BUILTIN, _refused=REFUSED, _error=ImportError):
    name = spec.name
    if name in _refused or name.split(".")[0] in _refused:
        raise _error(f"the built-in module {name!r} cannot be rebuilt here")
    return _original(spec)


def hide(_state=STATE, _modules=MODULES, _roots=BRIDGE_ROOTS, _path=META_PATH, _main=MAIN, _gc=GC,
         _class_values=CLASS_VALUES, _delattr=delattr):
    """Take the bridge out of the interpreter (before running anything from the page)."""
    if _state["hidden"]:
        return
    names = [n for n in list(_modules) if n.split(".")[0] in _roots]
    saved = _state["modules"] = {n: _modules.pop(n) for n in names}
    _state["namespaces"] = []
    for module in saved.values():
        namespace = getattr(module, "__dict__", None)
        if type(namespace) is dict:
            _state["namespaces"].append((namespace, dict(namespace)))
            keep = {k: namespace[k] for k in ("__name__",) if k in namespace}
            namespace.clear()
            namespace.update(keep)
    _state["meta_path"] = list(_path)
    _path[:] = [f for f in _path if type(f).__module__.split(".")[0] not in _roots]
    _state["main"] = {k: v for k, v in _main.items() if _is_bridge(v, _roots)}
    for k in _state["main"]:
        del _main[k]
    for cls, key, value in _class_values:
        _delattr(cls, key)
    _state["hidden"] = True
    _gc.enable()  # the run's garbage is collected (and its finalizers run) while hidden


def unhide(_state=STATE, _modules=MODULES, _path=META_PATH, _main=MAIN, _gc=GC,
           _class_values=CLASS_VALUES, _setattr=setattr):
    """Put the bridge back for Pyodide's own use between calls."""
    if not _state["hidden"]:
        return
    _gc.disable()  # no collection, so no learner finalizer, runs while the bridge is back
    for namespace, saved in _state["namespaces"]:
        namespace.update(saved)
    _modules.update(_state["modules"])
    _path[:] = _state["meta_path"]
    _main.update(_state["main"])
    for cls, key, value in _class_values:
        _setattr(cls, key, value)
    _state.update(modules={}, namespaces=[], meta_path=[], main={}, hidden=False)


def _is_bridge(value, roots):
    if "Js" in type(value).__name__:
        return True
    module = getattr(type(value), "__module__", "") or ""
    name = getattr(value, "__name__", "") if type(value).__name__ == "module" else ""
    return (type(module) is str and module.split(".")[0] in roots) or \\
        (type(name) is str and name.split(".")[0] in roots)
'''


def _subclasses(root=object):
    found, stack = set(), [root]
    while stack:
        for sub in type.__subclasses__(stack.pop()):
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return found


def _bridge_class_values():
    """Objects of the bridge that classes defined in bridge modules hold (converters,
    proxies): reachable through object.__subclasses__(), so hidden with the rest."""
    values = []
    for cls in _subclasses():
        module = vars(cls).get("__module__")
        if type(module) is not str or module.split(".")[0] not in BRIDGE_ROOTS:
            continue
        for key, value in list(vars(cls).items()):
            kind = type(value)
            if isinstance(value, type) or kind.__name__ in ("function", "str", "int", "tuple", "NoneType"):
                continue
            if "Js" in kind.__name__ or str(getattr(kind, "__module__", "")).split(".")[0] in BRIDGE_ROOTS \
                    or kind.__name__.endswith("Converter"):
                values.append((cls, key, value))
    return tuple(values)


def _unpatch_the_standard_library():
    """Pyodide wraps `time.sleep` (and `asyncio.run`) in functions of its event-loop
    module, whose namespace hide() empties: put the standard ones back, so a
    learner's `time.sleep` still sleeps (and the worker can still be stopped)."""
    import asyncio
    import time

    time.sleep = getattr(time.sleep, "__wrapped__", time.sleep)
    run_module = str(getattr(asyncio.run, "__module__", ""))
    if run_module.split(".")[0] in BRIDGE_ROOTS:
        asyncio.run = asyncio.runners.run


def arm():
    """Install the guard once; returns (hide, unhide) for the worker's JavaScript to keep.

    Refuses a second time: whoever armed it holds the only pair of functions.
    """
    import _imp
    import gc

    if type(_imp.create_builtin).__name__ != "builtin_function_or_method":
        raise RuntimeError("the guard is armed already")
    _unpatch_the_standard_library()
    namespace = {
        "__builtins__": __builtins__, "BLOCKED_EVENTS": BLOCKED_EVENTS,
        "GUARDED_ATTRIBUTES": GUARDED_ATTRIBUTES, "SET_GUARDED_ATTRIBUTES": SET_GUARDED_ATTRIBUTES,
        "BRIDGE_ROOTS": BRIDGE_ROOTS, "ORIGINAL_CREATE_BUILTIN": _imp.create_builtin,
        "REFUSED": frozenset(sys.modules) | BRIDGE_ROOTS | {"_imp"},
        "STATE": {"hidden": False}, "MODULES": sys.modules, "META_PATH": sys.meta_path,
        "MAIN": sys.modules["__main__"].__dict__, "GC": gc, "CLASS_VALUES": _bridge_class_values(),
    }
    exec(compile(_SOURCE, "<guard>", "exec"), namespace)
    # Nothing below may keep a reference to `namespace`: the functions' globals are
    # that dict, and their state is in their defaults, which learner code can't read.
    _imp.create_builtin = namespace["create_builtin"]
    sys.addaudithook(namespace["audit"])
    pair = namespace["hide"], namespace["unhide"]
    for key in list(namespace):
        if key not in ("__builtins__", "_is_bridge"):
            del namespace[key]
    return pair
