"""Runs an exported ONNX model with ONNX Runtime, to compare what it computes
with eager PyTorch.

Debian ships no ONNX Runtime for Python, so the pinned npm package
onnxruntime-node (third_party/, its CPU binaries included) runs the model in a
Node.js process (onnx_run.js); tensors travel as raw little-endian files.
"""
import json
import os
import shutil
import subprocess
import tempfile

import torch

# dtypes both sides know, spelled as torch and ONNX Runtime both spell them.
_DTYPES = ("float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool")
_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx_run.js")


class RuntimeUnavailable(Exception):
    """Node.js or onnxruntime-node is not installed: the model cannot be run here."""


def _locate():
    try:
        from . import _build_paths as built  # written by CMake
    except ImportError:
        built = None
    node = os.environ.get("FXLINT_NODE") or getattr(built, "NODE", "") or shutil.which("node")
    modules = os.environ.get("FXLINT_NODE_MODULES") or getattr(built, "NODE_MODULES", "")
    if not node:
        raise RuntimeUnavailable("Node.js not found (FXLINT_NODE names it)")
    if not modules or not os.path.isfile(os.path.join(modules, "onnxruntime-node", "package.json")):
        raise RuntimeUnavailable("onnxruntime-node not installed (scripts/setup-deps.sh; "
                                 "FXLINT_NODE_MODULES names its node_modules)")
    return node, modules


def run_model(path, inputs, timeout=600):
    """The model's outputs for `inputs` (tensors, fed as input_0, input_1, ...), in order."""
    node, modules = _locate()
    with tempfile.TemporaryDirectory(prefix="fxlint-onnx-") as tmp:
        specs = []
        for i, t in enumerate(inputs):
            dtype = str(t.dtype).removeprefix("torch.") if isinstance(t, torch.Tensor) else None
            if dtype not in _DTYPES:
                raise ValueError(f"input {i} is not a tensor of a dtype the runtime takes: {type(t).__name__}")
            file = os.path.join(tmp, f"input_{i}.bin")
            with open(file, "wb") as f:
                f.write(t.detach().cpu().contiguous().numpy().tobytes())
            specs.append({"name": f"input_{i}", "dtype": dtype, "shape": list(t.shape), "file": file})
        manifest = os.path.join(tmp, "manifest.json")
        with open(manifest, "w") as f:
            json.dump({"model": os.path.abspath(path), "inputs": specs, "out_dir": tmp}, f)
        proc = subprocess.run([node, _SCRIPT, manifest], capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, NODE_PATH=modules))
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip() or f"node exited with status {proc.returncode}")
        with open(os.path.join(tmp, "outputs.json")) as f:
            described = json.load(f)
        outputs = []
        for o in described:
            if o["dtype"] not in _DTYPES:
                raise RuntimeError(f"output {o['name']} has dtype {o['dtype']}, which fxlint does not read")
            dtype = getattr(torch, o["dtype"])
            with open(o["file"], "rb") as f:
                data = bytearray(f.read())
            t = torch.frombuffer(data, dtype=dtype) if data else torch.empty(0, dtype=dtype)
            outputs.append(t.reshape(o["shape"]).clone())
        return outputs
