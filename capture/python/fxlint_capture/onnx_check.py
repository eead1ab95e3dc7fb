"""Export of a single-graph capture to ONNX, and validation of the result."""

import torch

from .onnx_run import RuntimeUnavailable, run_model
from .outputs import flatten

STANDARD_DOMAINS = ("", "ai.onnx", "ai.onnx.ml")
# ONNX Runtime against eager PyTorch: float kernels differ in summation order.
# The absolute part of the tolerance is relative to each output's own scale
# (its largest magnitude), so that small outputs are not compared with a
# tolerance larger than the values themselves.
RTOL, ATOL = 1e-3, 1e-4
# A float output whose largest magnitude is below this carries too little
# signal to compare kernels on (random weights can shrink activations to ~1e-10).
TINY = 1e-8


def _flatten(value, out):
    out.extend(flatten(value)[0])
    return out


def uninformative(expected):
    """Why comparing with this output proves nothing (a constant or vanishing
    output), or None."""
    if expected.numel() == 0:
        return "empty"
    e = expected.detach()
    if e.is_floating_point() or e.is_complex():
        e = e.double() if not e.is_complex() else e.abs().double()
        finite = e[torch.isfinite(e)]
        if finite.numel() == 0:
            return "no finite value"
        scale = finite.abs().max().item()
        if finite.numel() > 1 and (finite.max() - finite.min()).item() <= 1e-6 * scale:
            return f"constant ({finite.flatten()[0].item() + 0.0:.6g})"
        if scale < TINY:
            return f"vanishing (largest magnitude {scale:.3g} < {TINY:g})"
        return None
    if e.numel() > 1 and bool((e == e.flatten()[0]).all()):
        return f"constant ({e.flatten()[0].item()})"
    return None


def _close(x, y):
    """x (the runtime's) against y (eager): rtol, and atol scaled by y's largest magnitude."""
    if x.shape != y.shape:
        return False
    if not (y.is_floating_point() or y.is_complex()):
        return torch.equal(x.to(y.dtype), y)
    if y.numel() == 0:
        return True
    yd = y.detach().double()
    finite = yd[torch.isfinite(yd)]
    scale = finite.abs().max().item() if finite.numel() else 0.0
    return torch.allclose(x.detach().double(), yd, rtol=RTOL, atol=ATOL * scale, equal_nan=True)


def max_rel_diff(a, b):
    """Largest absolute difference of each output pair, over that output's largest magnitude."""
    xs, ys = _flatten(a, []), _flatten(b, [])
    if len(xs) != len(ys):
        return float("inf")
    worst = 0.0
    for x, y in zip(xs, ys):
        if x.shape != y.shape:
            return float("inf")
        if not x.numel():
            continue
        diff = (x.double() - y.double()).abs().max().item()
        scale = y.double().abs().max().item()
        worst = max(worst, diff / scale if scale > 0 else (0.0 if diff == 0 else float("inf")))
    return worst


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
    """Whether two (nested) tensor outputs agree within RTOL and ATOL times each
    expected output's largest magnitude, shape for shape."""
    xs, ys = _flatten(a, []), _flatten(b, [])
    return len(xs) == len(ys) and all(_close(x, y) for x, y in zip(xs, ys))


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
    result["max_rel_diff_onnx_vs_eager"] = max_rel_diff(outputs, expected)
    close = all_close(outputs, expected)
    if not close:
        result["onnxruntime"] = f"mismatch (rtol {RTOL}, atol {ATOL} x each output's largest magnitude)"
        return False
    flat = _flatten(expected, [])
    weak = [(i, why) for i, why in ((i, uninformative(e)) for i, e in enumerate(flat)) if why]
    result["uninformative_outputs"] = [{"output": i, "why": why} for i, why in weak]
    if flat and len(weak) == len(flat):
        # Agreeing on outputs that carry no signal proves nothing about the model.
        result["onnxruntime"] = "inconclusive: " + "; ".join(f"output {i} is {why}" for i, why in weak)
        return False
    result["onnxruntime"] = "ok"
    return True


def check_model_file(path, result):
    """Checks the ONNX model at `path` (checker, strict shape inference, standard
    ops) into `result`; returns whether it passes."""
    import onnx

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
    return (result["checker"] == "ok" and result["shape_inference"] == "ok"
            and not result["non_standard_ops"])


def export_and_validate(report, path, opset=18):
    """Exports report's only graph to `path` and checks it; returns a dict."""
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
    result["ok"] = check_model_file(path, result)
    if result["ok"]:
        result["ok"] = compare_with_runtime(path, inputs, report.result, result)
    return result
