"""Call targets that torch.fx's generated code can name.

torch.fx writes a call_function node's target into the graph's Python code by
name. For a callable of torch's own it writes its qualified name; for any other
it keeps the object in the code's globals. Two kinds of targets break that: a
method bound to a class (`MyFunction.apply` of a torch.autograd.Function),
whose module fx cannot find, and a callable object whose qualified name is its
class's (a TorchScript function is written `torch.jit.ScriptFunction(...)`,
which constructs instead of calling). Such a target is recorded as a plain
function that calls it, which fx keeps in the globals.
"""

import builtins
import re
import sys

from torch.fx import graph as fx_graph
from torch.fx import node as fx_node

# torch.fx's own naming (private): without it, fx is left to name every target.
_qualified_name = getattr(fx_node, "_get_qualified_name", None)
_from_torch = getattr(fx_graph, "_is_from_torch", None)


# Targets whose qualified name led back to them, by id: module-level callables,
# which live as long as their module, so later captures skip fx's naming. The
# entry keeps its target (`is` rejects an id reused by another object) and the
# name, which must still lead back to it: a module attribute rebound since (a
# patched torch function) would make fx's code call the new one.
_NAMED = {}


def nameable(target):
    """target itself when fx's generated code refers to it, else a function that calls it."""
    known = _NAMED.get(id(target))
    if known is not None and known[0] is target and _resolve(known[1]) is target:
        return target
    if _written_right(target):
        return target

    def call(*args, **kwargs):
        return target(*args, **kwargs)

    owner = getattr(target, "__self__", None)
    base = getattr(target, "__name__", None) or type(target).__name__
    if isinstance(owner, type):
        base = f"{owner.__name__}_{base}"
    call.__name__ = call.__qualname__ = re.sub(r"\W", "_", base) or "call"
    return call


def _written_right(target):
    if _qualified_name is None:
        return True
    try:
        name = _qualified_name(target)
    except Exception:  # noqa: BLE001 - fx cannot name it at all
        return False
    resolved = _resolve(name) is target
    if resolved:
        _NAMED[id(target)] = (target, name)
    if _from_torch is not None and not _from_torch(target):
        return True  # fx keeps the object itself in the generated code's globals
    return resolved


def _resolve(qualified):
    """The object a dotted name written into generated code refers to, or None."""
    parts = qualified.split(".")
    if len(parts) == 1:
        return getattr(builtins, qualified, None)
    for i in range(len(parts) - 1, 0, -1):
        obj = sys.modules.get(".".join(parts[:i]))
        if obj is None:
            continue
        for p in parts[i:]:
            obj = getattr(obj, p, None)
            if obj is None:
                return None
        return obj
    return None
