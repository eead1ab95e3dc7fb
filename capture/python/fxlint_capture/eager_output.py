"""A verify target's eager output, saved and compared bit for bit: what
`fxlint fix --verify` checks to know that the fixes kept what the code computes.

    python3 -m fxlint_capture.eager_output TARGET [INPUT ...] --save PATH
    python3 -m fxlint_capture.eager_output TARGET [INPUT ...] --against PATH
    python3 -m fxlint_capture.eager_output --compare A B

(also as ``python3 -m fxlint_capture --eager-output ...``). The target runs
eagerly, in plain PyTorch: loaded like the capture loads it (a module is built
with no arguments and put in eval mode), with ``torch.manual_seed(SEED)`` (and
Python's and NumPy's generators seeded) before the target is built and again
before the inputs are made from their specs, and with
``torch.use_deterministic_algorithms(True)`` unless an op it calls has no
deterministic implementation (then it runs again without). What is recorded:
the return value and the inputs after the call (in-place effects), walked
through tuples, lists, dicts, dataclasses and objects down to tensors and
Python scalars; or the exception it raised (loading it, or calling it).

``--save`` writes the record with torch.save. ``--against`` runs the target
and compares with a saved record; ``--compare`` compares two saved records.
Both print JSON on stdout: {"equal", "differences", "max_abs_diff", "summary",
"before", "after"}. Records are equal when both raised the same exception type,
or both returned values that match bit for bit: the same structure and types,
tensors of the same dtype and shape whose elements have the same bits (any NaN
equals any NaN), Python numbers likewise; and the inputs after the call match
the same way.

The same module path from two project roots cannot be imported in one Python
process: each run is a process of its own, started in its project's root.
Hash randomization changes the order of sets of strings: the runs that are
compared should share PYTHONHASHSEED (fxlint sets it to 0).

Exit status: --save: 0 saved (whether or not the target raised); --against and
--compare: 0 equal, 1 different; 2 usage error, or a record that cannot be
written or read.
"""

import argparse
import contextlib
import dataclasses
import enum
import json
import math
import os
import random
import struct
import sys

# Deterministic cuBLAS needs a workspace setting made before its first use.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402

from .inputs import parse_specs, resolve_target  # noqa: E402

FORMAT = 1
_MAX_DEPTH = 64
_MAX_SHOWN = 3  # differences named in the summary


def _seed(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        with contextlib.suppress(Exception):
            numpy.random.seed(seed)


def _type_name(value):
    t = type(value)
    module = getattr(t, "__module__", "") or ""
    return t.__qualname__ if module == "builtins" else f"{module}.{t.__qualname__}"


def _exception(error, stage):
    return {"type": _type_name(error), "message": str(error)[:500], "stage": stage}


# A value as plain data that torch.save writes and torch.load(weights_only=True)
# reads back: tuples whose first item names the kind.
def canonical(value, _depth=0, _seen=None):
    seen = _seen if _seen is not None else set()
    if isinstance(value, torch.Tensor):
        return ("tensor", _plain_tensor(value))
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", bool(value))
    if isinstance(value, enum.Enum):
        return ("const", _type_name(value), str(value))
    if isinstance(value, int):
        return ("int", int(value))
    if isinstance(value, float):
        return ("float", float(value))
    if isinstance(value, complex):
        return ("complex", value.real, value.imag)
    if isinstance(value, str):
        return ("str", str(value))
    if isinstance(value, (bytes, bytearray)):
        return ("bytes", bytes(value).hex())
    if isinstance(value, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
        return ("const", _type_name(value), str(value))
    if _depth > _MAX_DEPTH:
        return ("opaque", _type_name(value))
    if id(value) in seen:
        return ("cycle", _type_name(value))
    seen.add(id(value))
    try:
        return _canonical_container(value, _depth + 1, seen)
    finally:
        seen.discard(id(value))


def _canonical_container(value, depth, seen):
    name = _type_name(value)
    if isinstance(value, (tuple, list)):
        return ("seq", name, [canonical(v, depth, seen) for v in value])
    if isinstance(value, dict):
        return ("map", name, [(_key(k), canonical(v, depth, seen)) for k, v in value.items()])
    if isinstance(value, (set, frozenset)):
        items = [canonical(v, depth, seen) for v in value]
        return ("set", name, sorted(items, key=repr))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f.name for f in dataclasses.fields(value) if hasattr(value, f.name)]
        return ("object", name, [(f, canonical(getattr(value, f), depth, seen)) for f in fields])
    if isinstance(value, torch.nn.Module) or isinstance(value, type) or callable(value):
        return ("opaque", name)
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict):
        return ("object", name, [(str(k), canonical(v, depth, seen)) for k, v in attributes.items()])
    return ("opaque", name)


def _key(key):
    return key if isinstance(key, (str, int, float, bool, type(None))) else repr(key)


def _plain_tensor(t):
    """A dense CPU copy with no autograd history and no subclass."""
    try:
        t = t.detach()
        if t.is_quantized:
            t = t.dequantize()
        elif t.layout != torch.strided:
            t = t.to_dense()
        t = t.to("cpu", copy=True)
        if type(t) is not torch.Tensor:
            t = t.as_subclass(torch.Tensor)
        return t
    except Exception as e:  # meta, fake or otherwise unreadable tensors
        return f"unreadable tensor: {type(e).__name__}: {e}"


def run(target, inputs, seed=0):
    """Runs `target` eagerly on `inputs`; returns its record."""
    record = {"format": FORMAT, "target": target, "inputs": list(inputs), "seed": seed, "deterministic": True,
              "raised": None, "output": None, "inputs_after": None}
    for deterministic in (True, False):
        record["deterministic"] = deterministic
        _seed(seed)
        torch.use_deterministic_algorithms(True, warn_only=not deterministic)
        try:
            fn, base_dir = resolve_target(target)
            _seed(seed)
            args, kwargs = parse_specs(inputs, base_dir)
        except (Exception, SystemExit) as e:  # importing the user's file can fail in any way
            record["raised"] = _exception(e, "load")
            return record
        try:
            output = fn(*args, **kwargs)
        except (Exception, SystemExit) as e:
            if deterministic and isinstance(e, RuntimeError) and "deterministic" in str(e):
                continue  # an op without a deterministic implementation: run again without asking for one
            record["raised"] = _exception(e, "call")
            return record
        finally:
            torch.use_deterministic_algorithms(False)
        record["output"] = canonical(output)
        record["inputs_after"] = ("call", [canonical(a) for a in args],
                                  [(str(k), canonical(v)) for k, v in kwargs.items()])
        return record
    return record


def save(record, path):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    torch.save(record, path)


def load(path):
    record = torch.load(path, weights_only=True)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"{path} is not an eager output record of this version")
    return record


class _Comparison:
    def __init__(self):
        self.differences = []
        self.max_abs_diff = None

    def differ(self, path, text, abs_diff=None):
        self.differences.append(f"{path}: {text}")
        self.note(abs_diff)

    def note(self, abs_diff):
        if abs_diff is not None and (self.max_abs_diff is None or not abs_diff <= self.max_abs_diff):
            self.max_abs_diff = abs_diff


def _format_number(x):
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _describe(node):
    kind = node[0]
    if kind == "tensor":
        t = node[1]
        return f"a {t.dtype} tensor of shape {list(t.shape)}" if isinstance(t, torch.Tensor) else t
    if kind in ("seq", "map", "set", "object"):
        return f"a {node[1]} of {len(node[2])}"
    if kind in ("opaque", "cycle", "const"):
        return f"{node[1]}" if kind != "const" else f"{node[1]} {node[2]}"
    if kind == "none":
        return "None"
    if kind == "complex":
        return f"complex {complex(node[1], node[2])}"
    return f"{kind} {node[1]!r}"


def _number(node):
    kind = node[0]
    if kind in ("bool", "int", "float"):
        return node[1]
    if kind == "complex":
        return complex(node[1], node[2])
    return None


def _same_number(a, b):
    if isinstance(a, complex) or isinstance(b, complex):
        a, b = complex(a), complex(b)
        return _same_number(a.real, b.real) and _same_number(a.imag, b.imag)
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) and math.isnan(b):
            return True
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def _number_diff(a, b):
    try:
        d = abs(complex(a) - complex(b))
    except OverflowError:
        return math.inf
    if math.isnan(d):
        return math.inf
    return d


def _compare(a, b, path, out):
    if a[0] != b[0] or (a[0] in ("seq", "map", "set", "object", "opaque", "cycle", "const") and a[1] != b[1]):
        na, nb = _number(a), _number(b)
        if na is not None and nb is not None:
            out.differ(path, f"{_describe(a)} before the fix, {_describe(b)} after", _number_diff(na, nb))
        else:
            out.differ(path, f"{_describe(a)} before the fix, {_describe(b)} after")
        return
    kind = a[0]
    if kind == "tensor":
        _compare_tensors(a[1], b[1], path, out)
    elif kind in ("bool", "int", "float", "complex"):
        na, nb = _number(a), _number(b)
        if not _same_number(na, nb):
            out.differ(path, f"{_describe(a)} before the fix, {_describe(b)} after", _number_diff(na, nb))
    elif kind in ("str", "bytes", "const"):
        if a != b:
            out.differ(path, f"{_describe(a)} before the fix, {_describe(b)} after")
    elif kind in ("seq", "set"):
        if len(a[2]) != len(b[2]):
            out.differ(path, f"{len(a[2])} items before the fix, {len(b[2])} after")
            return
        for i, (x, y) in enumerate(zip(a[2], b[2])):
            _compare(x, y, f"{path}[{i}]", out)
    elif kind in ("map", "object"):
        da, db = dict(a[2]), dict(b[2])
        if list(da) != list(db):
            gone = [k for k in da if k not in db]
            new = [k for k in db if k not in da]
            what = ", ".join([f"{k!r} gone" for k in gone] + [f"{k!r} new" for k in new]) or "another order"
            out.differ(path, f"other keys after the fix ({what})")
        for k in da:
            if k in db:
                _compare(da[k], db[k], f"{path}.{k}" if kind == "object" else f"{path}[{k!r}]", out)
    # none, opaque and cycle nodes of the same type are equal


def _bits(t):
    """t's elements as integers of the same width (floating types), or t itself."""
    if t.is_complex():
        t = torch.view_as_real(t.resolve_conj().contiguous())
    if t.is_floating_point():
        as_int = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
        return t.contiguous().view(as_int)
    return t


def _nan(t):
    if t.is_complex():
        t = torch.view_as_real(t.resolve_conj().contiguous())
    if not t.is_floating_point():
        return torch.zeros(t.shape, dtype=torch.bool)
    return (t if t.element_size() >= 4 else t.float()).isnan()


def _abs_diff(a, b):
    """The largest |a - b| over elements that differ (inf where only one is NaN)."""
    wide = torch.complex128 if (a.is_complex() or b.is_complex()) else torch.float64
    d = (a.to(wide) - b.to(wide)).abs()
    nan_a, nan_b = _nan(a), _nan(b)
    if a.is_complex() or b.is_complex():
        nan_a = nan_a.any(-1) if nan_a.dim() > a.dim() else nan_a
        nan_b = nan_b.any(-1) if nan_b.dim() > b.dim() else nan_b
    d = torch.where(nan_a & nan_b, torch.zeros_like(d), d)
    d = torch.where(d.isnan(), torch.full_like(d, math.inf), d)
    return float(d.max()) if d.numel() else 0.0


def _compare_tensors(a, b, path, out):
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        if a != b:
            out.differ(path, f"{_describe(('tensor', a))} before the fix, {_describe(('tensor', b))} after")
        return
    if a.dtype != b.dtype or a.shape != b.shape:
        what = []
        if a.dtype != b.dtype:
            what.append(f"dtype {a.dtype} before the fix, {b.dtype} after")
        if a.shape != b.shape:
            what.append(f"shape {list(a.shape)} before the fix, {list(b.shape)} after")
        diff = None
        if a.shape == b.shape:
            with contextlib.suppress(Exception):
                diff = _abs_diff(a, b)
        out.differ(path, ", ".join(what) + ("" if diff is None else f" (max abs diff {_format_number(diff)})"),
                   diff)
        return
    if a.numel() == 0:
        return
    try:
        same = _bits(a) == _bits(b)
        if a.is_complex() or a.is_floating_point():
            same = same | (_nan(a) & _nan(b))  # any NaN equals any NaN
            if a.is_complex():
                same = same.all(-1)  # real and imaginary parts
        differing = int((~same).sum())
    except Exception:  # a dtype without bit views or comparisons
        differing = 0 if torch.equal(a, b) else a.numel()
    if differing == 0:
        return
    try:
        diff = _abs_diff(a, b)
    except Exception:
        diff = None
    text = f"{differing} of {a.numel()} elements differ"
    if diff is not None:
        text += f" (max abs diff {_format_number(diff)})"
    out.differ(path, text, diff)


def _outcome(record):
    raised = record.get("raised")
    if raised:
        where = "loading it" if raised.get("stage") == "load" else "calling it"
        return f"raised {raised['type']} {where}: {raised['message']}"
    return "returned"


def compare(before, after):
    """{"equal", "differences", "max_abs_diff", "summary", "before", "after"} for two records."""
    out = _Comparison()
    rb, ra = before.get("raised"), after.get("raised")
    if rb or ra:
        if not (rb and ra and rb["type"] == ra["type"]):
            if ra and not rb:
                out.differences.append(f"{_outcome(after)} (before the fix it returned)")
            elif rb and not ra:
                out.differences.append(f"returned, where before the fix it {_outcome(before)}")
            else:
                out.differences.append(f"{_outcome(after)}, where before the fix it {_outcome(before)}")
    else:
        _compare(before["output"], after["output"], "output", out)
        (_, args_b, kwargs_b), (_, args_a, kwargs_a) = before["inputs_after"], after["inputs_after"]
        effects = _Comparison()
        _compare(("seq", "args", args_b), ("seq", "args", args_a), "input", effects)
        _compare(("map", "kwargs", kwargs_b), ("map", "kwargs", kwargs_a), "input", effects)
        out.differences += [f"in-place effect on {d}" for d in effects.differences]
        out.note(effects.max_abs_diff)
    summary = "; ".join(out.differences[:_MAX_SHOWN])
    if len(out.differences) > _MAX_SHOWN:
        summary += f"; and {len(out.differences) - _MAX_SHOWN} more"
    if out.max_abs_diff is not None and len(out.differences) > 1:
        summary += f"; max abs diff {_format_number(out.max_abs_diff)} overall"
    diff = out.max_abs_diff
    if diff is not None and not math.isfinite(diff):
        diff = str(diff)  # JSON has no infinity
    return {"equal": not out.differences, "differences": out.differences,
            "max_abs_diff": diff, "summary": summary,
            "before": _outcome(before), "after": _outcome(after),
            "deterministic": bool(before.get("deterministic")) and bool(after.get("deterministic"))}


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m fxlint_capture.eager_output",
                                description="Run a target eagerly and save its outputs, or compare them with "
                                            "saved ones bit for bit.")
    p.add_argument("target", nargs="?", help="path/to/file.py:qualified.name")
    p.add_argument("inputs", nargs="*", help="input specs, as the capture takes them")
    p.add_argument("--seed", type=int, default=0, help="seed for the inputs and weights (default 0)")
    p.add_argument("--save", metavar="PATH", help="write the record of the run to PATH (torch.save)")
    p.add_argument("--against", metavar="PATH", help="compare the run with the record in PATH; print JSON")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two saved records; print JSON")
    return p


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    modes = [m for m in ("save", "against", "compare") if getattr(args, m) is not None]
    if len(modes) != 1:
        parser.error("give one of --save PATH, --against PATH and --compare A B")
    if args.compare is not None:
        if args.target or args.inputs:
            parser.error("--compare takes two records, no target")
    elif args.target is None:
        parser.error("a TARGET is required")

    try:
        if args.compare is not None:
            return _print(compare(load(args.compare[0]), load(args.compare[1])))
        reference = load(args.against) if args.against is not None else None
    except Exception as e:
        print(f"fxlint_capture: error: cannot read an eager output record: {e}", file=sys.stderr)
        return 2
    # stdout carries the JSON alone: whatever the target prints goes to stderr, down to the file descriptor.
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    with contextlib.redirect_stdout(sys.stderr):
        record = run(args.target, args.inputs, args.seed)
    if reference is None:
        try:
            save(record, args.save)
        except Exception as e:
            print(f"fxlint_capture: error: cannot save the eager output to {args.save}: {e}", file=sys.stderr)
            return 2
        return 0
    return _print(compare(reference, record), out)


def _print(result, out=None):
    out = out or sys.stdout
    json.dump(result, out, indent=2)
    out.write("\n")
    out.flush()
    return 0 if result["equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
