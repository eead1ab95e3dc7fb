"""torch.export on one function of a model alone, with the arguments the eager run gave it.

A compiler that fails early in a forward never traces what comes after: draft export goes on past
data-dependent failures, but it can itself raise (a kernel it cannot fake, an internal assertion),
and the lines after that stay untraced. For those lines the probe takes the innermost function
that holds each one, records the arguments of its first call that ran the line, and exports that
function alone: its tensor arguments become the program's inputs, every other argument a constant,
and module arguments sub-modules, so their parameters are the program's state. Draft export then
lists where that function fails.
"""

import inspect
import sys

from worker import _Alarm, StepTimeout, draft_export, failure


def calls_reaching(fn, wanted):
    """Runs fn() and returns, for each function (code object) that ran one of the wanted
    (filename, lineno) lines, ``(function, arguments, lines)``: the function object, the
    arguments of its first call that ran such a line (tensors cloned at the call) and the wanted
    lines that call ran. Functions not reachable by name (nested, or wrapped past recognition)
    come back with function None."""
    import torch
    import torch.utils._pytree as pytree

    files = {f for f, _ in wanted}
    in_code = {}  # code -> the wanted lines among its own
    found = {}  # code -> [function, arguments, lines]

    def snapshot(frame):
        code = frame.f_code
        n = code.co_argcount + code.co_kwonlyargcount
        n += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
        loc = frame.f_locals
        return {name: pytree.tree_map_only(torch.Tensor, lambda t: t.detach().clone(), loc[name])
                for name in code.co_varnames[:n] if name in loc}

    def global_trace(frame, event, arg):
        code = frame.f_code
        if code.co_filename not in files:
            return None
        mine = in_code.get(code)
        if mine is None:
            own = {ln for _, _, ln in code.co_lines() if ln is not None}
            mine = in_code[code] = {ln for f, ln in wanted if f == code.co_filename and ln in own}
        if not mine or (code in found and found[code][2] >= mine):
            return None
        args = snapshot(frame)

        def local(frame, event, arg):
            if event == "line" and frame.f_lineno in mine:
                rec = found.setdefault(code, [None, args, set()])
                if rec[1] is args:  # the first call that ran a wanted line
                    if rec[0] is None:
                        rec[0] = _function_of(frame)
                    rec[2].add(frame.f_lineno)
            return local

        return local

    sys.settrace(global_trace)
    try:
        fn()
    finally:
        sys.settrace(None)
    return {code: (rec[0], rec[1], sorted(rec[2])) for code, rec in found.items()}


def _function_of(frame):
    """The function object a frame runs: a method of its first argument's class, or a global of
    its module; None when neither holds this code."""
    code = frame.f_code
    candidates = []
    if code.co_argcount:
        first = frame.f_locals.get(code.co_varnames[0])
        owner = first if isinstance(first, type) else type(first)
        for klass in getattr(owner, "__mro__", ()):
            if code.co_name in vars(klass):
                candidates.append(vars(klass)[code.co_name])
    candidates.append(frame.f_globals.get(code.co_name))
    for c in candidates:
        if isinstance(c, (staticmethod, classmethod)):
            c = c.__func__
        try:
            c = inspect.unwrap(c) if c is not None else None
        except ValueError:
            continue
        if getattr(c, "__code__", None) is code:
            return c
    return None


def _module(fn, code, arguments):
    """An nn.Module whose forward calls fn with `arguments`, taking their tensors as its inputs."""
    import torch
    import torch.utils._pytree as pytree

    names = list(arguments)
    leaves, spec = pytree.tree_flatten([arguments[n] for n in names])
    slots = [i for i, v in enumerate(leaves) if isinstance(v, torch.Tensor)]
    n_pos = code.co_argcount
    varargs = code.co_varnames[n_pos + code.co_kwonlyargcount] if code.co_flags & inspect.CO_VARARGS else None
    varkw = names[-1] if code.co_flags & inspect.CO_VARKEYWORDS else None

    class Probe(torch.nn.Module):
        def __init__(self):
            super().__init__()
            # Module arguments (self among them) hold the parameters the function reads.
            self.held = torch.nn.ModuleList([v for v in leaves if isinstance(v, torch.nn.Module)])

        def forward(self, *tensors):
            now = list(leaves)
            for i, t in zip(slots, tensors):
                now[i] = t
            values = dict(zip(names, pytree.tree_unflatten(now, spec)))
            pos = [values[n] for n in code.co_varnames[:n_pos] if n in values]
            if varargs is not None:
                pos += list(values.get(varargs, ()))
            kw = {n: values[n] for n in code.co_varnames[n_pos:n_pos + code.co_kwonlyargcount] if n in values}
            if varkw is not None:
                kw.update(values.get(varkw, {}))
            out = fn(*pos, **kw)
            # Only tensors leave the program: results may hold objects export cannot return.
            return tuple(v for v in pytree.tree_leaves(out) if isinstance(v, torch.Tensor))

    return Probe(), tuple(leaves[i] for i in slots)


def step(model, args, kwargs, wanted, prefixes, timeout):
    """The probe of every function holding one of the `wanted` lines the model ran: for each,
    the lines it holds and where draft export of that function alone failed."""
    import time

    import torch

    if not hasattr(torch.export, "draft_export"):
        return {"ok": None, "skipped": "this torch has no torch.export.draft_export"}
    if not wanted:
        return {"ok": None, "skipped": "no line to probe"}
    t0 = time.perf_counter()
    try:
        with _Alarm(timeout), torch.no_grad():
            calls = calls_reaching(lambda: model(*args, **kwargs), {tuple(x) for x in wanted})
    except StepTimeout:
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True, "time_s": time.perf_counter() - t0}
    except Exception as e:  # noqa: BLE001 - the model raised under the tracer
        return {**failure(e, prefixes), "time_s": time.perf_counter() - t0}
    probes = []
    for code, (fn, arguments, lines) in calls.items():
        where = {"filename": code.co_filename, "firstlineno": code.co_firstlineno, "name": code.co_qualname,
                 "lines": lines}
        if fn is None:
            probes.append({**where, "ok": None, "skipped": "the function is not reachable by name"})
            continue
        tp = time.perf_counter()
        try:
            module, inputs = _module(fn, code, arguments)
        except Exception as e:  # noqa: BLE001 - arguments torch's pytree cannot take apart
            probes.append({**where, "ok": None, "skipped": f"{type(e).__name__}: {e}"[:300]})
            continue
        res, _ = draft_export(module, inputs, None, prefixes, timeout)
        res["time_s"] = time.perf_counter() - tp
        probes.append({**where, **res})
    ran = {(p["filename"], ln) for p in probes for ln in p["lines"]}
    return {"ok": True, "probes": probes, "not_reached": sorted(tuple(x) for x in wanted if tuple(x) not in ran),
            "time_s": time.perf_counter() - t0}
