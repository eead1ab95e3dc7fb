"""Exported models run with ONNX Runtime (the onnxruntime package): outputs come back with their dtypes and shapes, a model that
computes something else is a mismatch, and a missing runtime is said, not
mistaken for a pass or a failure."""

import sys

import pytest
import torch

from fxlint_capture.onnx_check import compare_with_runtime
from fxlint_capture.onnx_run import RuntimeUnavailable, run_model


class Mixed(torch.nn.Module):
    def forward(self, x, mask, idx):
        picked = torch.index_select(x, 0, idx)
        return torch.where(mask, x, -x).relu(), picked.sum(dim=1).to(torch.int64), ~mask


def export(tmp_path):
    torch.manual_seed(0)
    inputs = (torch.randn(4, 3), torch.rand(4, 3) > 0.5, torch.tensor([2, 0]))
    path = str(tmp_path / "mixed.onnx")
    torch.onnx.export(Mixed(), inputs, path, opset_version=18,
                      input_names=[f"input_{i}" for i in range(len(inputs))])
    return path, inputs


def test_outputs_keep_dtype_shape_and_values(tmp_path):
    path, inputs = export(tmp_path)
    expected = Mixed()(*inputs)
    outputs = run_model(path, list(inputs))
    assert [o.dtype for o in outputs] == [torch.float32, torch.int64, torch.bool]
    assert [o.shape for o in outputs] == [e.shape for e in expected]
    assert torch.allclose(outputs[0], expected[0]) and torch.equal(outputs[1], expected[1])
    assert torch.equal(outputs[2], expected[2])


def test_a_model_that_computes_something_else_is_a_mismatch(tmp_path):
    path, inputs = export(tmp_path)
    expected = list(Mixed()(*inputs))
    result = {}
    assert compare_with_runtime(path, list(inputs), expected, result)
    assert result["onnxruntime"] == "ok" and result["max_abs_diff_onnx_vs_eager"] == 0.0
    expected[0] = expected[0] + 0.01
    result = {}
    assert not compare_with_runtime(path, list(inputs), expected, result)
    assert result["onnxruntime"].startswith("mismatch")
    assert result["max_abs_diff_onnx_vs_eager"] == pytest.approx(0.01, rel=1e-3)


def test_a_broken_model_fails_and_a_missing_runtime_is_unavailable(tmp_path, monkeypatch):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    result = {}
    assert not compare_with_runtime(str(broken), [torch.zeros(1)], [torch.zeros(1)], result)
    assert result["onnxruntime"].startswith("failed: ")

    path, inputs = export(tmp_path)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if not installed: import fails
    with pytest.raises(RuntimeUnavailable):
        run_model(path, list(inputs))
    result = {}
    assert compare_with_runtime(path, list(inputs), list(Mixed()(*inputs)), result)
    assert result["onnxruntime"].startswith("unavailable: the onnxruntime package is not installed")
