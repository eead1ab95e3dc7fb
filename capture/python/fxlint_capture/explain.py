"""The explain() entry point: run a function once under capture and report."""

import contextlib
import gc
import time

from . import _fxlint_capture
from .replay import replay_graphs
from .report import BreakReason, CaptureReport

MODES = ("dynamo", "strict")


@contextlib.contextmanager
def _no_full_collections():
    """The capture keeps every graph, node and tensor it makes alive until it
    returns, so the cyclic garbage collector's full passes would walk them and
    everything imported before (torch's own objects) again and again. For the
    time of the capture the oldest generation's threshold is raised out of
    reach: the young collections, which free the cycles the model's own code
    drops, go on; the full ones wait until after. (gc.freeze would do it too,
    but telling whether someone else froze objects first, gc.get_freeze_count,
    walks every frozen object: 45 ms per capture in a process that froze
    transformers' import.)"""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, 1 << 30)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)


def explain(fn, mode="dynamo", replay=True):
    """Returns a callable that runs ``fn`` once under capture and returns a report.

    ``mode="strict"`` (fullgraph) marks any graph break, side effect or
    dynamic-shape operator as a failure (``report.ok`` is False, and
    ``report.check()`` raises CaptureError); the report is returned either way
    and the call's result is ``report.result``.

    With ``replay`` (the default) every captured graph is then run again on the
    inputs it took and compared with what ran (``report.replay``); a graph that
    does not reproduce it is a failure in either mode.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")

    def run(*args, **kwargs):
        with _no_full_collections():
            return _run(*args, **kwargs)

    def _run(*args, **kwargs):
        start = time.perf_counter()
        raw = _fxlint_capture.capture(fn, tuple(args), dict(kwargs))
        # Graphs with no tensor work (only grad-mode switches, or nothing) are not compiled.
        kept = [g for g in raw["graphs"] if g["call_nodes"] > 0]
        elapsed = time.perf_counter() - start
        replays, modules = None, None
        if replay:
            start = time.perf_counter()
            replays, modules = replay_graphs([g["graph"] for g in kept], raw["attrs"], kept, raw["result"])
            replay_time = time.perf_counter() - start
        report = CaptureReport(
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
            output_spec=raw["output_spec"],
            replays=replays,
        )
        if replay:
            report.replay_time_s = replay_time
            if all(m is not None for m in modules):
                report._graph_modules = modules
        return report

    return run
