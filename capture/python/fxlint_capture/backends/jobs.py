"""One target through a backend, as the command line runs it, alone or in a
batch of targets that share one Python process (importing torch and its
compilers once)."""

import sys
import traceback

import torch

from ..inputs import SpecError, parse_specs, resolve_target
from .runner import TargetRaised, run_backend


def run_job(backend, target, inputs, onnx=None, opset=18, seed=0):
    """{"exit", "report", "message"}: exit 0 passed, 1 failed (the report says
    why), 2 the target or an input cannot be loaded, 3 the target raised."""
    torch.manual_seed(seed)
    try:
        fn, base_dir = resolve_target(target)
        args, kwargs = parse_specs(inputs, base_dir)
    except SpecError as e:
        return {"exit": 2, "report": None, "message": str(e)}
    except Exception as e:  # importing the user's file can fail in any way
        return {"exit": 2, "report": None, "message": f"cannot load {target}: {type(e).__name__}: {e}"}
    try:
        report = run_backend(backend, fn, args, kwargs, onnx, opset)
    except TargetRaised as e:
        print(f"fxlint_capture: {target} raised an exception:", file=sys.stderr)
        traceback.print_exception(e.error, file=sys.stderr)
        return {"exit": 3, "report": None, "message": str(e)}
    report["target"] = target
    return {"exit": 0 if report["ok"] else 1, "report": report, "message": None}


def read_batch(text):
    """The jobs of `--batch`: a JSON list of {target, inputs, onnx?, opset?}."""
    import json

    try:
        jobs = json.loads(text)
    except ValueError as e:
        raise SpecError(f"--batch takes a JSON list of jobs: {e}") from None
    if not isinstance(jobs, list) or not all(isinstance(j, dict) and isinstance(j.get("target"), str)
                                             for j in jobs):
        raise SpecError('--batch takes a JSON list of {"target": ..., "inputs": [...]} objects')
    return jobs
