"""The `onnx` backend: torch.onnx.export(model, args, dynamo=True), the model
checked with the `onnx` library and run with ONNX Runtime against eager PyTorch."""

import os
import tempfile
import time

from ..onnx_check import RTOL, ATOL, check_model_file, compare_with_runtime
from .failures import exception_failure, failure
from .inputs import cloned, tensor_leaves
from .target_module import as_module


def _export(module, args, kwargs, path, opset):
    import torch

    start = time.perf_counter()
    try:
        program = torch.onnx.export(module, tuple(cloned(args)), kwargs=cloned(kwargs), dynamo=True,
                                    opset_version=opset, verbose=False)
        program.save(path)
    except Exception as e:  # the exporter stops with many exception types; each is the failure
        return {"name": "ONNX export", "ok": False, "time_s": time.perf_counter() - start,
                "failure": exception_failure(e, "ONNX export")}
    return {"name": "ONNX export", "ok": True, "time_s": time.perf_counter() - start}


def run(fn, args, kwargs, expected, path=None, opset=18):
    """`expected`: what the call returns eagerly. The model goes to `path`, or
    to a temporary file removed after the check."""
    module = as_module(fn)
    with tempfile.TemporaryDirectory(prefix="fxlint-onnx-") as tmp:
        model = path or os.path.join(tmp, "model.onnx")
        if path and os.path.dirname(os.path.abspath(path)):
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        onnx = {"path": path, "opset": opset}
        stages = [_export(module, args, kwargs, model, opset)]
        if stages[0]["ok"]:
            valid = check_model_file(model, onnx)
            stages[0]["detail"] = f"opset {opset}, {onnx['node_count']} nodes"
            if not valid:
                problems = [f"checker {onnx['checker']}" if onnx["checker"] != "ok" else "",
                            f"shape inference {onnx['shape_inference']}" if onnx["shape_inference"] != "ok" else "",
                            "non-standard ops " + ", ".join(onnx["non_standard_ops"]) if onnx["non_standard_ops"]
                            else ""]
                stages.append({"name": "ONNX model", "ok": False,
                               "failure": failure("invalid model: " + "; ".join(p for p in problems if p), [],
                                                  stage="ONNX model")})
            else:
                stages.append(_runtime_stage(model, args, kwargs, expected, onnx))
    return {
        "backend": "onnx",
        "ok": all(s["ok"] for s in stages),
        "stages": stages,
        "failures": [s["failure"] for s in stages if not s["ok"]],
        "onnx": onnx,
    }


def _runtime_stage(model, args, kwargs, expected, onnx):
    """ONNX Runtime's outputs against eager's: |onnx - eager| within RTOL of each
    value plus ATOL of the output's largest magnitude."""
    ok = compare_with_runtime(model, tensor_leaves((args, kwargs)), expected, onnx)
    verdict = onnx.get("onnxruntime", "")
    diff = onnx.get("max_abs_diff_onnx_vs_eager")
    onnx["tolerance"] = {"rtol": RTOL, "atol_of_largest_magnitude": ATOL}
    stage = {"name": "ONNX Runtime", "ok": ok}
    shown = f"max |onnx - eager| {diff:.3g}" if isinstance(diff, float) else ""
    if ok:
        # "ok", or why the runtime could not decide ("unavailable: ..."), which does not fail the target.
        parts = [verdict if verdict != "ok" else "", shown + (" within tolerance" if verdict == "ok" else "")]
        stage["detail"] = ", ".join(p for p in parts if p.strip())
    else:
        stage["failure"] = failure(f"ONNX Runtime {verdict}" + (f"; {shown}" if shown else ""), [],
                                   stage="ONNX Runtime")
    return stage
