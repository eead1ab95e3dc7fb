"""A break or failure of a real compiler as the report holds it: the reason in
full and in one line, the rule code, Dynamo's graph-break id and the user's stack."""

import re

from .codes import gb_id, rule_code
from .user_frames import exception_user_stack

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Lines Dynamo puts before the reason itself when it wraps a graph break.
_WRAPPERS = (
    re.compile(r"^Encountered graph break when attempting to trace .*?:\s*$"),
    re.compile(r"^Failed to handle graph break gracefully\..*$"),
    re.compile(r"Consider annotating your code using torch\._check\*\(\)\.\s*"),
)


def clean(text):
    return _ANSI.sub("", str(text or "")).strip()


def summary(reason):
    """The reason's first meaningful line (Dynamo's wrappers skipped)."""
    for line in clean(reason).splitlines():
        line = line.strip()
        for w in _WRAPPERS:
            line = w.sub("", line).strip()
        if line:
            return line
    return ""


def failure(reason, user_stack, **extra):
    """{reason, summary, code, gb_id, user_stack, ...}: the code from the table,
    read at the innermost user frame's source line."""
    reason = clean(reason)
    line = user_stack[-1]["line"] if user_stack else ""
    out = {"reason": reason, "summary": summary(reason), "code": rule_code(reason, line), "gb_id": gb_id(reason),
           "user_stack": user_stack}
    out.update(extra)
    return out


def _unwrapped(exc):
    """The error the ONNX exporter's own error wraps (torch.export's, or the
    translation's), which says what in the user's code failed."""
    while type(exc).__module__.startswith("torch.onnx") and exc.__cause__ is not None:
        exc = exc.__cause__
    return exc


def exception_failure(exc, stage):
    """A failure from an exception a compiler raised: its reason, and the user's
    frames where it arose."""
    inner = _unwrapped(exc)
    return failure(f"{type(inner).__name__}: {inner}", exception_user_stack(exc), stage=stage,
                   exception=type(inner).__name__)
