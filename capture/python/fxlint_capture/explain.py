"""The explain() entry point: run a function once under capture and report."""

import time

from . import _fxlint_capture
from .report import BreakReason, CaptureReport

MODES = ("dynamo", "strict")


def explain(fn, mode="dynamo"):
    """Returns a callable that runs ``fn`` once under capture and returns a report.

    ``mode="strict"`` (fullgraph) marks any graph break, side effect or
    dynamic-shape operator as a failure (``report.ok`` is False, and
    ``report.check()`` raises CaptureError); the report is returned either way
    and the call's result is ``report.result``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")

    def run(*args, **kwargs):
        start = time.perf_counter()
        raw = _fxlint_capture.capture(fn, tuple(args), dict(kwargs))
        # Graphs with no tensor work (only grad-mode switches, or nothing) are not compiled.
        kept = [g for g in raw["graphs"] if g["call_nodes"] > 0]
        elapsed = time.perf_counter() - start
        return CaptureReport(
            mode=mode,
            fx_graphs=[g["graph"] for g in kept],
            attrs=raw["attrs"],
            graph_inputs=[list(g["inputs"]) for g in kept],
            break_reasons=[BreakReason(**b) for b in raw["break_reasons"]],
            guards=raw["guards"],
            side_effects=raw["side_effects"],
            specializations=raw["specializations"],
            compile_time_s=elapsed,
            result=raw["result"],
        )

    return run
