"""Input specs for the command line: ``float32[2,3]``, ``int64[4]``, ``bool[8]``,
``int:3``, ``float:0.5``, ``str:abc``, ``none``, or a factory ``module:make_inputs``."""

import importlib
import importlib.util
import os
import re
import sys

import torch

_TENSOR = re.compile(r"^([a-z0-9]+)\[([0-9,\s]*)\]$")
_SCALARS = {"int": int, "float": float, "str": str}


class SpecError(ValueError):
    """An input spec or target that cannot be used; the message says why."""


def _dtype(name):
    dtype = getattr(torch, name, None)
    if not isinstance(dtype, torch.dtype):
        raise SpecError(f"unknown dtype {name!r} (use e.g. float32, float16, int64, int32, bool)")
    return dtype


def make_tensor(dtype_name, shape):
    dtype = _dtype(dtype_name)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape).bool()
    if dtype.is_floating_point or dtype.is_complex:
        return torch.randn(shape, dtype=dtype)
    return torch.randint(0, 10, shape, dtype=dtype)


def _load_module(name, base_dir):
    if name.endswith(".py"):
        path = name if os.path.isabs(name) else os.path.join(base_dir or os.getcwd(), name)
        if not os.path.exists(path):
            path = name
        return load_file(path)
    if base_dir and base_dir not in sys.path:
        sys.path.insert(0, base_dir)
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise SpecError(f"cannot import input factory module {name!r}: {e}") from e


def load_file(path):
    """Imports a Python file. A file inside a package (directories with
    ``__init__.py``) is imported by its dotted name from the package root, so its
    relative and absolute imports of the package work; a lone file is imported
    as a module named after it."""
    if not os.path.isfile(path):
        raise SpecError(f"no such file: {path}")
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    parts = [os.path.splitext(os.path.basename(path))[0]]
    root = directory
    while os.path.isfile(os.path.join(root, "__init__.py")):
        parts.insert(0, os.path.basename(root))
        root = os.path.dirname(root)
    if len(parts) > 1:
        if root not in sys.path:
            sys.path.insert(0, root)
        return importlib.import_module(".".join(parts))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = parts[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def parse_spec(text, base_dir=None):
    """Returns (args, kwargs) contributed by one spec."""
    text = text.strip()
    m = _TENSOR.match(text)
    if m:
        dims = [d for d in m.group(2).replace(" ", "").split(",") if d]
        try:
            shape = [int(d) for d in dims]
        except ValueError as e:
            raise SpecError(f"bad shape in input spec {text!r}") from e
        return [make_tensor(m.group(1), shape)], {}
    if text.lower() == "none":
        return [None], {}
    if ":" in text:
        kind, _, value = text.partition(":")
        if kind in _SCALARS:
            try:
                return [_SCALARS[kind](value)], {}
            except ValueError as e:
                raise SpecError(f"bad {kind} value in input spec {text!r}") from e
        if kind == "bool":
            if value.lower() not in ("true", "false", "1", "0"):
                raise SpecError(f"bad bool value in input spec {text!r}")
            return [value.lower() in ("true", "1")], {}
        module = _load_module(kind, base_dir)
        factory = getattr(module, value, None)
        if not callable(factory):
            raise SpecError(f"input factory {text!r}: {kind} has no callable {value!r}")
        produced = factory()
        if isinstance(produced, dict):
            return [], dict(produced)
        if (isinstance(produced, tuple) and len(produced) == 2 and isinstance(produced[0], (tuple, list))
                and isinstance(produced[1], dict)):
            return list(produced[0]), dict(produced[1])
        if isinstance(produced, (tuple, list)):
            return list(produced), {}
        return [produced], {}
    raise SpecError(f"cannot read input spec {text!r}: expected e.g. float32[2,3], int64[4], bool[8], int:3, "
                    "float:0.5, none, or module:make_inputs")


def parse_specs(specs, base_dir=None):
    args, kwargs = [], {}
    for s in specs:
        a, k = parse_spec(s, base_dir)
        args.extend(a)
        kwargs.update(k)
    return args, kwargs


def resolve_target(target):
    """``path/to/file.py:Qualified.name`` -> a callable to capture (modules are
    instantiated with no arguments and put in eval mode)."""
    path, sep, qualname = target.rpartition(":")
    if not sep or not path or not qualname:
        raise SpecError(f"target must be path/to/file.py:qualified.name, not {target!r}")
    module = load_file(path)
    obj = module
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        if not hasattr(obj, part):
            raise SpecError(f"{path} has no {'.'.join(parts[:i + 1])!r}")
        obj = getattr(obj, part)
        if isinstance(obj, type) and i + 1 < len(parts):
            obj = _instantiate(obj, target)
    if isinstance(obj, type):
        obj = _instantiate(obj, target)
    if isinstance(obj, torch.nn.Module):
        obj.eval()
    elif hasattr(obj, "__self__") and isinstance(obj.__self__, torch.nn.Module):
        obj.__self__.eval()
    if not callable(obj):
        raise SpecError(f"target {target!r} is not callable")
    return obj, os.path.dirname(os.path.abspath(path))


def _instantiate(cls, target):
    try:
        return cls()
    except TypeError as e:
        raise SpecError(f"cannot instantiate {cls.__name__} for {target!r} without arguments: {e}") from e
