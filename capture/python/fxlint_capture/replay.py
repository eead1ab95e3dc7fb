"""Replays each captured graph on its recorded inputs and compares what it
returns with what ran during the capture.

A graph that does not run, or that computes something other than what the
captured call computed at that point, does not describe the code: the report
marks it as a failure with the reason.
"""

import torch

from .outputs import flatten

# The graph runs the same kernels as the capture did; the tolerance only
# absorbs non-deterministic reductions.
RTOL, ATOL = 1e-4, 1e-5


def graph_state():
    """What a graph's results depend on besides its inputs, taken when it opens:
    the grad mode and the random number generators' states."""
    cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() and torch.cuda.is_initialized() else None
    return torch.is_grad_enabled(), torch.get_rng_state(), cuda


def snapshot(tensor):
    """The value a placeholder took, kept apart from later in-place changes."""
    with torch.no_grad():
        copy = tensor.detach().clone()
    if tensor.requires_grad and (copy.is_floating_point() or copy.is_complex()):
        copy.requires_grad_(True)
        if not tensor.is_leaf:
            with torch.enable_grad():
                copy = copy.clone()  # not a leaf either, so in-place operations on it are allowed
    return copy


def _state_tensors(attrs):
    """Tensors a graph can read or change besides its inputs: parameters,
    buffers and constant tensors, by id."""
    params, others = {}, {}
    for value in attrs.values():
        if isinstance(value, torch.nn.Parameter):
            params[id(value)] = value
        elif isinstance(value, torch.Tensor):
            others[id(value)] = value
        elif isinstance(value, torch.nn.Module):
            for p in value.parameters():
                params[id(p)] = p
            for b in value.buffers():
                others[id(b)] = b
    return params, others


class _KeepState:
    """Restores the random generators, and buffers and constant tensors the
    replay changed in place, so that replaying leaves the user's state as the
    capture left it."""

    def __init__(self, attrs):
        self.params, others = _state_tensors(attrs)
        self.saved = [(t, t._version, t.detach().clone()) for t in others.values()]
        self.param_versions = {k: p._version for k, p in self.params.items()}

    def __enter__(self):
        self.rng = torch.get_rng_state()
        self.cuda = torch.cuda.get_rng_state_all() if torch.cuda.is_available() and torch.cuda.is_initialized() \
            else None
        self.grad = torch.is_grad_enabled()
        return self

    def changed_parameters(self):
        return [k for k, p in self.params.items() if p._version != self.param_versions[k]]

    def restore(self):
        torch.set_rng_state(self.rng)
        if self.cuda is not None:
            torch.cuda.set_rng_state_all(self.cuda)
        torch.set_grad_enabled(self.grad)
        with torch.no_grad():
            for i, (t, version, value) in enumerate(self.saved):
                if t._version != version:
                    t.copy_(value)
                    self.saved[i] = (t, t._version, value)

    def __exit__(self, *exc):
        self.restore()
        return False


def _compare(actual, expected):
    """None when `actual` (the replay's tensors) equals `expected` ((tensor,
    version) pairs or tensors), in values and in whether they require grad;
    else why not. Tensors changed in place after the graph ran (their version
    moved) are not compared."""
    if len(actual) != len(expected):
        return f"the graph returns {len(actual)} tensors where the capture produced {len(expected)}", 0.0, 0
    worst, skipped = 0.0, 0
    for i, (a, e) in enumerate(zip(actual, expected)):
        e, version = e if isinstance(e, tuple) else (e, None)
        if version is not None and e._version != version:
            skipped += 1
            continue
        if not isinstance(a, torch.Tensor):
            return f"output {i} is a {type(a).__name__}, not a tensor", worst, skipped
        if a.shape != e.shape or a.dtype != e.dtype:
            return (f"output {i} is {a.dtype} {tuple(a.shape)} where the capture produced "
                    f"{e.dtype} {tuple(e.shape)}"), worst, skipped
        if a.requires_grad != e.requires_grad:  # made in another grad mode
            return (f"output {i} {'requires' if a.requires_grad else 'does not require'} grad where the "
                    f"capture's {'does not' if a.requires_grad else 'does'}"), worst, skipped
        if a.numel() == 0:
            continue
        a_, e_ = a.detach(), e.detach()
        if a_.is_floating_point() or a_.is_complex():
            diff = (a_.double() - e_.double()).abs() if not a_.is_complex() else (a_ - e_).abs().double()
            both_nan = torch.isnan(a_) & torch.isnan(e_) if not a_.is_complex() else torch.zeros_like(diff, dtype=bool)
            diff = torch.where(both_nan, torch.zeros_like(diff), diff)
            worst = max(worst, float(torch.nan_to_num(diff, nan=float("inf")).max()))
            if not torch.allclose(a_, e_, rtol=RTOL, atol=ATOL, equal_nan=True):
                return (f"output {i} differs from what ran (largest difference {worst:.3g}, "
                        f"rtol {RTOL}, atol {ATOL})"), worst, skipped
        elif not torch.equal(a_, e_):
            return f"output {i} differs from what ran ({a_.dtype} values)", worst, skipped
    return None, worst, skipped


def replay_graphs(fx_graphs, attrs, graph_records, result):
    """Replays each graph; returns (one dict per graph: {graph, ok, reason,
    max_abs_diff, compared, skipped}, the GraphModules (None where one cannot
    be built))."""
    import torch.fx

    out, modules = [], []
    # Which graphs read state that changed after they ran, decided before any
    # replay (restoring state after a replay moves versions too).
    changed_state = [[name for name, t, version in rec["attr_versions"] if t._version != version]
                     for rec in graph_records]
    with _KeepState(attrs) as keep:
        for index, (g, rec) in enumerate(zip(fx_graphs, graph_records)):
            entry = {"graph": index, "ok": True, "reason": None, "max_abs_diff": 0.0, "compared": 0, "skipped": 0}
            out.append(entry)
            changed = changed_state[index]
            try:
                gm = torch.fx.GraphModule(attrs, g)
            except Exception as e:  # codegen of an unrepresentable graph fails in many ways
                entry.update(ok=False, reason=f"the graph cannot be compiled: {type(e).__name__}: {e}")
                modules.append(None)
                continue
            modules.append(gm)
            if rec["returns_value"]:
                expected = flatten(result)[0]
            else:
                expected = list(rec["expected"])
            grad, rng, cuda = rec["state"]
            inputs = [snapshot(t) for t in rec["inputs"]]
            try:
                torch.set_rng_state(rng)
                if cuda is not None:
                    torch.cuda.set_rng_state_all(cuda)
                with torch.set_grad_enabled(grad):
                    value = gm(*inputs)
            except Exception as e:  # whatever the graph raises is the reason it failed
                entry.update(ok=False, reason=f"the graph raises {type(e).__name__}: {e}")
                continue
            finally:
                keep.restore()
            actual = flatten(value)[0]
            if changed:
                # The graph read module state that changed after it ran: what it
                # computes now cannot be compared with what it computed then.
                entry.update(skipped=len(expected),
                             reason="not compared: state the graph reads changed after it ran (" +
                                    ", ".join(changed[:3]) + ")")
                continue
            reason, worst, skipped = _compare(actual, expected)
            entry.update(max_abs_diff=worst, compared=len(expected) - skipped, skipped=skipped)
            if reason:
                entry.update(ok=False, reason=reason)
        moved = keep.changed_parameters()
    if moved:
        for entry in out:
            if entry["ok"] and entry["reason"] is None:
                entry["reason"] = f"replaying changed {len(moved)} parameter(s) in place"
    return out, modules
