"""Runs an exported ONNX model with ONNX Runtime (the `onnxruntime` package, on
the CPU), to compare what it computes with eager PyTorch."""
import numpy as np
import torch


class RuntimeUnavailable(Exception):
    """The onnxruntime package is not installed: the model cannot be run here."""


def _session(path):
    try:
        import onnxruntime
    except ImportError as e:
        raise RuntimeUnavailable(f"the onnxruntime package is not installed ({e}); "
                                 "pip install onnxruntime") from None
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # warnings about unused initializers are not the user's concern
    return onnxruntime.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])


def _as_numpy(i, t):
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"input {i} is not a tensor: {type(t).__name__}")
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        raise ValueError(f"input {i} is bfloat16, which numpy cannot hold")
    return t.numpy()


def run_model(path, inputs):
    """The model's outputs for `inputs` (tensors, in the order of the model's inputs)."""
    session = _session(path)
    declared = session.get_inputs()
    if len(declared) != len(inputs):
        raise RuntimeError(f"the model takes {len(declared)} inputs, the capture passed {len(inputs)}")
    feed = {d.name: _as_numpy(i, t) for i, (d, t) in enumerate(zip(declared, inputs))}
    return [torch.from_numpy(np.ascontiguousarray(o)) for o in session.run(None, feed)]
