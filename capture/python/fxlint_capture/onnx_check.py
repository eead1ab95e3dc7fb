"""Export of a single-graph capture to ONNX, and validation of the result."""

import torch

from .onnx_run import RuntimeUnavailable, run_model

STANDARD_DOMAINS = ("", "ai.onnx", "ai.onnx.ml")
# ONNX Runtime against eager PyTorch: float kernels differ in summation order.
RTOL, ATOL = 1e-3, 1e-4


def _flatten(value, out):
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flatten(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _flatten(v, out)
    return out


def max_abs_diff(a, b):
    """Largest absolute difference between two (nested) tensor outputs."""
    xs, ys = _flatten(a, []), _flatten(b, [])
    if len(xs) != len(ys):
        return float("inf")
    diff = 0.0
    for x, y in zip(xs, ys):
        if x.shape != y.shape:
            return float("inf")
        if x.numel():
            diff = max(diff, (x.double() - y.double()).abs().max().item())
    return diff


def all_close(a, b):
    """Whether two (nested) tensor outputs agree within RTOL / ATOL, shape for shape."""
    xs, ys = _flatten(a, []), _flatten(b, [])
    return len(xs) == len(ys) and all(
        x.shape == y.shape and torch.allclose(x.double(), y.double(), rtol=RTOL, atol=ATOL)
        for x, y in zip(xs, ys))


def compare_with_runtime(path, inputs, expected, result):
    """Runs the model with ONNX Runtime and records how it compares with
    `expected`; False when the runtime fails or disagrees."""
    try:
        outputs = run_model(path, inputs)
    except RuntimeUnavailable as e:
        result["onnxruntime"] = f"unavailable: {e}"
        return True
    except Exception as e:  # the runtime rejects models in many ways; report them all
        result["onnxruntime"] = f"failed: {e}"
        return False
    result["max_abs_diff_onnx_vs_eager"] = max_abs_diff(outputs, expected)
    close = all_close(outputs, expected)
    result["onnxruntime"] = "ok" if close else f"mismatch (rtol {RTOL}, atol {ATOL})"
    return close


def export_and_validate(report, path, opset=18):
    """Exports report's only graph to `path` and checks it; returns a dict."""
    import onnx

    result = {"path": path, "ok": False, "opset": opset}
    if report.graph_count != 1:
        result["error"] = f"ONNX export needs exactly one graph; the capture produced {report.graph_count}"
        return result
    gm, inputs = report.graphs[0], report.graph_inputs[0]
    with torch.no_grad():
        graph_out = gm(*inputs)
    result["max_abs_diff_graph_vs_eager"] = max_abs_diff(graph_out, report.result)
    try:
        # Not under no_grad: inference fast paths (fused attention) have no ONNX form.
        torch.onnx.export(gm, tuple(inputs), path, opset_version=opset, dynamo=True,
                          input_names=[f"input_{i}" for i in range(len(inputs))],
                          verbose=False)
    except Exception as e:  # the exporter raises many kinds of errors; report them all the same way
        result["error"] = f"torch.onnx.export failed: {type(e).__name__}: {e}"
        return result
    model = onnx.load(path)
    try:
        onnx.checker.check_model(model)
        result["checker"] = "ok"
    except onnx.checker.ValidationError as e:
        result["checker"] = f"failed: {e}"
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        result["shape_inference"] = "ok"
        result["outputs"] = [
            {"name": o.name, "shape": [d.dim_value if d.HasField("dim_value") else d.dim_param
                                       for d in o.type.tensor_type.shape.dim]}
            for o in inferred.graph.output]
    except Exception as e:  # onnx raises InferenceError or RuntimeError depending on the build
        result["shape_inference"] = f"failed: {e}"
    result["opset_imports"] = {imp.domain or "ai.onnx": imp.version for imp in model.opset_import}
    result["op_types"] = sorted({n.op_type for n in model.graph.node})
    result["non_standard_ops"] = sorted({f"{n.domain}::{n.op_type}" for n in model.graph.node
                                         if n.domain not in STANDARD_DOMAINS})
    result["node_count"] = len(model.graph.node)
    result["ok"] = (result["checker"] == "ok" and result["shape_inference"] == "ok"
                    and not result["non_standard_ops"])
    if result["ok"]:
        result["ok"] = compare_with_runtime(path, inputs, report.result, result)
    return result
