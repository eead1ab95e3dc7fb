"""A call's return value as graph outputs: its tensors, flattened, and a spec
that rebuilds the value (its structure and types) from them.

A value made only of tensors, plain tuples, lists and dicts, and Python
numbers, strings and None is a graph output as it is: torch.fx writes it in the
generated code. Any other value (a NamedTuple, a ``torch.return_types`` struct
sequence, an OrderedDict or another dict subclass such as transformers'
``ModelOutput``, a dataclass, any other object) cannot be written into
generated code, so the graph returns the flat tuple of its tensors and
:func:`unflatten` rebuilds the value around them.
"""

import copy
import dataclasses

import torch

_PLAIN_LEAVES = (int, float, bool, str, complex, type(None))
_MAX_DEPTH = 64


def is_plain(value, _depth=0):
    """Whether torch.fx can write `value` as a graph output as it is."""
    if _depth > _MAX_DEPTH:
        return False
    if isinstance(value, torch.Tensor):
        return True
    t = type(value)
    if t in _PLAIN_LEAVES:
        return True
    if t is tuple or t is list:
        return all(is_plain(v, _depth + 1) for v in value)
    if t is dict:
        return all(type(k) in (str, int) for k in value) and all(is_plain(v, _depth + 1) for v in value.values())
    return False


class Spec:
    """How to rebuild one value from its flattened tensors."""

    __slots__ = ("kind", "template", "keys", "children")

    def __init__(self, kind, template=None, keys=(), children=()):
        self.kind = kind          # tensor, const, tuple, list, dict, namedtuple, structseq, sequence, mapping, object
        self.template = template  # const: the value; rebuilt kinds: the original object
        self.keys = keys          # dict/mapping keys, object attribute names
        self.children = children  # specs of the children, in order

    @property
    def type_name(self):
        if self.kind in ("tensor", "const"):
            return self.kind
        return type(self.template).__qualname__ if self.template is not None else self.kind

    def __repr__(self):
        return f"Spec({self.kind}, {self.type_name}, {len(self.children)} children)"


def _contains_tensor(value, depth=0):
    if isinstance(value, torch.Tensor):
        return True
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, (tuple, list)):
        return any(_contains_tensor(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_contains_tensor(v, depth + 1) for v in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_contains_tensor(getattr(value, f.name, None), depth + 1) for f in dataclasses.fields(value))
    d = getattr(value, "__dict__", None)
    if isinstance(d, dict) and not isinstance(value, (type, torch.nn.Module)):
        return any(_contains_tensor(v, depth + 1) for v in d.values())
    return False


def _flatten(value, leaves, depth):
    if isinstance(value, torch.Tensor):
        leaves.append(value)
        return Spec("tensor")
    if depth > _MAX_DEPTH or not _contains_tensor(value, 0):
        return Spec("const", value)
    t = type(value)
    if t is tuple or t is list:
        return Spec(t.__name__, children=[_flatten(v, leaves, depth + 1) for v in value])
    if isinstance(value, tuple):
        kind = "structseq" if hasattr(t, "n_fields") else "namedtuple" if hasattr(t, "_fields") else "sequence"
        return Spec(kind, value, children=[_flatten(v, leaves, depth + 1) for v in value])
    if isinstance(value, list):
        return Spec("sequence", value, children=[_flatten(v, leaves, depth + 1) for v in value])
    if isinstance(value, dict):
        keys = list(value.keys())
        children = [_flatten(value[k], leaves, depth + 1) for k in keys]
        return Spec("dict" if t is dict else "mapping", None if t is dict else value, keys, children)
    if dataclasses.is_dataclass(value):
        names = [f.name for f in dataclasses.fields(value) if hasattr(value, f.name)]
    else:
        names = list(vars(value).keys())
    names = [n for n in names if _contains_tensor(getattr(value, n), 0)]
    return Spec("object", value, names, [_flatten(getattr(value, n), leaves, depth + 1) for n in names])


def flatten(value):
    """(tensors, spec): every tensor in `value`, depth first, and how to rebuild it."""
    leaves = []
    spec = _flatten(value, leaves, 0)
    return leaves, spec


def unflatten(spec, leaves):
    """The value `spec` describes, with `leaves` (tensors, in flatten's order) in it."""
    it = iter(leaves)
    value = _build(spec, it)
    rest = sum(1 for _ in it)
    if rest:
        raise ValueError(f"unflatten: {rest} tensors more than the spec holds")
    return value


def _build(spec, it):
    kind = spec.kind
    if kind == "tensor":
        try:
            return next(it)
        except StopIteration:
            raise ValueError("unflatten: fewer tensors than the spec holds") from None
    if kind == "const":
        return spec.template
    items = [_build(c, it) for c in spec.children]
    if kind == "tuple":
        return tuple(items)
    if kind == "list":
        return items
    if kind == "dict":
        return dict(zip(spec.keys, items))
    cls = type(spec.template)
    if kind == "namedtuple":
        return cls._make(items)
    if kind == "structseq":
        return cls(items)
    if kind == "sequence":
        new = copy.copy(spec.template)
        if isinstance(new, list):
            new[:] = items
            return new
        return cls(items)
    if kind == "mapping":
        # A shallow copy keeps the subclass and what it holds besides its items
        # (defaultdict's factory, ModelOutput's fields); the tensors are replaced.
        new = copy.copy(spec.template)
        for k, v in zip(spec.keys, items):
            new[k] = v
        return new
    new = copy.copy(spec.template)  # object / dataclass: frozen ones too
    for name, v in zip(spec.keys, items):
        object.__setattr__(new, name, v)
    return new
