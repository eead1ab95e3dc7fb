"""The `export` backend: torch.export.export, strict (TorchDynamo traces the
bytecode) and non-strict (the Python code runs on fake tensors). Each either
gives one program or stops at its first failure."""

import time

from .failures import exception_failure
from .inputs import cloned
from .target_module import as_module

STAGES = (("strict export", True), ("non-strict export", False))


def export_stage(module, args, kwargs, name, strict):
    """One export as a stage: {name, ok, detail} or {name, ok, failure}."""
    import torch
    import torch._dynamo

    torch._dynamo.reset()
    start = time.perf_counter()
    try:
        program = torch.export.export(module, *cloned((tuple(args), dict(kwargs))), strict=strict)
    except Exception as e:  # the exporter stops with many exception types; each is the failure
        return {"name": name, "ok": False, "time_s": time.perf_counter() - start,
                "failure": exception_failure(e, name)}
    ops = sum(1 for n in program.graph.nodes if n.op == "call_function")
    return {"name": name, "ok": True, "time_s": time.perf_counter() - start, "op_count": ops,
            "detail": f"{ops} ops"}


def run(fn, args, kwargs):
    module = as_module(fn)
    stages = [export_stage(module, args, kwargs, name, strict) for name, strict in STAGES]
    return {
        "backend": "export",
        "ok": all(s["ok"] for s in stages),
        "stages": stages,
        "failures": [s["failure"] for s in stages if not s["ok"]],
    }
