"""From a real compiler's graph break or failure to fxlint's rule code.

TorchDynamo, torch.export and the ONNX exporter say why they stopped in words
(Dynamo also links its graph-break id, GBxxxx). The table below maps those
words, as torch 2.14 writes them, to the rules of rules/rule_table.def. Some
reasons name only the mechanism (a guard on a data-dependent value; Dynamo's
`Tensor.item()`, which `int(t)` and `bool(t)` go through too): for those the
user's source line at the break decides, the way the static rule reads it.

The first row whose `reason` pattern is found in the reason (its `Hint:` lines
left out: they name other functions as examples) and whose `line` pattern, when
it has one, is found in the user's source line gives the code. No row: the code
is None, and the break or failure is still reported.
"""

import re
from typing import NamedTuple


class Row(NamedTuple):
    reason: str         # regular expression searched in the reason text
    line: str | None    # regular expression searched in the user's source line; None: any line
    code: str


# Source-line shapes that tell apart the pitfalls behind one mechanism.
_ITEM = r"\.item\s*\("
_ASSERT = r"^\s*assert\b"
_CONDITION = r"^\s*(if|elif|while)\b|\bif\b.+\belse\b"
_LOOP = r"^\s*for\b.*\brange\s*\("
_TO_PYTHON = r"\b(int|float|bool|complex)\s*\(|\.tolist\s*\(|\[[^\]:]+\]"
_SIZE = r"\b(zeros|ones|empty|full|rand|randn|randint|arange|view|reshape|expand|repeat|narrow|new_zeros|new_ones|new_empty)\s*\("
_MASK_ASSIGN = r"^\s*[\w.]+\s*\[[^\]]+\]\s*=[^=]"
# Reasons for a Python value read from tensor data: GuardOnDataDependentSymNode
# ("Could not guard on / extract specialized integer from data-dependent
# expression"), strict export's UserError around it, and Dynamo's GB0033
# ("Data dependent operator ... aten._local_scalar_dense").
_DATA_DEPENDENT = r"data-dependent expression|Data dependent operator"
# A guard on a data-dependent value that `bool()` of a tensor raised (non-strict
# export says it was caused in its `__torch_function__`); any other such guard
# is on a Python value drawn from tensor data (FX106).
_GUARD_ON_TENSOR = r"data-dependent expression.*in __torch_function__\)"
_GUARD = r"Could not guard on data-dependent expression"

TABLE = (
    # Dynamo's `Tensor.item()` break (GB0124, "Unsupported Tensor.item() call with
    # capture_scalar_outputs=False"): `.item()` on the line is FX101; int(t),
    # float(t), bool(t) and a tensor used as an index get there too (FX102).
    Row(r"Tensor\.item\(\)", _ITEM, "FX101"),
    Row(r"Tensor\.item\(\)", None, "FX102"),
    # Dynamo's "Tensor.tolist() with non-integer tensor" (GB0109).
    Row(r"Tensor\.tolist\(\)", None, "FX102"),
    # Non-strict export's fake tensors: ".numpy() is not supported for tensor subclasses."
    Row(r"\.numpy\(\) is not supported", None, "FX102"),
    # A tensor as a branch condition: explain's reason for the graph the branch
    # ends ("generic_jump TensorVariable()") and Dynamo's "Data-dependent branching".
    Row(r"generic_jump|Data-dependent branching", None, "FX103"),
    # A branch or assert on a data-dependent value: on a tensor (FX103, FX104),
    # or on a Python value or size drawn from tensor data (FX106).
    Row(_GUARD_ON_TENSOR, _ASSERT, "FX104"),
    Row(_GUARD_ON_TENSOR, _CONDITION, "FX103"),
    Row(_GUARD, _ASSERT, "FX106"),
    Row(_GUARD, _CONDITION, "FX106"),
    # A Python value read from tensor data: the user's line says which pitfall.
    Row(_DATA_DEPENDENT, _ITEM, "FX101"),
    Row(_DATA_DEPENDENT, _ASSERT, "FX104"),
    Row(_DATA_DEPENDENT, _CONDITION, "FX103"),
    Row(_DATA_DEPENDENT, _LOOP, "FX105"),
    Row(_DATA_DEPENDENT, _SIZE, "FX304"),
    Row(_DATA_DEPENDENT, _TO_PYTHON, "FX102"),
    # "Dynamic shape operator" (GB0036, "Operator `aten.nonzero.default`'s output
    # shape depends on input Tensor data"): through `x[mask] = v` FX302, through
    # `x[mask]` (nonzero underneath, not named on the line) FX301, else the
    # operator itself (nonzero, unique, masked_select, ...) FX303.
    Row(r"Dynamic shape operator", _MASK_ASSIGN, "FX302"),
    Row(r"Dynamic shape operator.*aten\.nonzero", r"^(?!.*\b(nonzero|argwhere|where|masked_select)\b).*\[", "FX301"),
    Row(r"Dynamic shape operator", None, "FX303"),
    # "Attempted to use `torch.nn.functional.one_hot` with data-dependent output shape" (GB0246).
    Row(r"one_hot` with data-dependent output shape", None, "FX303"),
    # print: "Failed to trace builtin operator ... builtin operator `print`" (GB0059).
    Row(r"builtin operator `print`", None, "FX501"),
    # "logging.Logger method not supported for non-export cases".
    Row(r"logging\.Logger method", None, "FX501"),
    # warnings.warn: "Attempted to call function marked as skipped ... `_warnings.warn`".
    Row(r"`_warnings\.warn`", None, "FX501"),
    # Fake tensors have no storage: copy.deepcopy of a tensor reads it (non-strict
    # export), and so does .data_ptr(), a device address read on the host.
    Row(r"Cannot access data pointer of Tensor", r"\bdeepcopy\s*\(", "FX502"),
    Row(r"Cannot access data pointer of Tensor", None, "FX503"),
    # A class statement: "Invalid call to __build_class__".
    Row(r"__build_class__", None, "FX504"),
    # exec/eval/locals/globals/vars as builtins Dynamo cannot trace.
    Row(r"builtin operator `(exec|eval|locals|globals|vars)`", None, "FX504"),
    # Calls the tracer cannot follow: "Attempted to copy.deepcopy a tensor"
    # (GB4198), functions Dynamo skips ("Attempted to call function marked as
    # skipped": C builtins such as time.time, third-party extensions), and other
    # builtins it cannot trace ("Failed to trace builtin operator").
    Row(r"copy\.deepcopy", None, "FX502"),
    Row(r"function marked as skipped", None, "FX502"),
    Row(r"Failed to trace builtin operator", None, "FX502"),
)

_COMPILED = tuple((re.compile(r.reason, re.S), re.compile(r.line) if r.line else None, r.code) for r in TABLE)
_GB_ID = re.compile(r"/gb/gb(\d{4})\.html", re.I)


def _without_hints(reason):
    return "\n".join(l for l in (reason or "").splitlines() if not l.lstrip().startswith("Hint:"))


def rule_code(reason, line=""):
    """The rule code for `reason` given at the user's source `line`, or None."""
    text = _without_hints(reason)
    for reason_re, line_re, code in _COMPILED:
        if reason_re.search(text) and (line_re is None or line_re.search(line or "")):
            return code
    return None


def gb_id(reason):
    """Dynamo's graph-break id (GB0124) from the reason's help link, or None."""
    m = _GB_ID.search(reason or "")
    return f"GB{m.group(1)}" if m else None
