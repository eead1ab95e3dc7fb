"""Real models no one here wrote (torchvision 0.14, random weights): the
classifiers and a transformer layer capture in one graph equal to eager and
export to valid ONNX; a detection model reports its breaks where they are."""

import os

import pytest
import torch
import torchvision

import fxlint_capture
from fxlint_capture.onnx_check import export_and_validate, max_abs_diff

CLASSIFIERS = {
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 64, 64)),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(), (1, 3, 64, 64)),
    "vit_b_16": (lambda: torchvision.models.vit_b_16(image_size=32), (1, 3, 32, 32)),
    "transformer_encoder_layer": (lambda: torch.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64),
                                  (5, 2, 32)),
}


def nontrivial(model, shape):
    """Random weights whose outputs carry signal, so comparing outputs means
    something: zero-initialised heads (ViT's) get random weights, and batch-norm
    statistics are calibrated on random batches instead of staying 0 / 1 (with
    which MobileNet's activations shrink to 1e-10)."""
    for module in model.modules():
        if isinstance(module, torch.nn.Linear) and not module.weight.detach().any():
            torch.nn.init.xavier_uniform_(module.weight)
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
            module.reset_running_stats()
            module.momentum = None  # a plain average over the calibration batches
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn((4,) + shape[1:] if len(shape) == 4 else shape))
    return model.eval()


@pytest.mark.parametrize("name", sorted(CLASSIFIERS))
def test_classifier_single_graph_and_onnx(name, tmp_path):
    torch.manual_seed(0)
    make, shape = CLASSIFIERS[name]
    model = nontrivial(make(), shape)
    x = torch.randn(shape)
    report = fxlint_capture.explain(model)(x)
    assert report.graph_count == 1, str(report)
    assert report.graph_break_count == 0, str(report)
    eager = model(x)  # in the capture's grad mode: no_grad takes other kernels (attention's fast path)
    assert torch.equal(report.result, eager)
    with torch.no_grad():
        graph_out = report.graphs[0](*report.graph_inputs[0])
    assert eager.abs().max() > 1e-2  # outputs worth comparing
    assert max_abs_diff(graph_out, eager) < 1e-5

    onnx_report = export_and_validate(report, str(tmp_path / f"{name}.onnx"))
    assert onnx_report["ok"], onnx_report
    assert onnx_report["checker"] == "ok" and onnx_report["shape_inference"] == "ok"
    assert onnx_report["opset_imports"]["ai.onnx"] == 18
    assert onnx_report["non_standard_ops"] == []
    assert onnx_report["max_abs_diff_graph_vs_eager"] < 1e-5
    # ONNX Runtime computes what eager PyTorch computes.
    assert onnx_report["onnxruntime"] == "ok", onnx_report
    assert onnx_report["max_abs_diff_onnx_vs_eager"] < 1e-3
    assert os.path.getsize(tmp_path / f"{name}.onnx") > 0


def test_resnet_ops_are_the_model():
    model = torchvision.models.resnet18().eval()
    report = fxlint_capture.explain(model)(torch.randn(1, 3, 64, 64))
    (ops,) = report.ops_per_graph
    assert ops.count("module conv1") == 1
    assert sum(op.startswith("module layer") and op.endswith("conv1") for op in ops) == 8
    assert "torch.flatten" in ops and ops[-1] == "module fc"
    assert ops.count("operator.iadd") == 8  # out += identity in each BasicBlock


def test_detection_model_breaks_at_real_sites():
    torch.manual_seed(0)
    model = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
        weights=None, weights_backbone=None).eval()
    images = [torch.rand(3, 128, 160)]
    report = fxlint_capture.explain(model)(images)
    with torch.no_grad():
        eager = model(images)
    assert report.graph_count > 1 and report.graph_break_count > 1
    codes = [b.code for b in report.break_reasons]
    # torchvision 0.29: the first break is remove_small_boxes' torch.where(keep) in the RPN.
    assert codes[0] == "FX303"
    assert "FX102" in codes  # float() of the pooler's level scale
    first = report.break_reasons[0].user_stack
    assert first[0]["name"] == "forward" and first[0]["filename"].endswith("generalized_rcnn.py")
    assert first[-1]["filename"].endswith("ops/boxes.py") and "torch.where(" in first[-1]["line"]
    for b in report.break_reasons:
        site = b.user_stack[-1]
        assert "torchvision" in site["filename"]
        if b.code == "FX303":
            assert "where(" in site["line"] or "nms(" in site["line"], site
        if b.code == "FX101":
            assert ".item()" in site["line"], site
        if b.code == "FX102":
            assert "float(" in site["line"], site
    assert len(report.result) == len(eager) == 1
    for key in ("boxes", "labels", "scores"):
        assert torch.equal(report.result[0][key], eager[0][key])
    # Breaks inside loops break once per iteration; the report also counts the places.
    sites = report.break_sites
    assert sum(s["count"] for s in sites) == report.graph_break_count
    assert len({(s["filename"], s["lineno"]) for s in sites}) == len(sites) < report.graph_break_count
    assert report.to_json()["break_sites"] == sites
    assert f"Break Sites: {len(sites)}" in str(report)
    # torch.jit's script-if-tracing wrapper (around batched_nms) is not a user frame.
    assert not [f for b in report.break_reasons for f in b.user_stack if f["filename"].endswith("jit/_trace.py")]
    # Every graph, one per iteration included, replays what ran.
    assert len(report.replays) == report.graph_count
    assert all(r["ok"] for r in report.replays), [r for r in report.replays if not r["ok"]]
