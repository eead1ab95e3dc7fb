"""Bytecode capture of PyTorch code into torch.fx graphs, with graph-break reports.

``explain(fn)(*args, **kwargs)`` runs ``fn`` once under a symbolic interpreter of
CPython 3.11 bytecode and returns a :class:`CaptureReport`.
"""

from .explain import explain
from .report import CaptureError
from .report import CaptureReport

__all__ = ["explain", "CaptureReport", "CaptureError"]
