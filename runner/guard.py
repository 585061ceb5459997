"""Keep learner code away from the JavaScript bridge in the browser's worker.

Pyodide's interpreter carries a bridge to the worker's JavaScript (`js`,
`pyodide.ffi`, the `_pyodide_core` built-in). From JavaScript, code could
reach storage the site relies on. Nothing that decides a verdict lives in this
interpreter any more (see grader.compare), but pasted code must not reach the
bridge either. Two layers do it:

1. An audit hook (PEP 578), armed once at boot and never removable, refuses
   what would reach hidden objects: the `gc` object walks, reading or setting
   function defaults and code (where the guard keeps its own state), trace,
   profile and monitoring callbacks (they would see the guard's own frames),
   adding audit hooks, and importing the bridge. While the bridge is hidden it
   also refuses writing files Python could import (`.py`, `.pyc`, ...; the
   current directory is on `sys.path`) and moving, deleting or changing the
   modes of any file, so no file outlives a run to change what a later one imports.
2. `hide()` / `unhide()` take the bridge out of the interpreter for the length
   of every call from the page: out of `sys.modules`, out of the import system
   and the event loop, and the bridge modules' own namespaces emptied, so no
   function that learner code can find (through `object.__subclasses__()`,
   `__globals__` or frames) leads back to it. Only the worker's JavaScript
   holds these two functions; no Python namespace does.

hide() and unhide() run no learner code while they hold the bridge: every
function they call is bound at arming time (a patched `gc.enable` or `getattr`
is never called), they read types and dicts through C-level accessors (no
metaclass, `__eq__` or `__hash__` of the learner's runs), automatic garbage
collection is off, and every learner object they take out of a slot is kept
alive, not freed. Those are released at the end of the next hide(), once the
bridge is out and hide() has dropped its own state, so a learner's `__del__`
finds neither the bridge nor the frames that hold it. unhide() also puts the
bridge's namespaces, `sys.modules` entries and classes back exactly as they
were, dropping whatever learner code planted there.

`_imp.create_builtin`, which would build a fresh copy of a built-in module, is
replaced by a version that refuses every module already loaded at boot.

This is defence in depth, not a sandbox: the worker's JavaScript also drops
its own network and storage powers once Python is up (worker.js).
"""

import sys

from .sandbox import BRIDGE_ROOTS

BLOCKED_EVENTS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents",
                            "sys.addaudithook", "function.__new__", "code.__new__",
                            "sys.settrace", "sys.setprofile", "sys._settraceallthreads",
                            "sys._setprofileallthreads", "sys.monitoring.register_callback"})
GUARDED_ATTRIBUTES = frozenset({"__defaults__", "__kwdefaults__"})
SET_GUARDED_ATTRIBUTES = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
# Files the import system would pick up in a later run (the current directory is on sys.path).
IMPORTABLE = (".py", ".pyc", ".pyw", ".pth", ".so", ".zip", ".whl", ".egg", ".pyz")
FILE_EVENTS = frozenset({"os.rename", "os.link", "os.symlink", "os.remove", "os.rmdir", "os.truncate",
                         "os.chmod", "os.chown", "os.utime", "os.chflags"})
WRITE_FLAGS = 0o3 | 0o100 | 0o1000 | 0o2000  # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND

# Module-level source, compiled into a namespace of its own: the functions below
# keep their state in default arguments, which the audit hook makes unreadable.
_SOURCE = '''
def audit(event, args, _blocked=BLOCKED_EVENTS, _get=GUARDED_ATTRIBUTES, _set=SET_GUARDED_ATTRIBUTES,
          _roots=BRIDGE_ROOTS, _hidden=HIDDEN, _files=FILE_EVENTS, _importable=IMPORTABLE,
          _write_flags=WRITE_FLAGS, _type=type, _str=str, _bytes=bytes, _int=int, _error=RuntimeError):
    if event in _blocked:
        raise _error(f"{event} is not available in exercises")
    if event == "object.__getattr__" and _type(args[1]) is _str and args[1] in _get:
        raise _error(f"reading {args[1]} is not available in exercises")
    if event == "object.__setattr__" and _type(args[1]) is _str and args[1] in _set:
        raise _error(f"changing {args[1]} is not available in exercises")
    if event == "import" and _type(args[0]) is _str and args[0].split(".")[0] in _roots:
        raise _error(f"import {args[0]} is not available in exercises")
    if not _hidden[0]:
        return
    if event in _files:
        raise _error(f"{event} is not available in exercises")
    if event == "open":
        mode, flags, path = args[1], args[2], args[0]
        writes = (_type(mode) is _str and ("w" in mode or "a" in mode or "x" in mode or "+" in mode)) or \\
            (_type(flags) is _int and flags & _write_flags)
        if _type(path) is _bytes:
            path = path.decode("utf-8", "replace")
        if writes and _type(path) is not _int and (_type(path) is not _str or path.endswith(_importable)):
            raise _error("writing a file Python could import is not available in exercises")


def create_builtin(spec, _original=ORIGINAL_CREATE_BUILTIN, _refused=REFUSED, _error=ImportError):
    name = spec.name
    if name in _refused or name.split(".")[0] in _refused:
        raise _error(f"the built-in module {name!r} cannot be rebuilt here")
    return _original(spec)


def _is_bridge(value, genuine, roots, _type=type, _str=str, _id=id, _name=TYPE_NAME, _cdict=CLASS_DICT,
               _get=PROXY_GET, _as_str=AS_STR, _contains=STR_CONTAINS, _partition=str.partition,
               _is_class=IS_CLASS):
    """A genuine bridge module, a JS proxy, a bridge class or an object of one (Pyodide's
    import hook puts a class, not an instance, on sys.meta_path); reads nothing through
    the learner's methods."""
    if _id(value) in genuine:
        return True
    kind = _type(value)
    if _is_class(value):
        kind = value
    name = _name(kind)
    module = _get(_cdict(kind), "__module__")
    return _contains(_as_str(name), "Js") or (_type(module) is _str and _partition(module, ".")[0] in roots)


def hide_once(_state=STATE, _modules=MODULES, _roots=BRIDGE_ROOTS, _path=META_PATH, _main=MAIN,
              _class_values=CLASS_VALUES, _is_bridge=_is_bridge, _gc_enable=GC_ENABLE, _gc_disable=GC_DISABLE,
              _type=type, _str=str, _id=id, _list=list, _dict=dict, _set=set, _getattr=getattr,
              _items=dict.items, _clear=dict.clear, _update=dict.update, _partition=str.partition,
              _module_dict=MODULE_DICT, _module_type=MODULE_TYPE, _issubclass=issubclass, _get=PROXY_GET,
              _cdict=CLASS_DICT, _tdel=type.__delattr__, _hidden=HIDDEN):
    """Take the bridge out; returns what learner code had left in its slots, to be freed
    by the caller once this frame, which holds the bridge, is gone."""
    if _state["hidden"]:
        return []
    displaced = _state["displaced"]
    _state["displaced"] = []
    _gc_disable()  # no collection, so no learner finalizer, while this frame holds the bridge
    entries = _list(_items(_modules))
    displaced.append(entries)
    saved, kept = {}, {}
    for name, module in entries:  # only str keys stay: no learner __eq__ runs in a lookup
        if _type(name) is _str:
            (saved if _partition(name, ".")[0] in _roots else kept)[name] = module
    _clear(_modules)
    _update(_modules, kept)
    _state["modules"] = saved
    genuine = _set(_id(m) for m in saved.values())
    _state["namespaces"] = []
    for name, module in saved.items():
        namespace = _module_dict(module) if _issubclass(_type(module), _module_type) else None
        if _type(namespace) is _dict:
            _state["namespaces"].append((namespace, {k: v for k, v in _items(namespace) if _type(k) is _str}))
            _clear(namespace)
            namespace["__name__"] = name
    finders = _list(_path)
    _state["meta_path"] = finders
    _path[:] = [f for f in finders if not _is_bridge(f, genuine, _roots)]
    entries = _list(_items(_main))
    displaced.append(entries)
    _state["main"] = {k: v for k, v in entries if _type(k) is _str and _is_bridge(v, genuine, _roots)}
    _clear(_main)
    _update(_main, {k: v for k, v in entries if _type(k) is _str and k not in _state["main"]})
    for cls, key, value in _class_values:
        if _get(_cdict(cls), key) is value:
            _tdel(cls, key)
    _state["hidden"] = _hidden[0] = True
    _gc_enable()  # the run's garbage is collected (and its finalizers run) while hidden
    return displaced


def hide(_hide_once=hide_once):
    """Take the bridge out of the interpreter (before running anything from the page)."""
    displaced = _hide_once()
    displaced.clear()  # learner finalizers run here: the bridge is out, and no frame holds it


def unhide(_state=STATE, _modules=MODULES, _roots=BRIDGE_ROOTS, _path=META_PATH, _main=MAIN,
           _classes=BRIDGE_CLASSES, _gc_disable=GC_DISABLE, _hidden=HIDDEN, _type=type, _str=str,
           _list=list, _items=dict.items, _values=dict.values, _clear=dict.clear, _update=dict.update,
           _partition=str.partition, _cdict=CLASS_DICT, _get=PROXY_GET, _all=all, _map=map, _is=IS,
           _len=len, _tset=type.__setattr__, _tdel=type.__delattr__):
    """Put the bridge back for Pyodide's own use between calls, exactly as it was.
    Frees nothing: what learner code left in the bridge's slots waits for the next hide()."""
    if not _state["hidden"]:
        return
    _gc_disable()  # no collection, so no learner finalizer, runs while the bridge is back
    displaced = _state["displaced"]
    for namespace, saved in _state["namespaces"]:
        displaced.append(_list(_items(namespace)))
        _clear(namespace)
        _update(namespace, saved)
    entries = _list(_items(_modules))
    displaced.append(entries)
    _clear(_modules)
    _update(_modules, {k: v for k, v in entries if _type(k) is _str and _partition(k, ".")[0] not in _roots})
    _update(_modules, _state["modules"])
    displaced.append(_list(_path))
    _path[:] = _state["meta_path"]
    entries = _list(_items(_main))
    displaced.append(entries)
    _clear(_main)
    _update(_main, {k: v for k, v in entries if _type(k) is _str})
    _update(_main, _state["main"])
    for cls, saved, keys, values in _classes:  # the bridge's classes as at boot (hide() took values out)
        live = _cdict(cls)
        if _len(live) == _len(keys) and _all(_map(_is, live, keys)) and _all(_map(_is, live.values(), values)):
            continue
        displaced.append(_list(live.items()))
        for key in [k for k in live if k not in saved]:
            _tdel(cls, key)
        for key, value in saved.items():
            if key not in ("__dict__", "__weakref__") and _get(live, key) is not value:
                _tset(cls, key, value)
    _state.update(modules={}, namespaces=[], meta_path=[], main={}, hidden=False)
    _hidden[0] = False
'''
# Compiled once, when this module is imported (in the build's memory snapshot, for the
# browser), not at arming time: right after the restore, much of CPython's compiler
# still runs as WebAssembly compiled on first call, and arming is on every boot's
# path. A code object holds no state: arm() runs it in a namespace of its own, before
# any learner code runs.
_CODE = compile(_SOURCE, "<guard>", "exec")


def _subclasses(root=object):
    found, stack = set(), [root]
    while stack:
        for sub in type.__subclasses__(stack.pop()):
            if sub not in found:
                found.add(sub)
                stack.append(sub)
    return found


def _bridge_class_values(classes):
    """Objects of the bridge that classes defined in bridge modules hold (converters,
    proxies): reachable through object.__subclasses__(), so hidden with the rest."""
    values = []
    for cls in classes:
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


def _bridge_classes(classes):
    """Every class defined in a bridge module, with its dict as it is now: unhide()
    puts back whatever learner code changed in them while the bridge was hidden."""
    saved_classes = []
    for cls in classes:
        module = vars(cls).get("__module__")
        if type(module) is str and module.split(".")[0] in BRIDGE_ROOTS:
            saved = dict(vars(cls))
            saved_classes.append((cls, saved, tuple(saved), tuple(saved.values())))
    return tuple(saved_classes)


def arm():
    """Install the guard once; returns (hide, unhide) for the worker's JavaScript to keep.

    Refuses a second time: whoever armed it holds the only pair of functions.
    """
    import _imp
    import gc
    from operator import is_

    if type(_imp.create_builtin).__name__ != "builtin_function_or_method":
        raise RuntimeError("the guard is armed already")
    _unpatch_the_standard_library()
    classes = _subclasses()
    namespace = {
        "__builtins__": __builtins__, "BLOCKED_EVENTS": BLOCKED_EVENTS,
        "GUARDED_ATTRIBUTES": GUARDED_ATTRIBUTES, "SET_GUARDED_ATTRIBUTES": SET_GUARDED_ATTRIBUTES,
        "BRIDGE_ROOTS": BRIDGE_ROOTS, "ORIGINAL_CREATE_BUILTIN": _imp.create_builtin,
        "REFUSED": frozenset(sys.modules) | BRIDGE_ROOTS | {"_imp"},
        "STATE": {"hidden": False, "displaced": []}, "MODULES": sys.modules, "META_PATH": sys.meta_path,
        "MAIN": sys.modules["__main__"].__dict__, "CLASS_VALUES": _bridge_class_values(classes),
        "BRIDGE_CLASSES": _bridge_classes(classes), "HIDDEN": [False], "FILE_EVENTS": FILE_EVENTS,
        "IMPORTABLE": IMPORTABLE, "WRITE_FLAGS": WRITE_FLAGS, "GC_ENABLE": gc.enable, "GC_DISABLE": gc.disable,
        # C-level readers: no metaclass, __eq__ or __hash__ of learner code runs through them
        "IS_CLASS": lambda value, _type=type, _sub=issubclass: _sub(_type(value), _type),
        "TYPE_NAME": type.__dict__["__name__"].__get__, "CLASS_DICT": type.__dict__["__dict__"].__get__,
        "PROXY_GET": type(type.__dict__).get, "AS_STR": str.__str__, "STR_CONTAINS": str.__contains__,
        "MODULE_TYPE": type(sys), "MODULE_DICT": type(sys).__dict__["__dict__"].__get__, "IS": is_,
    }
    exec(_CODE, namespace)
    # Nothing below may keep a reference to `namespace`: the functions' globals are
    # that dict, and their state is in their defaults, which learner code can't read.
    _imp.create_builtin = namespace["create_builtin"]
    sys.addaudithook(namespace["audit"])
    pair = namespace["hide"], namespace["unhide"]
    for key in list(namespace):
        if key != "__builtins__":
            del namespace[key]
    return pair
