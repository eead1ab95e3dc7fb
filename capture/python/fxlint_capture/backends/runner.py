"""Runs one target through one real-compiler backend."""

from .failures import exception_failure
from .inputs import cloned

BACKENDS = ("capture", "dynamo", "export", "onnx")


class TargetRaised(Exception):
    """The target's own code raised when run eagerly: there is nothing to compile."""

    def __init__(self, error):
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error


def _eager(fn, args, kwargs):
    try:
        return fn(*cloned(args), **cloned(kwargs))
    except Exception as e:
        raise TargetRaised(e) from e


def _dynamo(fn, args, kwargs):
    from . import dynamo_explain

    try:
        return dynamo_explain.run(fn, cloned(args), cloned(kwargs))
    except Exception as e:  # the call raised under Dynamo: the user's error, or Dynamo's own
        _eager(fn, args, kwargs)  # raises TargetRaised when the code fails eagerly too
        broke = exception_failure(e, "explain")
        return {"backend": "dynamo", "ok": False, "graph_count": 0, "graph_break_count": 1,
                "break_reasons": [broke], "op_count": 0, "ops_per_graph": []}


def run_backend(name, fn, args, kwargs, onnx_path=None, opset=18):
    """The report of backend `name` on fn(*args, **kwargs). Raises TargetRaised
    when the call fails eagerly."""
    if name == "dynamo":
        return _dynamo(fn, args, kwargs)
    expected = _eager(fn, args, kwargs)
    if name == "export":
        from . import torch_export

        return torch_export.run(fn, args, kwargs)
    if name == "onnx":
        from . import onnx_export

        return onnx_export.run(fn, args, kwargs, expected, onnx_path, opset)
    raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS[1:])}")
