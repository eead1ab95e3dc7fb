"""torch.export and the ONNX exporter take an nn.Module: a function (or a method)
is wrapped in a small one whose forward calls it."""

import torch


class FunctionModule(torch.nn.Module):
    """forward(*args, **kwargs) calls `fn`. A method of a module keeps that module
    as a submodule, so its parameters and buffers are the exported program's."""

    def __init__(self, fn):
        super().__init__()
        owner = getattr(fn, "__self__", None)
        if isinstance(owner, torch.nn.Module):
            self.owner = owner
            self._method = fn.__name__
            self._fn = None
        else:
            self._fn = fn

    def forward(self, *args, **kwargs):
        if self._fn is None:
            return getattr(self.owner, self._method)(*args, **kwargs)
        return self._fn(*args, **kwargs)


def as_module(target):
    """`target` itself when it is an nn.Module, else wrapped (in eval mode)."""
    if isinstance(target, torch.nn.Module):
        return target
    return FunctionModule(target).eval()
