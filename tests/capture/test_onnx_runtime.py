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


class Scaled(torch.nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x * self.k, x.sum(dim=1, keepdim=True) * 0


def export_scaled(tmp_path, k):
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    path = str(tmp_path / f"scaled_{k}.onnx")
    torch.onnx.export(Scaled(k), (x,), path, opset_version=18, input_names=["input_0"])
    return path, x, list(Scaled(k)(x))


def test_small_outputs_are_compared_relative_to_their_scale(tmp_path):
    path, x, expected = export_scaled(tmp_path, 1e-3)
    result = {}
    assert compare_with_runtime(path, [x], expected, result), result
    assert result["onnxruntime"] == "ok"
    assert result["uninformative_outputs"] == [{"output": 1, "why": "constant (0)"}]
    # 2% off is under 5e-5 here: inside an absolute 1e-4, but a mismatch relative to the output.
    expected[0] = expected[0] * 1.02
    result = {}
    assert not compare_with_runtime(path, [x], expected, result)
    assert result["onnxruntime"].startswith("mismatch")
    assert result["max_abs_diff_onnx_vs_eager"] < 1e-4
    assert result["max_rel_diff_onnx_vs_eager"] == pytest.approx(0.02 / 1.02, rel=1e-3)


def test_vanishing_or_constant_outputs_prove_nothing(tmp_path):
    path, x, expected = export_scaled(tmp_path, 1e-10)
    result = {}
    assert not compare_with_runtime(path, [x], expected, result)
    assert result["onnxruntime"].startswith("inconclusive: output 0 is vanishing (largest magnitude 2.")
    assert "output 1 is constant (0)" in result["onnxruntime"]
    path, x, expected = export_scaled(tmp_path, 0.0)
    result = {}
    assert not compare_with_runtime(path, [x], expected, result)
    assert result["onnxruntime"].startswith("inconclusive: output 0 is constant")
