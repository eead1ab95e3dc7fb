"""The `dynamo` backend: torch._dynamo.explain(fn)(*args), TorchDynamo's own
account of the graphs and graph breaks of one call.

explain() reports a break through the graph compiled before it, so a break
with no tensor work before it in its frame (a `print` on a function's first
line) leaves no graph behind and is missing from its `break_reasons`. Dynamo
still logs such a break (what TORCH_LOGS=graph_breaks shows): those logged at a
place explain did not report are added, marked `"source": "graph break log"`.
"""

import contextlib
import time

from ..report import _op_name
from .failures import failure
from .user_frames import user_stack


@contextlib.contextmanager
def _logged_breaks():
    """Collects (reason, user frames) of each graph break Dynamo logs."""
    from torch._dynamo import symbolic_convert

    logged = []
    tracer = getattr(symbolic_convert, "InstructionTranslatorBase", None)
    original = getattr(tracer, "log_graph_break", None)
    if original is None:  # a torch without the hook: explain's breaks alone
        yield logged
        return

    def log_graph_break(self, code_options, reason, exc, *args, **kwargs):
        if not getattr(exc, "logged", False):
            stack = getattr(exc, "real_stack", None)
            if stack is None:
                import torch._guards

                stack = torch._guards.TracingContext.extract_stack()
            logged.append((reason, list(stack or ())))
        return original(self, code_options, reason, exc, *args, **kwargs)

    tracer.log_graph_break = log_graph_break
    try:
        yield logged
    finally:
        tracer.log_graph_break = original


def _site(stack):
    return (stack[-1]["filename"], stack[-1]["lineno"]) if stack else None


def run(fn, args, kwargs):
    """The report of explain(fn)(*args, **kwargs); the call's own exceptions propagate."""
    import torch._dynamo

    torch._dynamo.reset()
    start = time.perf_counter()
    with _logged_breaks() as logged:
        explained = torch._dynamo.explain(fn)(*args, **kwargs)
    elapsed = time.perf_counter() - start
    breaks = []
    for b in explained.break_reasons:
        breaks.append(failure(b.reason, user_stack(b.user_stack), source="explain"))
    sites = {_site(b["user_stack"]): b for b in breaks}
    for reason, frames in logged:
        stack = user_stack(frames)
        known = sites.get(_site(stack))
        if known is not None:
            # explain's reason can be terse ("generic_jump TensorVariable()"); the
            # log's names the graph-break id.
            known["gb_id"] = known["gb_id"] or failure(reason, stack)["gb_id"]
            continue
        sites[_site(stack)] = logged_break = failure(reason, stack, source="graph break log")
        breaks.append(logged_break)
    ops = [[_op_name(n) for n in g.graph.nodes if n.op in ("call_function", "call_method", "call_module")]
           for g in explained.graphs]
    graph_count = explained.graph_count
    return {
        "backend": "dynamo",
        "ok": graph_count <= 1 and not breaks,
        "graph_count": graph_count,
        "graph_break_count": len(breaks),
        "break_reasons": breaks,
        "break_sites": _break_sites(breaks),
        "op_count": sum(len(o) for o in ops),
        "ops_per_graph": ops,
        "guard_count": len(explained.out_guards or ()),
        "compile_time_s": elapsed,
        "torch_version": torch.__version__,
    }


def _break_sites(breaks):
    sites = {}
    for b in breaks:
        frame = b["user_stack"][-1] if b["user_stack"] else {}
        key = (frame.get("filename", "?"), frame.get("lineno", 0))
        if key not in sites:
            sites[key] = {"filename": key[0], "lineno": key[1], "line": frame.get("line"), "code": b["code"],
                          "reason": b["summary"], "count": 0}
        sites[key]["count"] += 1
    return list(sites.values())
