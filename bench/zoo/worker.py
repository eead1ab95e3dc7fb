"""One model, every step, in a forked child of the harness.

Steps, in order (each under its own alarm, so a hang in one step ends that step only):
build (with the input-size ladder), eager (executed library lines, eager time), capture
(fxlint_capture, dynamo mode), dynamo (torch._dynamo.explain), dynamo_traced (explain again with
Dynamo's frame skip at a break inside a loop turned off, where the dynamo step skipped frames), export_nonstrict,
export_strict (torch.export.export), export_draft (torch.export.draft_export, every failure
where export_nonstrict failed), export_probe (draft export of each function holding a line
fxlint flags that draft export never reached, alone: probe.py), onnx (torch.onnx.export(dynamo=True), ONNX Runtime vs
eager). After each step the record so far is written to ``partial``, so the harness keeps
what finished when it has to kill the child.
"""

import json
import os
import re
import signal
import sys
import time
import traceback

STEPS = ("build", "eager", "capture", "dynamo", "dynamo_traced", "export_nonstrict", "export_strict", "export_draft",
         "export_probe", "onnx")


class StepTimeout(BaseException):
    """Raised by the step alarm. A BaseException, so model code's `except Exception` keeps out of its way."""


def library_roots():
    """The model libraries: whose executed lines are recorded and whose files fxlint checks."""
    import timm
    import torch
    import torchvision
    import transformers

    return {
        "torchvision": os.path.dirname(torchvision.__file__),
        "timm": os.path.dirname(timm.__file__),
        "transformers": os.path.dirname(transformers.__file__),
        "torch.nn": os.path.join(os.path.dirname(torch.__file__), "nn"),
    }


def _lib_prefixes(roots):
    return tuple(r.rstrip("/") + "/" for r in roots.values())


def is_lib(path, prefixes):
    return bool(path) and path.startswith(prefixes)


# ----------------------------------------------------------------------------- helpers

def _write(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, default=str)
    os.replace(tmp, path)


def _tensors(obj, out=None, depth=0):
    """The tensors of a result, depth first (tuples, lists, dicts, ModelOutput, dataclasses)."""
    import dataclasses

    import torch

    if out is None:
        out = []
    if depth > 20:
        return out
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            _tensors(v, out, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _tensors(v, out, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for fld in dataclasses.fields(obj):
            _tensors(getattr(obj, fld.name, None), out, depth + 1)
    return out


def _scale(ts):
    """The largest magnitude among floating reference tensors (random weights can make them huge)."""
    import torch

    vals = [float(t.detach().double().abs().nan_to_num(0.0).max()) for t in ts
            if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()]
    return max(vals) if vals else None


def _max_diff(a, b):
    """Largest absolute difference between two lists of tensors, or a reason they differ."""
    import torch

    if len(a) != len(b):
        return None, f"{len(a)} vs {len(b)} tensors"
    worst = 0.0
    for x, y in zip(a, b):
        x = torch.as_tensor(x).detach()
        y = torch.as_tensor(y).detach()
        if tuple(x.shape) != tuple(y.shape):
            return None, f"shape {tuple(x.shape)} vs {tuple(y.shape)}"
        if x.numel() == 0:
            continue
        if x.dtype == torch.bool or y.dtype == torch.bool:
            d = float((x.to(torch.int8) != y.to(torch.int8)).sum())
        else:
            d = float((x.double() - y.double()).abs().nan_to_num(0.0).max())
        worst = max(worst, d)
    return worst, None


_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)')
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_SKIPPED = re.compile(r"frame skipped: (\S+) \((.+?) line (\d+)\)")


def failure(e, prefixes):
    """A failure as a record: type, first lines of the message, and where (innermost frame in the
    model libraries, from the user-code stack in the message if the compiler printed one, else
    from the traceback)."""
    msg = str(e)
    frames = [(f, int(n)) for f, n in _FILE_LINE.findall(msg)]
    lib = [fr for fr in frames if is_lib(fr[0], prefixes)]
    where = "message"
    if not lib:
        tb = traceback.extract_tb(e.__traceback__)
        lib = [(f.filename, f.lineno) for f in tb if is_lib(f.filename, prefixes)]
        where = "traceback"
    site = {"filename": lib[-1][0], "lineno": lib[-1][1], "from": where} if lib else None
    if site:
        site["line"] = _source_line(site["filename"], site["lineno"])
    clean = _ANSI.sub("", msg).strip()
    head = clean.splitlines()[:8]
    out = {"ok": False, "error_type": type(e).__name__, "error": "\n".join(head)[:1500], "site": site}
    if "## Exception summary" in clean:  # the ONNX exporter's report: the cause is below its boilerplate
        summary = clean.split("## Exception summary", 1)[1].strip().splitlines()
        out["summary"] = "\n".join(summary[:8])[:1500]
    return out


def _source_line(path, lineno):
    import linecache

    return linecache.getline(path, lineno).strip()


class _Alarm:
    def __init__(self, seconds):
        self.seconds = int(max(1, seconds))

    def __enter__(self):
        def fire(signum, frame):
            raise StepTimeout()

        self.old = signal.signal(signal.SIGALRM, fire)
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.old)
        return False


def _trace_lines(fn, prefixes):
    """Runs fn() with a tracer that records every line executed in the library files, the order
    in which the run first reached them, and the source span (line, end line, column, end
    column) of every instruction executed there: a line can run while an operand on it never
    does (`a and not f(x)` with `a` false)."""
    lines = {}
    spans = {}
    first = {}  # file -> {line: when the run first reached it}
    seen = {}
    positions = {}  # code object -> its instructions' spans
    clock = [0]

    def global_trace(frame, event, arg):
        fname = frame.f_code.co_filename
        ok = seen.get(fname)
        if ok is None:
            ok = seen[fname] = fname.startswith(prefixes)
        if not ok:
            return None
        bucket = lines.setdefault(fname, set())
        span_bucket = spans.setdefault(fname, set())
        first_bucket = first.setdefault(fname, {})
        code = frame.f_code
        pos = positions.get(code)
        if pos is None:
            pos = positions[code] = list(code.co_positions())
        frame.f_trace_opcodes = True

        def local(frame, event, arg):
            if event == "line":
                if frame.f_lineno not in bucket:
                    bucket.add(frame.f_lineno)
                    first_bucket[frame.f_lineno] = clock[0]
                    clock[0] += 1
            elif event == "opcode":
                i = frame.f_lasti // 2
                if i < len(pos) and pos[i][0] is not None and pos[i][2] is not None:
                    span_bucket.add(pos[i])
            return local

        return local

    sys.settrace(global_trace)
    try:
        result = fn()
    finally:
        sys.settrace(None)
    return (result, {f: sorted(s) for f, s in lines.items() if s}, {f: sorted(s) for f, s in spans.items() if s},
            {f: sorted(d.items()) for f, d in first.items() if d})


# ----------------------------------------------------------------------------- steps

def run_model(spec, opts, partial_path, lines_path):
    """Runs every step for one spec; writes the record to partial_path after each step."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    roots = library_roots()
    prefixes = _lib_prefixes(roots)
    import fxlint_capture

    rec = {"name": spec.name, "family": spec.family, "torch": torch.__version__, "steps": {},
           "capture_module": os.path.dirname(fxlint_capture.__file__), "pid": os.getpid(), "current_step": None}
    wanted = set(opts.get("steps") or STEPS)
    step_timeout = opts.get("step_timeout", 120)

    def save():
        _write(partial_path, rec)

    def begin(step):
        rec["current_step"] = step
        rec["current_step_started"] = time.time()
        save()

    # build + eager, over the size ladder
    begin("build")
    model = args = kwargs = None
    eager_out = None
    errors = []
    t_build = time.perf_counter()
    for size in spec.sizes:
        try:
            with _Alarm(step_timeout):
                torch.manual_seed(0)
                tb = time.perf_counter()
                model, args, kwargs = spec.build(size)
                model.eval()
                build_s = time.perf_counter() - tb
                with torch.no_grad():
                    te = time.perf_counter()
                    eager_out = model(*args, **kwargs)
                    first_eager_s = time.perf_counter() - te
            rec["size"] = size
            break
        except StepTimeout:
            errors.append(f"size {size}: timeout after {step_timeout}s")
            model = None
            break
        except Exception as e:  # noqa: BLE001 - any failure moves to the next size
            errors.append(f"size {size}: {type(e).__name__}: {str(e).strip().splitlines()[0][:300] if str(e).strip() else ''}")
            model = None
    if model is None:
        rec["steps"]["build"] = {"ok": False, "error": "\n".join(errors), "time_s": time.perf_counter() - t_build}
        rec["current_step"] = None
        save()
        return rec
    params = sum(p.numel() for p in model.parameters())
    rec["params"] = params
    rec["inputs"] = _describe(args, kwargs)
    rec["steps"]["build"] = {"ok": True, "time_s": build_s, "tried": errors, "first_eager_s": first_eager_s}
    eager_flat = [t.detach().clone() for t in _tensors(eager_out)]
    del eager_out

    if "eager" in wanted:
        begin("eager")
        try:
            with _Alarm(step_timeout), torch.no_grad():
                _, lines, spans, first = _trace_lines(lambda: model(*args, **kwargs), prefixes)
                times = []
                for _ in range(2):
                    t0 = time.perf_counter()
                    model(*args, **kwargs)
                    times.append(time.perf_counter() - t0)
            _write(lines_path, lines)
            _write(lines_path[: -len(".json")] + ".spans.json", spans)  # static.spans_path
            _write(lines_path[: -len(".json")] + ".first.json", first)  # static.load_first
            rec["steps"]["eager"] = {"ok": True, "time_s": min(times), "files": len(lines),
                                     "lines": sum(len(v) for v in lines.values())}
        except StepTimeout:
            rec["steps"]["eager"] = {"ok": False, "error": f"timeout after {step_timeout}s", "timeout": True}
        except Exception as e:  # noqa: BLE001
            rec["steps"]["eager"] = failure(e, prefixes)
        save()

    if "capture" in wanted:
        begin("capture")
        rec["steps"]["capture"] = _step_capture(model, args, kwargs, eager_flat, prefixes, step_timeout)
        save()

    if "dynamo" in wanted:
        begin("dynamo")
        rec["steps"]["dynamo"] = _step_dynamo(model, args, kwargs, prefixes, step_timeout)
        save()

    if "dynamo_traced" in wanted:
        dyn = rec["steps"].get("dynamo")
        if dyn is not None and dyn.get("ok") and not dyn.get("loop_breaks"):
            # Only a frame skipped at a break in a loop hides lines from Dynamo; without one the
            # run would list the same breaks again. (A rerun of this step alone runs it always.)
            rec["steps"]["dynamo_traced"] = {"ok": None, "skipped": "Dynamo skipped no frame at a break in a loop"}
        else:
            begin("dynamo_traced")
            rec["steps"]["dynamo_traced"] = _step_dynamo_traced(model, args, kwargs, prefixes, step_timeout)
        save()

    eps = {}
    for strict in (False, True):
        step = "export_strict" if strict else "export_nonstrict"
        if step not in wanted:
            continue
        if strict and opts.get("strict_export", "always") == "auto":
            dyn, ns = rec["steps"].get("dynamo") or {}, rec["steps"].get("export_nonstrict") or {}
            if dyn.get("ok") and dyn.get("graph_count") == 1 and not dyn.get("graph_break_count") and ns.get("ok"):
                # Strict export is Dynamo with fullgraph=True, then the same export: where Dynamo took
                # the model in one graph and non-strict export succeeded, it is not run (--strict-export auto).
                rec["steps"][step] = {"ok": None, "skipped": "Dynamo: one graph, no break; non-strict export ok"}
                save()
                continue
        begin(step)
        res, ep = _step_export(model, args, kwargs, strict, prefixes, step_timeout)
        rec["steps"][step] = res
        if ep is not None:
            eps[step] = ep
        save()

    if "export_draft" in wanted:
        ns = rec["steps"].get("export_nonstrict")
        if ns is not None and ns.get("ok"):
            # Draft export lists the failures export would have had; where export passed there are none.
            rec["steps"]["export_draft"] = {"ok": None, "skipped": "non-strict export ok"}
        else:
            begin("export_draft")
            rec["steps"]["export_draft"] = _step_export_draft(model, args, kwargs, prefixes, step_timeout)
        save()

    if "export_probe" in wanted:
        draft = rec["steps"].get("export_draft") or {}
        if draft.get("ok") is not False or not draft.get("raised_at"):
            # Only a draft export that raised leaves lines no export traced.
            rec["steps"]["export_probe"] = {"ok": None, "skipped": "draft export did not raise"}
        else:
            import probe

            begin("export_probe")
            rec["steps"]["export_probe"] = probe.step(model, args, kwargs, _probe_lines(opts, lines_path), prefixes,
                                                      step_timeout)
        save()

    if "onnx" in wanted:
        begin("onnx")
        rec["steps"]["onnx"] = _step_onnx(model, args, kwargs, eps, rec, eager_flat, opts, prefixes, step_timeout)
        save()

    rec["current_step"] = None
    save()
    return rec


def _probe_lines(opts, lines_path):
    """The lines with an fxlint --target export error this model ran: the harness names them
    on a rerun (from the record); on a first run they come from its findings and this run's lines."""
    if opts.get("probe_lines") is not None:
        return opts["probe_lines"]
    import static

    by_line = (opts.get("static_index") or {}).get("export")
    if not by_line or not os.path.exists(lines_path):
        return []
    with open(lines_path) as f:
        lines = json.load(f)
    found = static.on_executed_lines(by_line, lines, static.load_spans(lines_path))
    return sorted({(f[0], f[1]) for f in found if f[4] == "error"})


def _describe(args, kwargs):
    import torch

    def d(v):
        if isinstance(v, torch.Tensor):
            return f"{str(v.dtype).replace('torch.', '')}{list(v.shape)}"
        if isinstance(v, (list, tuple)):
            return [d(x) for x in v]
        return repr(v)

    out = [d(a) for a in args]
    out += [f"{k}={d(v)}" for k, v in kwargs.items()]
    return out


def _step_capture(model, args, kwargs, eager_flat, prefixes, timeout):
    import torch
    from fxlint_capture.explain import explain

    t0 = time.perf_counter()
    try:
        with _Alarm(timeout), torch.no_grad():
            report = explain(model, mode="dynamo")(*args, **kwargs)
            wall = time.perf_counter() - t0
            js = report.to_json()
            # Eager's time is the best of warm runs; so is this one: the first capture in the
            # process also pays for one-time work (decoding each code object, first calls into fx).
            warm = min(explain(model, mode="dynamo", replay=False)(*args, **kwargs).compile_time_s
                       for _ in range(2))
    except StepTimeout:
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True, "time_s": time.perf_counter() - t0}
    except Exception as e:  # noqa: BLE001 - the model raised under capture (or the capture did)
        out = failure(e, prefixes)
        out["time_s"] = time.perf_counter() - t0
        return out
    diff, why = _max_diff(_tensors(report.result), eager_flat)
    if "break_sites" in js:
        sites = [{"filename": s["filename"], "lineno": s["lineno"], "code": s["code"], "reason": s["reason"],
                  "line": s.get("line"), "count": s["count"]} for s in js["break_sites"]]
    else:  # a capture from before break_sites: the innermost frame of each break
        by = {}
        for b in js["break_reasons"]:
            fr = b["user_stack"][-1] if b["user_stack"] else {}
            key = (fr.get("filename", "?"), fr.get("lineno", 0))
            s = by.setdefault(key, {"filename": key[0], "lineno": key[1], "code": b["code"], "reason": b["reason"],
                                    "line": fr.get("line"), "count": 0})
            s["count"] += 1
        sites = list(by.values())
    return {
        "ok": True,
        "replay_ok": js.get("ok") if js.get("replay") is not None else None,
        "replay_failures": [f["reason"] for f in js.get("failures") or []][:5],
        "graph_count": js["graph_count"],
        "graph_break_count": js["graph_break_count"],
        "op_count": js["op_count"],
        "break_sites": sites,
        "side_effects": [{"kind": s["kind"], "target": s["target"], "code": s["code"],
                          "site": (s["user_stack"][-1]["filename"] + ":" + str(s["user_stack"][-1]["lineno"]))
                          if s["user_stack"] else None} for s in js["side_effects"]][:50],
        "result_vs_eager_max_diff": diff,
        "result_vs_eager": why or "ok",
        "compile_time_s": js["compile_time_s"],
        "warm_compile_time_s": warm,
        "replay_time_s": js.get("replay_time_s"),
        "time_s": wall,
    }


class _LoopBreaks:
    """Records Dynamo's graph breaks inside loops while it is active.

    When a graph break falls inside a for/while loop, Dynamo does not list it: it calls
    ``InstructionTranslatorBase.raise_loop_graph_break(code, exc)``, which skips the whole frame
    (it runs eagerly; the functions it calls are traced as frames of their own). The staticmethod
    is wrapped here (and restored on exit) to keep, for each call, the skipped code object, the
    original exception's reason, the user stack of the break (the exception's ``real_stack``,
    down to the innermost inlined frame; else ``TracingContext.extract_stack()``) and the line
    the skipped frame was at (the last frame of ``TracingContext.extract_stack()`` at that
    moment: the translator of the skipped frame is at the breaking instruction).
    """

    def __init__(self):
        self.calls = []

    def __enter__(self):
        from torch._dynamo.symbolic_convert import InstructionTranslatorBase

        self.cls = InstructionTranslatorBase
        self.orig = self.cls.__dict__.get("raise_loop_graph_break")
        if self.orig is None:  # a torch without it: nothing to record
            return self
        orig_fn = self.orig.__func__ if isinstance(self.orig, staticmethod) else self.orig
        calls = self.calls

        def raise_loop_graph_break(code, exc):
            try:
                calls.append(_loop_break_call(code, exc))
            except Exception as e:  # noqa: BLE001 - recording must not change what Dynamo does
                calls.append({"error": f"{type(e).__name__}: {e}"})
            return orig_fn(code, exc)

        self.cls.raise_loop_graph_break = staticmethod(raise_loop_graph_break)
        return self

    def __exit__(self, *exc):
        if self.orig is not None:
            self.cls.raise_loop_graph_break = self.orig
        return False


def _loop_break_call(code, exc):
    import torch._guards

    at_break = [(f.filename, f.lineno, f.name) for f in torch._guards.TracingContext.extract_stack()]
    real = [(f.filename, f.lineno, f.name) for f in (getattr(exc, "real_stack", None) or [])]
    frame_site = next((f for f in reversed(at_break) if f[0] == code.co_filename), None)
    if frame_site is None:  # no tracing context: the translator that called us holds the instruction
        tr = sys._getframe(2).f_locals.get("self")
        if getattr(tr, "f_code", None) is code:
            frame_site = (code.co_filename, tr.lineno, code.co_name)
    reason = (str(exc) or type(exc).__name__).strip()
    return {"code": (code.co_name, code.co_filename, code.co_firstlineno),
            "stack": real or at_break, "frame_site": frame_site,
            "reason": reason.splitlines()[0][:300] if reason else type(exc).__name__}


def _explain_breaks(out, prefixes):
    """The breaks `explain` lists (reason, innermost frame, innermost library frame) and their
    sites by innermost frame, each with the library lines that called down to it: a finding on
    the call of a function that breaks inside is about that break."""
    breaks, sites = [], {}
    for r in out.break_reasons:
        stack = [(f.filename, f.lineno, f.name, (f.line or "").strip()) for f in (r.user_stack or [])]
        inner = stack[-1] if stack else None
        lib = [fr for fr in stack if is_lib(fr[0], prefixes)]
        lib_inner = lib[-1] if lib else None
        reason = (r.reason or "").strip()
        breaks.append({"reason": reason.splitlines()[0][:300] if reason else "", "site": _fr(inner),
                       "lib_site": _fr(lib_inner)})
        if inner:
            key = f"{inner[0]}:{inner[1]}"
            s = sites.setdefault(key, {"filename": inner[0], "lineno": inner[1], "line": inner[3],
                                       "reason": breaks[-1]["reason"], "lib_site": _fr(lib_inner), "count": 0,
                                       "callers": set()})
            s["count"] += 1
            s["callers"].update(f"{f}:{n}" for f, n, _, _ in stack[:-1] if is_lib(f, prefixes))
    return breaks, [dict(v, callers=sorted(v["callers"])) for v in sites.values()]


def _step_dynamo(model, args, kwargs, prefixes, timeout):
    import torch
    import torch._dynamo

    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    t0 = time.perf_counter()
    try:
        with _Alarm(timeout), torch.no_grad(), _LoopBreaks() as loops:
            out = torch._dynamo.explain(model)(*args, **kwargs)
    except StepTimeout:
        torch._dynamo.reset()
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True, "time_s": time.perf_counter() - t0}
    except Exception as e:  # noqa: BLE001
        res = failure(e, prefixes)
        res["time_s"] = time.perf_counter() - t0
        return res
    wall = time.perf_counter() - t0
    breaks, sites = _explain_breaks(out, prefixes)
    # A graph break inside a loop makes Dynamo skip the whole frame (it runs eagerly; the functions
    # it calls are traced as frames of their own): those breaks are not in break_reasons. They are
    # recorded as loop_breaks (from raise_loop_graph_break), and their frames, with those named in
    # Dynamo's counters ("frame skipped: name (file line N)"), as skipped_frames.
    skipped = {}
    for msg, n in list(counters.get("unimplemented", {}).items()) + list(counters.get("graph_break", {}).items()):
        for name, fname, line in _SKIPPED.findall(str(msg)):
            k = (name, fname, int(line))
            skipped[k] = skipped.get(k, 0) + n
    loop_breaks = {}
    loop_errors = []
    for c in loops.calls:
        if "error" in c:
            loop_errors.append(c["error"])
            continue
        stack = [(f, n, name, _source_line(f, n)) for f, n, name in c["stack"]]
        inner = stack[-1] if stack else None
        lib = [fr for fr in stack if is_lib(fr[0], prefixes)]
        fs = c["frame_site"]
        key = (inner[:2] if inner else None, c["code"])
        lb = loop_breaks.get(key)
        if lb is None:
            lb = loop_breaks[key] = {
                "filename": inner[0] if inner else None, "lineno": inner[1] if inner else None,
                "line": inner[3] if inner else None, "reason": c["reason"], "lib_site": _fr(lib[-1] if lib else None),
                "frame_site": _fr((fs[0], fs[1], fs[2], _source_line(fs[0], fs[1])) if fs else None),
                "skipped_frame": {"name": c["code"][0], "filename": c["code"][1], "firstlineno": c["code"][2]},
                "stack": [f"{f}:{n}" for f, n, _, _ in stack][-8:], "count": 0}
        lb["count"] += 1
        k = tuple(c["code"])
        if k not in skipped:
            skipped[k] = 1
    res = {"ok": True, "graph_count": out.graph_count, "graph_break_count": out.graph_break_count,
           "op_count": out.op_count, "break_sites": sites,
           "breaks": breaks[:200],
           "loop_breaks": list(loop_breaks.values()),
           "skipped_frames": [{"name": k[0], "filename": k[1], "firstlineno": k[2], "count": v}
                              for k, v in skipped.items()],
           "time_s": wall}
    if loop_errors:
        res["loop_break_errors"] = loop_errors[:5]
    torch._dynamo.reset()
    return res


class _TracedLoops:
    """Turns off Dynamo's frame skip at a break inside a loop while it is active.

    Dynamo asks ``InstructionTranslatorBase.maybe_has_backedge()`` at a break: when it answers
    True, Dynamo skips the whole frame and never traces the rest of it. Answering False makes
    Dynamo compile the graph so far and resume after the break with a resume function, as it does
    at a break outside a loop (its own comment calls this outcome valid, with more graphs). The
    lines a skipped frame hid are then traced, and the breaks Dynamo finds there are listed.
    """

    def __enter__(self):
        from torch._dynamo.symbolic_convert import InstructionTranslatorBase

        self.cls = InstructionTranslatorBase
        self.orig = self.cls.__dict__.get("maybe_has_backedge")
        if self.orig is not None:
            self.cls.maybe_has_backedge = lambda self: False
        return self

    def __exit__(self, *exc):
        if self.orig is not None:
            self.cls.maybe_has_backedge = self.orig
        return False


class _ListedZip:
    """Makes the library modules' ``zip`` yield from a list of its tuples while it is active.

    A break inside ``for a, b in zip(...)`` leaves the zip iterator on the stack, and Dynamo
    cannot pass a zip object to the resume function it builds ("'zip' implements '__next__' in C
    and Dynamo has no model for it"), so it skips that frame even with the loop skip off. A list
    iterator it can pass: the frame is then traced, and what Dynamo does at each line of it is
    listed. The tuples are the same; only their making is eager instead of lazy, which the zoo's
    models (zips of per-level tensor lists) cannot tell apart.
    """

    def __init__(self, prefixes):
        self.prefixes = prefixes
        self.patched = []

    def __enter__(self):
        import builtins

        def listed_zip(*iterables, **kw):
            return iter(list(builtins.zip(*iterables, **kw)))

        for mod in list(sys.modules.values()):
            f = getattr(mod, "__file__", None)
            if f and is_lib(f, self.prefixes) and "zip" not in vars(mod):
                mod.zip = listed_zip
                self.patched.append(mod)
        return self

    def __exit__(self, *exc):
        for mod in self.patched:
            vars(mod).pop("zip", None)
        return False


def _step_dynamo_traced(model, args, kwargs, prefixes, timeout):
    """``torch._dynamo.explain`` with no frame skipped at a break in a loop: every break, with
    the library frames of its user stack (so a break inside a called function also names the
    call)."""
    import torch
    import torch._dynamo

    from torch._dynamo.utils import counters

    torch._dynamo.reset()
    counters.clear()
    t0 = time.perf_counter()
    try:
        # A resume function inside a loop is entered again on every iteration with new
        # constants; a higher recompile limit lets Dynamo trace each instead of giving up.
        with _Alarm(timeout), torch.no_grad(), _TracedLoops() as tl, _ListedZip(prefixes), \
                torch._dynamo.config.patch(recompile_limit=1024, accumulated_recompile_limit=4096):
            if tl.orig is None:
                return {"ok": None, "skipped": "this torch has no maybe_has_backedge"}
            out = torch._dynamo.explain(model)(*args, **kwargs)
    except StepTimeout:
        torch._dynamo.reset()
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True, "time_s": time.perf_counter() - t0}
    except Exception as e:  # noqa: BLE001
        torch._dynamo.reset()
        res = failure(e, prefixes)
        res["time_s"] = time.perf_counter() - t0
        return res
    wall = time.perf_counter() - t0
    _, sites = _explain_breaks(out, prefixes)
    # Where Dynamo could not go on even so (a resume function it cannot build, say with a `zip`
    # iterator on the stack), it skips the frame: the reasons, so that the report can say why a
    # line stayed untraced.
    untraced = sorted({_first_with_explanation(m) for m in counters.get("unimplemented", {})})
    torch._dynamo.reset()
    return {"ok": True, "graph_count": out.graph_count, "graph_break_count": out.graph_break_count,
            "break_sites": sites,
            "frames_skipped_because": untraced, "time_s": wall}


def _first_with_explanation(message):
    """A Dynamo message's first line, with its `Explanation:` line when it has one."""
    lines = [ln.strip() for ln in str(message).strip().splitlines()]
    why = next((ln[len("Explanation:"):].strip() for ln in lines if ln.startswith("Explanation:")), "")
    head = lines[0] if lines else ""
    return (f"{head}: {why}" if why else head)[:300]


def _fr(frame):
    if not frame:
        return None
    return {"filename": frame[0], "lineno": frame[1], "name": frame[2], "line": frame[3]}


def export_as_alone():
    """Undoes what the Dynamo steps before changed for the whole process: TorchDynamo turns
    torch.distributions' argument checks off when it first compiles, and an export script
    that never compiles has them on (its data-dependent check fails torch.export)."""
    import torch

    torch.distributions.Distribution.set_default_validate_args(__debug__)


def _step_export(model, args, kwargs, strict, prefixes, timeout):
    import torch

    export_as_alone()
    t0 = time.perf_counter()
    try:
        with _Alarm(timeout):
            ep = torch.export.export(model, tuple(args), dict(kwargs) or None, strict=strict)
        return {"ok": True, "time_s": time.perf_counter() - t0,
                "nodes": sum(1 for n in ep.graph.nodes if n.op == "call_function")}, ep
    except StepTimeout:
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True,
                "time_s": time.perf_counter() - t0}, None
    except Exception as e:  # noqa: BLE001
        res = failure(e, prefixes)
        res["time_s"] = time.perf_counter() - t0
        return res, None
    finally:
        import torch._dynamo

        torch._dynamo.reset()


def _step_export_draft(model, args, kwargs, prefixes, timeout):
    """``torch.export.draft_export``: non-strict export that goes on past each data-dependent
    failure (it takes the value the real tensors give and records the failure), so it lists every
    failure site of the model, where ``torch.export.export`` stops at the first."""
    import torch

    if not hasattr(torch.export, "draft_export"):
        return {"ok": None, "skipped": "this torch has no torch.export.draft_export"}
    t0 = time.perf_counter()
    res, _ = draft_export(model, tuple(args), dict(kwargs) or None, prefixes, timeout)
    res["time_s"] = time.perf_counter() - t0
    return res


def draft_export(module, args, kwargs, prefixes, timeout):
    """Draft-exports module; returns its record and the program (None when it raised)."""
    import torch

    assumed = _DraftAssumptions(prefixes)
    export_as_alone()
    try:
        with _Alarm(timeout), assumed:
            ep = torch.export.draft_export(module, args, kwargs)
    except StepTimeout:
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True}, None
    except Exception as e:  # noqa: BLE001
        # Draft export itself gave up (an internal assertion, a kernel it cannot fake): where it
        # stopped is not a failure site of the model, unless it stopped at a guard on data
        # itself. The failures it went past before are kept.
        res = failure(e, prefixes)
        res["raised_at"] = res.pop("site")
        sites = assumed.sites
        if type(e).__name__ == "GuardOnDataDependentSymNode" and res["raised_at"]:
            at = res["raised_at"]
            sites.append({"kind": "DATA_DEPENDENT_ERROR (draft export stopped here)", "filename": at["filename"],
                          "lineno": at["lineno"], "line": at["line"], "expr": "", "callers": [], "count": 1})
        res["failures"] = sites
        return res, None
    finally:
        import torch._dynamo

        torch._dynamo.reset()
    sites = draft_sites(ep, prefixes)
    return {"ok": not sites, "failures": sites}, ep


class _DraftAssumptions:
    """Where draft export took a data-dependent value from the real tensors, recorded as it
    happens: its own report of them is lost when it raises later on. Read from the warning it
    logs there (a log handler runs on the same stack; wrapping the method would move the frames
    torch itself reads its user stack from)."""

    LOGGER = "torch.fx.experimental.symbolic_shapes"

    def __init__(self, prefixes):
        import logging

        self.prefixes = prefixes
        self.found = {}
        outer = self

        class Handler(logging.Handler):
            def emit(self, record):
                if str(record.msg).startswith("propagate_real_tensors evaluate_expr"):
                    outer._record(record.args[0] if record.args else "")

        self.handler = Handler(logging.WARNING)

    @property
    def sites(self):
        return list(self.found.values())

    def _record(self, expr):
        lib = [fr for fr in traceback.extract_stack() if is_lib(fr.filename, self.prefixes)]
        if not lib:
            return
        key = ("DATA_DEPENDENT_ERROR", lib[-1].filename, lib[-1].lineno)
        s = self.found.setdefault(key, {"kind": key[0], "filename": key[1], "lineno": key[2],
                                        "line": _source_line(key[1], key[2]), "expr": str(expr)[:200],
                                        "callers": sorted({f"{f.filename}:{f.lineno}" for f in lib[:-1]}),
                                        "count": 0})
        s["count"] += 1

    def __enter__(self):
        import logging

        logging.getLogger(self.LOGGER).addHandler(self.handler)
        return self

    def __exit__(self, *exc):
        import logging

        logging.getLogger(self.LOGGER).removeHandler(self.handler)
        return False


def draft_sites(ep, prefixes):
    """The failures a draft export lists, one per (kind, innermost library frame)."""
    report = getattr(ep, "_report", None)
    # Frames name their files by an index into torch's process-wide table of strings; the
    # report's own copy holds only the strings first seen during this export.
    try:
        from torch._logging.structured import INTERN_TABLE

        names = {i: name for name, i in INTERN_TABLE.items()}
    except ImportError:
        names = {}
    names.update(getattr(report, "str_to_filename", {}) or {})
    sites = {}
    for f in getattr(report, "failures", []) or []:
        data = f.data if isinstance(f.data, dict) else {}
        stack = [(names.get(fr.get("filename"), fr.get("filename")), fr.get("line"), fr.get("name"))
                 for fr in data.get("user_stack") or [] if isinstance(fr, dict)]
        lib = [fr for fr in stack if isinstance(fr[0], str) and is_lib(fr[0], prefixes)]
        kind = str(f.failure_type)
        if not lib:
            key = (kind, None, None)
        else:
            key = (kind, lib[-1][0], lib[-1][1])
        s = sites.setdefault(key, {"kind": kind, "filename": key[1], "lineno": key[2],
                                   "line": _source_line(key[1], key[2]) if key[1] else None,
                                   "expr": str(data.get("expr") or data.get("op") or "")[:200],
                                   "callers": set(), "count": 0})
        s["count"] += 1
        s["callers"].update(f"{fn}:{n}" for fn, n, _ in lib[:-1])
    return [dict(v, callers=sorted(v["callers"])) for v in sites.values()]


def _step_onnx(model, args, kwargs, eps, rec, eager_flat, opts, prefixes, timeout):
    """torch.onnx.export(dynamo=True) tries torch.export non-strict, then strict; the exported
    program from the export steps is handed to it when one succeeded (the exporter's own first
    capture step), and the model itself otherwise."""
    import torch

    max_params = opts.get("onnx_max_params", 0)
    if max_params and rec.get("params", 0) > max_params:
        return {"ok": None, "skipped": f"{rec['params']:,} parameters > --onnx-max-params {max_params:,}"}
    exp = rec["steps"].get("export_nonstrict"), rec["steps"].get("export_strict")
    if all(e is not None and e.get("ok") is False for e in exp):
        # Both capture strategies of the exporter failed already: the exporter fails the same way.
        first = exp[0]
        head = (first.get("error") or "").strip().splitlines()
        return {"ok": False, "error_type": "CaptureFailed",
                "error": "torch.export failed in both modes (the exporter's capture strategies): "
                         + (head[0][:300] if head else ""),
                "site": first.get("site"), "via": "export failures", "time_s": 0.0}
    source = eps.get("export_nonstrict") or eps.get("export_strict")
    via = "exported program (non-strict)" if "export_nonstrict" in eps else (
        "exported program (strict)" if source is not None else "model")
    optimize = bool(opts.get("onnx_optimize", False))
    export_as_alone()
    t0 = time.perf_counter()
    try:
        with _Alarm(timeout):
            if source is not None:
                prog = torch.onnx.export(source, dynamo=True, verbose=False, optimize=optimize)
            else:
                prog = torch.onnx.export(model, tuple(args), kwargs=dict(kwargs) or None, dynamo=True, verbose=False,
                                         optimize=optimize)
            export_s = time.perf_counter() - t0
            res = {"ok": True, "via": via, "optimize": optimize, "time_s": export_s,
                   "nodes": len(prog.model.graph) if hasattr(prog, "model") else None}
            if opts.get("ort", True):
                t1 = time.perf_counter()
                try:
                    import onnxruntime as ort

                    def session(model_bytes):
                        so = ort.SessionOptions()
                        so.intra_op_num_threads = 1
                        so.inter_op_num_threads = 1
                        return ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])

                    prog.initialize_inference_session(session)
                    outs = prog(*args, **kwargs)
                    diff, why = _max_diff(list(outs), eager_flat)
                    res["ort_vs_eager_max_diff"] = diff
                    res["eager_scale"] = _scale(eager_flat)
                    res["ort"] = why or "ok"
                except StepTimeout:
                    raise
                except Exception as e:  # noqa: BLE001
                    res["ort"] = f"failed: {type(e).__name__}: {str(e).strip()[:300]}"
                res["ort_time_s"] = time.perf_counter() - t1
            return res
    except StepTimeout:
        return {"ok": False, "error": f"timeout after {timeout}s", "timeout": True, "via": via,
                "time_s": time.perf_counter() - t0}
    except Exception as e:  # noqa: BLE001
        res = failure(e, prefixes)
        res["via"] = via
        res["optimize"] = optimize
        res["time_s"] = time.perf_counter() - t0
        return res
