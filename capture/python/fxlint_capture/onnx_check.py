"""Export of a single-graph capture to ONNX, and validation of the result."""

import torch

STANDARD_DOMAINS = ("", "ai.onnx", "ai.onnx.ml")


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


def export_and_validate(report, path, opset=17):
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
        torch.onnx.export(gm, tuple(inputs), path, opset_version=opset,
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
    return result
