"""Checks that `fxlint fix` output computes what its input computed, and traces.

    /usr/bin/python3 fix_semantics.py ORIGINAL.py FIXED.py

Both files define `class M(torch.nn.Module)` taking one tensor. On random inputs that take
every branch (positive and negative sums), the two must agree; the original must fail
`torch.fx.symbolic_trace` and the fixed one must trace into a module that agrees too, exports
with `torch.onnx.export`, and passes `onnx.checker`.
"""
import contextlib
import importlib.util
import io
import sys
import tempfile

import onnx
import torch


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.M()


def main(original_path, fixed_path):
    original = load(original_path, "original")
    fixed = load(fixed_path, "fixed")
    torch.manual_seed(0)
    inputs = []
    for _ in range(20):
        x = torch.randn(3, 4)
        inputs += [x.abs() + 0.1, -x.abs() - 0.1, x]  # both branches, and a mix
    with contextlib.redirect_stdout(io.StringIO()):
        for x in inputs:
            torch.testing.assert_close(fixed(x), original(x), rtol=0, atol=0)

    try:
        with contextlib.redirect_stdout(io.StringIO()):
            torch.fx.symbolic_trace(original)
    except Exception:
        pass
    else:
        sys.exit("the original traced: the test would not show anything")
    traced = torch.fx.symbolic_trace(fixed)
    with contextlib.redirect_stdout(io.StringIO()):
        for x in inputs:
            torch.testing.assert_close(traced(x), original(x), rtol=0, atol=0)

    with tempfile.NamedTemporaryFile(suffix=".onnx") as f:
        torch.onnx.export(traced, (inputs[0],), f.name, opset_version=13)
        onnx.checker.check_model(onnx.load(f.name))
    print("equal on", len(inputs), "inputs; traced; exported to ONNX")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
