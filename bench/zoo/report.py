"""docs/agreement.md from the zoo's results: the capture against TorchDynamo, fxlint's static
findings against TorchDynamo, torch.export and the ONNX exporter, the disagreements, and speed.

Every figure is computed here from results.jsonl, the executed-line files and the cached
fxlint findings; nothing is adjusted. A site is a (file, line) pair; "same statement" also
counts a finding on another line of the same Python statement (a call spread over several
lines is reported by Dynamo at the line of the failing call and by fxlint where the
expression starts).

Dynamo's break sites are those `torch._dynamo.explain` lists and the breaks inside loops
(`loop_breaks` of the dynamo step): there Dynamo found the break, then skipped the whole frame
and ran it eagerly, so `explain` does not list it. The lines of a skipped frame after the break
that made Dynamo skip it were never traced: a break there is neither confirmed nor refuted
("Dynamo skipped the frame").
"""

import ast
import collections
import importlib.metadata
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import static  # noqa: E402 - beside this file

LIB_NAMES = ("torchvision", "timm", "transformers")


# ----------------------------------------------------------------------------- loading

# Model -> the instruction spans its eager run executed (static.load_spans), where recorded.
SPANS = {}
# Model -> when its eager run first reached each line (static.load_first), where recorded.
FIRST = {}


def load(results_dir):
    recs = {}
    with open(os.path.join(results_dir, "results.jsonl")) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                recs[r["name"]] = r
    lint = {}
    for t in ("dynamo", "export", "fx2onnx"):
        p = os.path.join(results_dir, "fxlint", f"{t}.json")
        if os.path.exists(p):
            with open(p) as f:
                lint[t] = json.load(f)
    lines = {}
    for r in recs.values():
        lf = r.get("lines_file")
        if lf and os.path.exists(os.path.join(results_dir, lf)):
            with open(os.path.join(results_dir, lf)) as f:
                lines[r["name"]] = {k: set(v) for k, v in json.load(f).items()}
            spans = static.load_spans(os.path.join(results_dir, lf))
            if spans is not None:
                SPANS[r["name"]] = spans
            first = static.load_first(os.path.join(results_dir, lf))
            if first is not None:
                FIRST[r["name"]] = first
    return recs, lint, lines


def short(path):
    """A library file relative to site-packages (torchvision/ops/boxes.py)."""
    marker = "site-packages/"
    return path.split(marker, 1)[1] if marker in path else path


class Statements:
    """line -> first line of the statement that holds it (for compound statements, their header)."""

    def __init__(self):
        self.maps = {}
        self.funcs = {}

    def func_start(self, path, line):
        """The first line of the innermost function holding the line (its code object's
        co_firstlineno: the first decorator, else the def), or None."""
        spans = self.funcs.get(path)
        if spans is None:
            spans = []
            try:
                with open(path) as f:
                    tree = ast.parse(f.read())
                for node in ast.walk(tree):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
                        spans.append((node.lineno, node.end_lineno, first))
            except (OSError, SyntaxError, ValueError):
                pass
            self.funcs[path] = spans
        best = None
        for lo, hi, first in spans:
            if lo <= line <= hi and (best is None or lo >= best[0]):
                best = (lo, hi, first)
        return best[2] if best else None

    def key(self, path, line):
        m = self.maps.get(path)
        if m is None:
            m = self.maps[path] = self._build(path)
        return (path, m.get(line, line))

    @staticmethod
    def _build(path):
        try:
            with open(path) as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, ValueError):
            return {}
        m = {}

        def visit(node):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    body = None
                    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                        v = getattr(child, field, None)
                        if isinstance(v, list) and v and hasattr(v[0], "lineno"):
                            body = v[0].lineno if body is None else min(body, v[0].lineno)
                    end = child.end_lineno if body is None else body - 1
                    for n in range(child.lineno, max(child.lineno, end) + 1):
                        m[n] = child.lineno
                visit(child)

        visit(tree)
        return m


def pct(a, b):
    return f"{100.0 * a / b:.1f}% ({a}/{b})" if b else "n/a (0)"


def ok(rec, step):
    return bool(rec.get("steps", {}).get(step, {}).get("ok"))


def lib_of(path):
    p = short(path)
    if p.startswith("torch/nn/"):
        return "torch.nn"
    head = p.split("/", 1)[0]
    return head if head in LIB_NAMES else None


def src(path, line):
    import linecache

    return linecache.getline(path, line).strip()


# ----------------------------------------------------------------------------- figures

def render(results_dir):
    recs, lint, lines = load(results_dir)
    st = Statements()
    out = []
    w = out.append
    all_recs = sorted(recs.values(), key=lambda r: r["name"])
    built = [r for r in all_recs if ok(r, "build")]
    build_failed = [r for r in all_recs if not ok(r, "build")]
    timeouts = [(r["name"], s) for r in all_recs for s, v in r.get("steps", {}).items() if v.get("timeout")]
    crashed = [(r["name"], s) for r in all_recs for s, v in r.get("steps", {}).items() if v.get("crashed")]
    dates = sorted(r["date"] for r in all_recs if r.get("date"))
    reruns = collections.defaultdict(list)  # step -> (model, date) of the reruns that replaced it
    for r in all_recs:
        for rr in r.get("reruns", []):
            for step in rr.get("steps", []):
                reruns[step].append((r["name"], rr["date"]))
    versions = {}
    for pkg in ("torch", "torchvision", "timm", "transformers", "onnx", "onnxruntime", "onnxscript"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            versions[pkg] = "?"
    fams = collections.Counter(r["family"].split(".")[0] for r in built)
    key = next(iter(lint.values()), {}).get("key", {})

    w("# Agreement with the real compilers: the model zoo")
    w("")
    w("Generated by `python bench/zoo/zoo.py report` from the results of `bench/zoo/zoo.py run` "
      "([bench/zoo/README.md](../bench/zoo/README.md)); do not edit by hand. These figures are the "
      "baseline that later work on the analyzer and the capture raises; they are what the run measured.")
    w("")
    w(f"- Run: {dates[0] if dates else '?'} to {dates[-1] if dates else '?'}; "
      + ", ".join(f"{k} {v}" for k, v in versions.items()) + "; CPU, one torch thread per model"
      + "".join(f"; the {step} step rerun {len(ds)} times on {len({n for n, _ in ds})} models "
                f"({min(d for _, d in ds)} to {max(d for _, d in ds)})"
                for step, ds in sorted(reruns.items())) + ".")
    caps = sorted({_capture_module(r) for r in built})
    w(f"- fxlint: `{key.get('fxlint', '?')}` (sha256 {key.get('fxlint_sha256', '?')}), over "
      f"{key.get('files', '?')} library files; capture: `fxlint_capture` from "
      + ", ".join(f"`{c}`{_so_digest(c)}" for c in caps) + ".")
    w(f"- Models: {len(all_recs)} attempted, **{len(built)} built and ran eagerly** "
      f"({', '.join(f'{k} {v}' for k, v in sorted(fams.items()))}); {len(build_failed)} failed to build or run "
      f"eagerly; {len(timeouts)} steps timed out; {len(crashed)} steps crashed their process.")
    w("- Random weights everywhere (`weights=None`, `pretrained=False`, transformers models from small "
      "config classes); small inputs (1x3x64x64 where the model accepts it, 8 tokens). "
      "Models in `eval()`; eager, capture and Dynamo under `torch.no_grad()`. RetinaNet and FCOS keep "
      "every box (`score_thresh=0`): with random weights every score is near the classifier's prior, below "
      "the default threshold, and their postprocessing would never reach box decoding and NMS.")
    w("")

    # ------------------------------------------------------------------ capture vs dynamo
    both = [r for r in built if ok(r, "capture") and ok(r, "dynamo")]
    same_gc = [r for r in both if r["steps"]["capture"]["graph_count"] == r["steps"]["dynamo"]["graph_count"]]
    one_both = [r for r in both if r["steps"]["dynamo"]["graph_count"] == 1]
    dyn_pairs, cap_pairs = set(), set()
    dyn_pairs_stmt, cap_pairs_stmt = set(), set()
    cap_only = collections.defaultdict(list)
    dyn_only = collections.defaultdict(list)
    skipped = _skipped_regions([r for r in built if ok(r, "dynamo")], st)

    def in_skipped(x):
        """The line lies in a frame Dynamo skipped, at or after the break in a loop that made it
        skip the frame: Dynamo never traced it."""
        start = skipped.get((x[0], st.func_start(*x)))
        return start is not None and x[1] >= start
    dyn_reason, cap_reason = {}, {}
    for r in both:
        d = {(s["filename"], s["lineno"]) for s in _dyn_breaks(r)}
        c = {(s["filename"], s["lineno"]) for s in r["steps"]["capture"]["break_sites"]}
        for s in _dyn_breaks(r):
            dyn_reason.setdefault((s["filename"], s["lineno"]), _dyn_reason(s))
        for s in r["steps"]["capture"]["break_sites"]:
            cap_reason.setdefault((s["filename"], s["lineno"]), f"{s['code']} {s['reason']}")
        dyn_pairs |= {(r["name"],) + x for x in d}
        cap_pairs |= {(r["name"],) + x for x in c}
        ds = {st.key(*x) for x in d}
        cs = {st.key(*x) for x in c}
        dyn_pairs_stmt |= {(r["name"],) + x for x in ds}
        cap_pairs_stmt |= {(r["name"],) + x for x in cs}
        for x in c - d:
            if st.key(*x) not in ds:
                cap_only[x].append(r["name"])
        for x in d - c:
            if st.key(*x) not in cs:
                dyn_only[x].append(r["name"])
    cap_fail = [r for r in built if r["steps"].get("capture") and not ok(r, "capture")]
    dyn_fail = [r for r in built if r["steps"].get("dynamo") and not ok(r, "dynamo")]
    replay_bad = [r for r in built if ok(r, "capture") and r["steps"]["capture"].get("replay_ok") is False]
    res_bad = [r for r in built if ok(r, "capture") and r["steps"]["capture"].get("result_vs_eager") not in ("ok", None)
               and r["steps"]["capture"].get("result_vs_eager_max_diff") is None]

    w("## Capture vs TorchDynamo")
    w("")
    w(f"Over the {len(both)} models where both `fxlint_capture.explain(model)` (dynamo mode) and "
      f"`torch._dynamo.explain(model)` ran:")
    w("")
    w(f"- same graph count: **{pct(len(same_gc), len(both))}** of models "
      f"(Dynamo captured {len(one_both)} of them in one graph);")
    loop_pairs = {(r["name"], s["filename"], s["lineno"]) for r in both for s in _dyn_breaks(r) if s.get("loop")}
    listed_pairs = {(r["name"], s["filename"], s["lineno"]) for r in both for s in r["steps"]["dynamo"]["break_sites"]}
    w(f"- Dynamo's break sites (model, file:line of the innermost frame; with its {len(loop_pairs)} breaks inside a "
      f"loop, {len(loop_pairs - listed_pairs)} of them not listed by `explain`) where the capture also breaks: "
      f"**{pct(len(dyn_pairs & cap_pairs), len(dyn_pairs))}**; same statement: "
      f"{pct(len(dyn_pairs_stmt & cap_pairs_stmt), len(dyn_pairs_stmt))};")
    w(f"- the capture's break sites where Dynamo also breaks: {pct(len(dyn_pairs & cap_pairs), len(cap_pairs))};")
    w(f"- the capture raised on {len(cap_fail)} models (Dynamo raised on {len(dyn_fail)}); "
      f"{len(replay_bad)} captures have a graph that does not replay what ran; "
      f"{len(res_bad)} returned a result whose tensors differ in structure from eager.")
    w("")
    gc_diff = [r for r in both if r not in same_gc]
    if gc_diff:
        w("Graph counts that differ (capture / Dynamo):")
        w("")
        w(", ".join(f"`{r['name']}` {r['steps']['capture']['graph_count']}/{r['steps']['dynamo']['graph_count']}"
                    for r in gc_diff))
        w("")
        w("The capture keeps Dynamo's compile units (docs/capture.md, \"Compile units\"): a unit reused on a "
          "cache hit adds no graph, a frame that breaks in a loop runs eagerly, and a break inside inlined "
          "calls cuts the graph into one per frame, as Dynamo traces each callee again as its own unit. What "
          "stays different, because the capture runs each instruction once and cannot trace a frame again: "
          "the functions a skipped frame called before its break (the detection models' box decoding and "
          "clipping) are units of their own for Dynamo, where the capture has already recorded them in the "
          "unit's graph; and a graph that draws random numbers or whose parts' inputs changed in place is "
          "not cut. The models above break inside loops, so Dynamo counts more graphs; the break sites "
          "agree (below).")
        w("")
    w("### Where the capture breaks and Dynamo does not")
    w("")
    w("Dynamo's break sites here include its breaks inside loops (\"graph break in loop\": Dynamo found the "
      "break, then skipped the whole frame and ran it eagerly; recorded from `raise_loop_graph_break`, since "
      "`explain` does not list them). \"Dynamo skipped the frame\": the site lies in such a frame, after the "
      "break that made Dynamo skip it, or after a break Dynamo cannot resume from (a recurrent module: "
      "the rest of that frame runs eagerly), so Dynamo never traced it and lists nothing there; the capture "
      "runs such a frame eagerly too.")
    w("")
    if cap_only:
        n_sk = sum(1 for x in cap_only if in_skipped(x))
        w(f"{len(cap_only)} sites, {n_sk} of them in a frame Dynamo skipped, after the break that made it skip.")
        w("")
        w("| site | capture's reason | Dynamo skipped the frame | models |")
        w("|---|---|---|---|")
        for x, ms in sorted(cap_only.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            w(f"| `{short(x[0])}:{x[1]}` `{src(*x)[:80]}` | {cap_reason.get(x, '')[:120]} | "
              f"{'yes' if in_skipped(x) else 'no'} | {_models(ms)} |")
    else:
        w("None.")
    w("")
    w("### Where Dynamo breaks and the capture does not")
    w("")
    if dyn_only:
        w("| site | Dynamo's reason | models |")
        w("|---|---|---|")
        for x, ms in sorted(dyn_only.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            w(f"| `{short(x[0])}:{x[1]}` `{src(*x)[:80]}` | {dyn_reason.get(x, '')[:120]} | {_models(ms)} |")
    else:
        w("None.")
    w("")
    if cap_fail or replay_bad:
        w("Captures that raised or do not replay:")
        w("")
        for r in cap_fail:
            c = r["steps"]["capture"]
            where = f" at `{short(c['site']['filename'])}:{c['site']['lineno']}`" if c.get("site") else ""
            w(f"- `{r['name']}`: {c.get('error_type', '')} {(c.get('error') or '').splitlines()[0][:200] if c.get('error') else ''}{where}")
        for r in replay_bad:
            w(f"- `{r['name']}`: replay: {'; '.join(r['steps']['capture'].get('replay_failures') or [])[:300]}")
        w("")

    # ------------------------------------------------------------------ static vs the compilers
    w("## fxlint (static) vs the compilers")
    w("")
    w("fxlint ran once per target over every Python file of torchvision, timm, transformers and "
      "torch/nn (`bench/zoo/fxlint.toml`: no excludes; default `--scope reachable`). A finding counts "
      "for a model when the model's eager forward executed its line (`sys.settrace` over those files) "
      f"and, for the {len(SPANS)} models whose run also recorded the instructions it executed, an instruction "
      "inside the finding's own source range (`a and not f(x)` runs its line, but not `not f(x)`, when `a` "
      "is false). Recall is over distinct sites (union over models); precision over distinct lines with an "
      "fxlint **error** that some model executed.")
    w("")
    by_line = {t: _index(v["findings"]) for t, v in lint.items()}
    by_stmt = {t: _index_stmt(v["findings"], st) for t, v in lint.items()}

    # dynamo
    dyn_models = [r for r in built if ok(r, "dynamo") and r["name"] in lines]
    dyn_sites = {}  # (file, line) -> info, innermost frame in a library
    dyn_outside = collections.defaultdict(list)  # innermost frame outside the libraries -> its library caller
    loop_sites = {}  # (file, line) -> its loop breaks' skipped frames, reasons and models (innermost frame)
    listed_sites = {(s["filename"], s["lineno"]) for r in dyn_models for s in r["steps"]["dynamo"]["break_sites"]}
    for r in dyn_models:
        for s in _dyn_breaks(r):
            x = (s["filename"], s["lineno"])
            if s.get("loop"):
                e = loop_sites.setdefault(x, {"reason": s["reason"], "frames": set(), "models": set()})
                e["frames"].add(_frame_name(s["skipped_frame"], s.get("frame_site")))
                e["models"].add(r["name"])
            if lib_of(s["filename"]):
                e = dyn_sites.setdefault(x, {"reason": _dyn_reason(s), "models": [], "loop": False, "listed": False})
                e["models"].append(r["name"])
                e["loop"] = e["loop"] or bool(s.get("loop"))
                e["listed"] = e["listed"] or not s.get("loop")
            else:
                lib = s.get("lib_site")
                dyn_outside[x].append((r["name"], (lib["filename"], lib["lineno"]) if lib else None, _dyn_reason(s)))
    w("### `--target dynamo` vs TorchDynamo")
    w("")
    n_loop_lib = sum(1 for v in dyn_sites.values() if v["loop"])
    n_loop_only = sum(1 for v in dyn_sites.values() if v["loop"] and not v["listed"])
    w(f"Dynamo's break sites are the breaks `torch._dynamo.explain` lists and its breaks inside loops: there "
      f"Dynamo found the break, then skipped the whole frame and ran it eagerly (\"graph break in loop\"), "
      f"and `explain` lists nothing in that frame; they are recorded from Dynamo's `raise_loop_graph_break` and "
      f"included in the figures below: {n_loop_lib} of the distinct sites in library code are such breaks, "
      f"{n_loop_only} of which `explain` lists for no model (it lists the others where the break also reached a "
      f"frame it traced); the table after the figures lists them.")
    w("")
    rec_line = [x for x in dyn_sites if by_line["dynamo"].get(x)]
    rec_err = [x for x in dyn_sites if any(f[4] == "error" for f in by_line["dynamo"].get(x, []))]
    rec_stmt = [x for x in dyn_sites if by_stmt["dynamo"].get(st.key(*x))]
    w(f"- **Recall**: of Dynamo's {len(dyn_sites)} distinct break sites in library code "
      f"(over {len(dyn_models)} models), fxlint `--target dynamo` has a finding on the line at "
      f"**{pct(len(rec_line), len(dyn_sites))}** (an error: {pct(len(rec_err), len(dyn_sites))}; "
      f"a finding in the same statement: {pct(len(rec_stmt), len(dyn_sites))}).")
    if dyn_outside:
        callers = {c for v in dyn_outside.values() for _, c, _ in v if c}
        rec_c = [c for c in callers if by_stmt["dynamo"].get(st.key(*c))]
        w(f"  A further {len(dyn_outside)} distinct Dynamo break sites have their innermost frame outside "
          f"the libraries (torch internals); their innermost library caller has a finding in the same "
          f"statement at {pct(len(rec_c), len(callers))}.")
    exec_dyn = _executed(dyn_models, lines)
    errs = _errors_on(by_line["dynamo"], exec_dyn, dyn_models, lines)
    dyn_site_set = set(dyn_sites)
    dyn_site_stmt = {st.key(*x) for x in dyn_site_set}
    prec = [x for x in errs if x in dyn_site_set]
    prec_stmt = [x for x in errs if st.key(*x) in dyn_site_stmt]
    # A finding on the call of a function inside which Dynamo breaks (FX303 on `batched_nms(...)`,
    # the break at the op in its body) is about that break.
    dyn_callers = {c for r in dyn_models for c in _dyn_callers(r)}
    prec_call = [x for x in errs if st.key(*x) not in dyn_site_stmt and x in dyn_callers]
    dyn_site_stmt |= {st.key(*x) for x in prec_call}
    seen = [x for x in errs if st.key(*x) in dyn_site_stmt or not in_skipped(x)]
    unseen = [x for x in errs if x not in seen]
    traced = _traced_breaks(dyn_models, st)
    by_traced = {x: _traced_verdict(x, traced, st) for x in unseen}
    confirmed = [x for x in unseen if by_traced[x][0] != "untraced"]
    w(f"- **Precision**: of the {len(errs)} distinct lines with an fxlint `--target dynamo` error that "
      f"these models executed, **{pct(len(prec_stmt) + len(prec_call) + len(confirmed), len(errs))}** are Dynamo break sites: "
      f"{len(prec_stmt)} where `explain` lists a break or Dynamo breaks in a loop (same statement; "
      f"{pct(len(prec), len(errs))} on the line itself), {len(prec_call)} on the call of a function Dynamo "
      f"breaks inside (the finding names the call; the break is at the operation in its body), and "
      f"{len(confirmed)} in frames Dynamo skipped, where it breaks once it traces them (below).")
    w(f"  {len(unseen)} of those lines lie in frames Dynamo skipped, after the break inside a loop that made it "
      f"skip them or a break it cannot resume from: `explain` never traced them, so it neither confirms nor "
      f"refutes a break there. Over the other {len(seen)}, "
      f"{pct(len([x for x in seen if st.key(*x) in dyn_site_stmt]), len(seen))} are Dynamo break sites "
      f"(same statement).")
    if traced["models"]:
        n_inner = sum(1 for x in confirmed if by_traced[x][0] == "line")
        w(f"  The `dynamo_traced` step runs `explain` again on the {traced['models']} models with such frames, "
          f"with Dynamo's frame skip at a break inside a loop turned off (`maybe_has_backedge` answers false, so "
          f"Dynamo resumes after that break as it does outside loops), and with the library modules' `zip` "
          f"yielding from a list of its tuples (Dynamo cannot hand a `zip` iterator to the resume function it "
          f"builds after a break in `for ... in zip(...)`, and skips the frame; a list iterator it can). "
          f"Of the {len(unseen)} lines, Dynamo then "
          f"breaks at {n_inner} (same statement) and inside the function called on the line at "
          f"{len(confirmed) - n_inner} (the finding is on the call of a function that returns a data-dependent "
          f"shape; the break is in its body); {len(unseen) - len(confirmed)} stay untraced even so "
          f"(the table of false alarms says why).")
        lib_traced = {x for x in traced["inner"] if lib_of(x[0])}
        new_sites = [x for x in lib_traced if st.key(*x) not in dyn_site_stmt]
        hit = [x for x in new_sites if by_stmt["dynamo"].get(st.key(*x))]
        w(f"  That run also finds {len(new_sites)} distinct break sites in library code that the plain run "
          f"never traced; fxlint `--target dynamo` has a finding in the statement at "
          f"{pct(len(hit), len(new_sites))}" + (": missing at " + ", ".join(
              f"`{short(x[0])}:{x[1]}`" for x in sorted(set(new_sites) - set(hit))) if len(hit) < len(new_sites)
              else "") + ".")
    w("")
    if loop_sites:
        w(f"Dynamo's breaks inside loops ({len(loop_sites)} distinct sites, innermost frame; included above):")
        w("")
        w("| site | Dynamo's reason | frame skipped (its line at the break) | listed by `explain` | "
          "fxlint `--target dynamo` in the statement | models |")
        w("|---|---|---|---|---|---|")
        for x, v in sorted(loop_sites.items(), key=lambda kv: (-len(kv[1]["models"]), kv[0])):
            fnd = ",".join(sorted({f[3] for f in by_stmt["dynamo"].get(st.key(*x), [])}))
            listed = x in listed_sites
            w(f"| `{short(x[0])}:{x[1]}` `{src(*x)[:70]}` | {v['reason'][:100]} | "
              f"{'; '.join(sorted(v['frames']))} | {'yes' if listed else 'no'} | {fnd or 'none'} | "
              f"{_models(sorted(v['models']))} |")
        w("")

    # export and onnx
    exp_models = [r for r in built if r["name"] in lines and
                  (r["steps"].get("export_nonstrict") or r["steps"].get("export_strict"))]
    exp_sites = {}
    for r in exp_models:
        for step in ("export_nonstrict", "export_strict"):
            v = r["steps"].get(step) or {}
            if v.get("ok") is False and v.get("site") and not v.get("timeout"):
                x = (v["site"]["filename"], v["site"]["lineno"])
                e = exp_sites.setdefault(x, {"reason": f"{v.get('error_type')}: {_first(v.get('error'))}",
                                             "models": set(), "modes": set()})
                e["models"].add(r["name"])
                e["modes"].add(step.split("_")[1])
        # draft_export goes on past each failure: every site, not just the first.
        for f in (r["steps"].get("export_draft") or {}).get("failures") or []:
            if f.get("filename"):
                x = (f["filename"], f["lineno"])
                e = exp_sites.setdefault(x, {"reason": f"{f['kind']}: {f.get('expr') or ''}",
                                             "models": set(), "modes": set()})
                e["models"].add(r["name"])
                e["modes"].add("draft")
    drafted = sum(1 for r in exp_models if _draft_finished(r))
    raised = sum(1 for r in exp_models if (r["steps"].get("export_draft") or {}).get("raised_at"))
    probes = [p for r in exp_models for p in (r["steps"].get("export_probe") or {}).get("probes") or []]
    # Failures of a function exported alone: they confirm the lines the compiler never reached.
    probe_sites = {(f["filename"], f["lineno"]) for p in probes for f in p.get("failures") or [] if f.get("filename")}
    w("### `--target export` vs `torch.export.export`")
    w("")
    n_ns = sum(1 for r in exp_models if (r["steps"].get("export_nonstrict") or {}).get("ok") is not None)
    n_s = sum(1 for r in exp_models if (r["steps"].get("export_strict") or {}).get("ok") is not None)
    n_skip = sum(1 for r in exp_models if (r["steps"].get("export_strict") or {}).get("skipped"))
    w(f"Non-strict export ran on {n_ns} models, strict export on {n_s}"
      + (f" (skipped on {n_skip} where Dynamo took the model in one graph without a break and non-strict "
         f"export passed: `--strict-export auto`)" if n_skip else "") + ". A failure site is the innermost "
      "library frame of the compiler's first failure"
      + (f", and of every failure `torch.export.draft_export` lists on the {drafted} models where non-strict "
         f"export failed (draft export takes the value the real tensors give at each data-dependent "
         f"failure, records the failure and goes on, so it traces the whole forward)" if drafted else "")
      + (f". On {raised} models draft export itself raised (an operator it cannot fake, an internal "
         f"assertion, or a guard it cannot pass); the failures it went past before are kept, and where it "
         f"raised counts only when it is a guard on data" if raised else "") + ".")
    w("")
    if probes:
        ran_alone = [p for p in probes if p.get("ok") is not None]
        w(f"The lines with an fxlint `--target export` error that draft export never reached (it raised "
          f"before) are probed (`export_probe`): each function that holds one is draft-exported alone, with "
          f"the arguments of its first call in the eager run that ran the line (tensors as inputs, modules as "
          f"sub-modules, the rest as constants). {len(ran_alone)} of {len(probes)} functions were exported "
          f"so; their failure sites count for precision below (not for recall: only flagged lines are probed).")
        w("")
    _static_vs_failures(w, "export", exp_models, exp_sites, by_line, by_stmt, st, lines,
                        ["export_nonstrict", "export_strict", "export_draft"], dyn_site_set, probe_sites)
    onnx_models = [r for r in built if r["name"] in lines and r["steps"].get("onnx", {}).get("ok") is not None]
    onnx_sites = {}
    for r in onnx_models:
        v = r["steps"]["onnx"]
        if v.get("ok") is False and v.get("site") and not v.get("timeout"):
            x = (v["site"]["filename"], v["site"]["lineno"])
            e = onnx_sites.setdefault(x, {"reason": f"{v.get('error_type')}: {_first(v.get('summary') or v.get('error'))}",
                                          "models": set(), "modes": set(), "causes": set()})
            e["models"].add(r["name"])
            e["causes"].add(_onnx_cause(v))
    w("### `--target fx2onnx` vs `torch.onnx.export(dynamo=True)`")
    w("")
    _static_vs_failures(w, "fx2onnx", onnx_models, onnx_sites, by_line, by_stmt, st, lines, ["onnx"], dyn_site_set)
    w("### `--target export` vs `torch.onnx.export(dynamo=True)`")
    w("")
    w("The exporter captures the model with torch.export, so the target that models it is `export` (the "
      "specification's table of targets pairs them); the same figures for that target:")
    w("")
    _static_vs_failures(w, "export", onnx_models, onnx_sites, by_line, by_stmt, st, lines, ["onnx"], dyn_site_set)
    onnx_ok = [r for r in onnx_models if r["steps"]["onnx"].get("ok")]
    diffs = [r["steps"]["onnx"].get("ort_vs_eager_max_diff") for r in onnx_ok
             if r["steps"]["onnx"].get("ort_vs_eager_max_diff") is not None]
    nosite = [r for r in onnx_models if r["steps"]["onnx"].get("ok") is False and not r["steps"]["onnx"].get("site")]
    rel = {r["name"]: r["steps"]["onnx"]["ort_vs_eager_max_diff"] / r["steps"]["onnx"]["eager_scale"]
           for r in onnx_ok if r["steps"]["onnx"].get("ort_vs_eager_max_diff") is not None
           and r["steps"]["onnx"].get("eager_scale")}
    w(f"The exporter succeeded on {pct(len(onnx_ok), len(onnx_models))} of the models it ran on "
      f"(skipped above the parameter limit: "
      f"{sum(1 for r in built if (r['steps'].get('onnx') or {}).get('skipped'))}); ONNX Runtime vs eager, "
      f"largest absolute difference: median {_med(diffs)}, max {max(diffs) if diffs else 'n/a'}"
      + (f"; relative to the largest eager output (recorded for {len(rel)} models): median {_med(rel.values())}, "
         f"max {max(rel.values()):.3g}" if rel else "") + ". "
      f"{len(nosite)} failures carry no library file:line (the exporter failed after capture: decomposition, "
      f"translation, or ONNX Runtime).")
    big = sorted((r["name"], r["steps"]["onnx"]["ort_vs_eager_max_diff"], rel.get(r["name"])) for r in onnx_ok
                 if (r["steps"]["onnx"].get("ort_vs_eager_max_diff") or 0) > 1e-3)
    if big:
        w("")
        w("Absolute differences above 1e-3 (random weights make some deep networks' outputs huge, so the "
          "relative figure is the one to read where recorded): " + ", ".join(
              f"`{n}` {d:.3g}" + (f" (relative {q:.2g})" if q is not None else "") for n, d, q in big) + ".")
    fails = [r for r in onnx_models if r["steps"]["onnx"].get("ok") is False]
    if fails:
        w("")
        w("ONNX export failures by cause: " + ", ".join(
            f"{k} {v}" for k, v in collections.Counter(
                _onnx_cause(r["steps"]["onnx"]) for r in fails).most_common()) + ".")
    w("")

    # ------------------------------------------------------------------ disagreements
    w("## Disagreements")
    w("")
    w("Reading notes. `torch._dynamo.explain` lists a break only in frames it traced: where a break "
      "falls inside a loop, Dynamo runs that whole function eagerly and lists nothing in it (the "
      "functions it calls are traced on their own). The break that made it skip the frame is counted "
      "here as a Dynamo break site; the lines of that frame after it were never traced, so a site there "
      "can be a real break that Dynamo does not report (\"Dynamo skipped the frame\"). torch.export and "
      "the ONNX exporter stop at their first failure, so each failing model contributes one site. A line that the eager run executed "
      "may still not be reached by a compiler in the same way (a branch on `dtype` or on an argument "
      "can skip the flagged expression).")
    w("")
    w("### Dynamo breaks, fxlint `--target dynamo` has no finding in the statement (static misses)")
    w("")
    misses = {x: v for x, v in dyn_sites.items() if not by_stmt["dynamo"].get(st.key(*x))}
    if misses:
        w("| site | code | Dynamo's reason | models |")
        w("|---|---|---|---|")
        for x, v in sorted(misses.items(), key=lambda kv: (-len(set(kv[1]["models"])), kv[0])):
            w(f"| `{short(x[0])}:{x[1]}` | `{src(*x)[:90]}` | {v['reason'][:110]} | {_models(sorted(set(v['models'])))} |")
    else:
        w("None.")
    w("")
    if dyn_outside:
        w("Dynamo break sites inside torch (innermost frame), with the library line that called into them:")
        w("")
        w("| torch site | Dynamo's reason | library caller | finding there | models |")
        w("|---|---|---|---|---|")
        for x, v in sorted(dyn_outside.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            callers = sorted({c for _, c, _ in v if c})
            c0 = callers[0] if callers else None
            fnd = ",".join(sorted({f[3] for f in by_stmt["dynamo"].get(st.key(*c0), [])})) if c0 else ""
            w(f"| `{short(x[0])}:{x[1]}` | {v[0][2][:100]} | "
              f"{f'`{short(c0[0])}:{c0[1]}` `{src(*c0)[:70]}`' if c0 else '-'} | {fnd or 'none'} | "
              f"{_models(sorted({m for m, _, _ in v}))} |")
        w("")
    w("### fxlint `--target dynamo` errors on executed lines where `explain` lists no break")
    w("")
    w("Static false alarms, and lines in frames Dynamo skipped: the column `dynamo_traced` says whether Dynamo "
      "breaks there once it traces the frame.")
    w("")
    fa = [x for x in errs if st.key(*x) not in dyn_site_stmt]
    who = _who_executed(dyn_models, lines, set(fa))
    w(f"{len(fa)} lines, by rule: " + ", ".join(
        f"{c} {n}" for c, n in collections.Counter(
            f[3] for x in fa for f in by_line["dynamo"][x] if f[4] == "error").most_common()) + ".")
    w("")
    if fa:
        w("| line | finding | Dynamo skipped the frame | with the frame traced (`dynamo_traced`) | models that ran it |")
        w("|---|---|---|---|---|")
        for x in sorted(fa, key=lambda x: (-len(who.get(x, ())), x)):
            f0 = [f for f in by_line["dynamo"][x] if f[4] == "error"]
            codes = ", ".join(sorted({f[3] for f in f0}))
            verdict, why = _traced_verdict(x, traced, st, who.get(x, ())) if in_skipped(x) else ("-", "")
            shown = {"line": "breaks here", "callee": "breaks in the called function",
                     "untraced": "not traced" + (f": {why}" if why else ""), "-": "-"}[verdict]
            w(f"| `{short(x[0])}:{x[1]}` `{src(*x)[:80]}` | {codes}: {f0[0][5][:100]} | "
              f"{'yes' if in_skipped(x) else 'no'} | {shown[:160]} | {_models(sorted(who.get(x, ())), 4)} |")
    w("")
    w("### torch.export / ONNX exporter failures with no fxlint finding in the statement")
    w("")
    rows = []
    for name, sites, tgt in (("torch.export", exp_sites, "export"), ("ONNX exporter", onnx_sites, "fx2onnx")):
        for x, v in sites.items():
            if not by_stmt[tgt].get(st.key(*x)):
                rows.append((name, x, v))
    if rows:
        causes = _causes()
        w("Why fxlint has no finding there comes from `bench/zoo/causes.json`, written after reading each site.")
        w("")
        w("| compiler | site | reason | why no finding | models |")
        w("|---|---|---|---|---|")
        for name, x, v in sorted(rows, key=lambda t: (t[0], -len(t[2]["models"]), t[1])):
            modes = f" ({'/'.join(sorted(v['modes']))})" if v["modes"] else ""
            why = causes.get(f"{short(x[0])}:{x[1]}", "not yet explained")
            w(f"| {name}{modes} | `{short(x[0])}:{x[1]}` `{src(*x)[:70]}` | {v['reason'][:120]} | {why} | "
              f"{_models(sorted(v['models']))} |")
    else:
        w("None.")
    w("")

    w("### fxlint `--target export` errors on executed lines that are not torch.export failure sites")
    w("")
    exp_errs = _errors_on(by_line["export"], _executed(exp_models, lines), exp_models, lines)
    exp_failed = [r for r in exp_models if any((r["steps"].get(s) or {}).get("ok") is False
                                               and not (r["steps"].get(s) or {}).get("timeout")
                                               for s in ("export_nonstrict", "export_strict", "export_draft"))]
    exp_fa = [x for x in exp_errs if st.key(*x) not in {st.key(*y) for y in exp_sites}]
    if exp_fa:
        who_e = _who_executed(exp_models, lines, set(exp_fa))
        probe_stmt = {st.key(*y) for y in probe_sites}
        w("torch.export stops at its first failure: \"traced\" says whether some model that ran the line "
          "exported, ran through draft export, or reached it before the line it failed at; \"alone\", whether "
          "the function that holds it fails there when exported alone (`export_probe`); \"why\" comes from "
          "`bench/zoo/alarms.json`, written after reading each line.")
        w("")
        alarms = _causes("alarms.json")
        w("| line | finding | traced by torch.export | alone | a Dynamo break site | why | models that ran it |")
        w("|---|---|---|---|---|---|---|")
        for x in sorted(exp_fa, key=lambda x: (-len(who_e.get(x, ())), x)):
            f0 = [f for f in by_line["export"][x] if f[4] == "error"]
            reached = _reached(x, exp_models, exp_failed, lines, ["export_nonstrict", "export_strict", "export_draft"])
            alone = _probe_verdict(x, probes, probe_stmt, st)
            w(f"| `{short(x[0])}:{x[1]}` `{src(*x)[:80]}` | {', '.join(sorted({f[3] for f in f0}))}: "
              f"{f0[0][5][:100]} | {'yes' if reached else 'no'} | {alone} | "
              f"{'yes' if st.key(*x) in dyn_site_stmt else 'no'} | "
              f"{alarms.get(f'{short(x[0])}:{x[1]}', 'not yet explained')} | {_models(sorted(who_e.get(x, ())), 4)} |")
    else:
        w("None.")
    w("")

    # ------------------------------------------------------------------ speed
    w("## Speed")
    w("")
    ratio_c = [r["steps"]["capture"]["compile_time_s"] / r["steps"]["dynamo"]["time_s"] for r in both
               if r["steps"]["dynamo"].get("time_s")]
    ratio_t = [r["steps"]["capture"]["time_s"] / r["steps"]["dynamo"]["time_s"] for r in both
               if r["steps"]["dynamo"].get("time_s")]
    ratio_e = [r["steps"]["capture"]["compile_time_s"] / r["steps"]["eager"]["time_s"] for r in both
               if ok(r, "eager") and r["steps"]["eager"].get("time_s")]
    # Warm against warm: eager's time is the best of repeated runs, so is this capture time.
    ratio_w = [r["steps"]["capture"]["warm_compile_time_s"] / r["steps"]["eager"]["time_s"] for r in both
               if ok(r, "eager") and r["steps"]["eager"].get("time_s")
               and r["steps"]["capture"].get("warm_compile_time_s")]
    w(f"Over the {len(both)} models where both ran (wall time, one thread, on a shared 2-core machine):")
    w("")
    w(f"- capture / `torch._dynamo.explain`: median **{_med(ratio_c)}** (capture without its replay); "
      f"{_med(ratio_t)} with the replay of every graph;")
    if ratio_w:
        within = sum(1 for x in ratio_w if x <= 1.2)
        w(f"- capture / eager forward, both warm (the best of repeated runs in the same process): median "
          f"**{_med(ratio_w)}** over {len(ratio_w)} models, within 1.2x on {within} "
          f"({100 * within / len(ratio_w):.1f}%);")
    w(f"- capture / eager forward, the first capture in the process against warm eager: median {_med(ratio_e)} "
      f"(the capture runs the model once, concolically, and the first one also decodes every code object);")
    w("")
    w("| step | median | max | models |")
    w("|---|---|---|---|")
    for step in ("build", "eager", "capture", "dynamo", "dynamo_traced", "export_nonstrict", "export_strict",
                 "export_draft", "export_probe", "onnx"):
        ts = [r["steps"][step]["time_s"] for r in built if r["steps"].get(step, {}).get("time_s") is not None
              and r["steps"][step].get("ok") is not None]
        w(f"| {step} | {_med(ts)} s | {max(ts) if ts else 0:.2f} s | {len(ts)} |")
    walls = [r["wall_s"] for r in all_recs if r.get("wall_s")]
    w("")
    w(f"Whole model (all steps, its own process): median {_med(walls)} s, total {sum(walls) / 60:.0f} "
      f"process-minutes.")
    w("")

    # ------------------------------------------------------------------ coverage
    w("## Models")
    w("")
    w("Which models ran, at which input, and what each side saw. capture / dynamo: graph count "
      "(`E` raised); export: non-strict / strict (`ok`, `F` failed, `T` timed out); onnx: `ok`, `F`, "
      "`skip`.")
    w("")
    not_run = _not_run(recs)
    if not_run:
        w(f"In the zoo but not run this time ({len(not_run)}; `zoo.py run` resumes with them):")
        w("")
        w(", ".join(f"`{n}`" for n in not_run))
        w("")
    if build_failed:
        w("Failed to build or to run eagerly (every input size tried):")
        w("")
        for r in build_failed:
            err = (r["steps"].get("build", {}).get("error") or r.get("status", "")).splitlines()
            w(f"- `{r['name']}`: {err[-1][:200] if err else r.get('status')}")
        w("")
    if timeouts or crashed:
        w("Timed out or crashed (the step, then the rest of the model skipped when the whole model's "
          "limit was reached):")
        w("")
        for n, s in timeouts:
            w(f"- `{n}`: {s} timed out")
        for n, s in crashed:
            w(f"- `{n}`: {s} crashed")
        w("")
    w("| model | input | capture | dynamo | export | onnx | fxlint dynamo errors on executed lines |")
    w("|---|---|---|---|---|---|---|")
    for r in built:
        s = r["steps"]
        errs_m = sum(1 for f in r.get("static", {}).get("dynamo", []) if f[4] == "error")
        w(f"| `{r['name']}` | {' '.join(map(str, r.get('inputs', [])))[:60]} | {_gc(s.get('capture'))} | "
          f"{_gc(s.get('dynamo'))} | {_st(s.get('export_nonstrict'))}/{_st(s.get('export_strict'))} | "
          f"{_st(s.get('onnx'))} | {errs_m} |")
    w("")
    return "\n".join(out)


def _dyn_breaks(rec):
    """Dynamo's break sites of a record: those explain lists, then its breaks inside loops
    (``loop: True``; a loop break without an innermost frame is left out)."""
    d = rec["steps"]["dynamo"]
    out = list(d.get("break_sites", []))
    for lb in d.get("loop_breaks", []):
        if lb.get("filename") and lb.get("lineno"):
            out.append(dict(lb, loop=True))
    return out


def _dyn_callers(rec):
    """The library lines on the stack above each of Dynamo's breaks in a record (the calls that
    led down to it), from explain's breaks and its breaks inside loops."""
    d = rec["steps"]["dynamo"]
    out = set()
    for s in d.get("break_sites", []):
        for c in s.get("callers", []):
            f, _, n = c.rpartition(":")
            out.add((f, int(n)))
    for lb in d.get("loop_breaks", []):
        for c in (lb.get("stack") or [])[:-1]:
            f, _, n = c.rpartition(":")
            if lib_of(f):
                out.add((f, int(n)))
    return out


def _traced_breaks(recs, st):
    """The breaks of the dynamo_traced step (explain with no frame skipped at a break in a loop):
    innermost sites by statement, the library lines of their callers, and per function the
    reasons Dynamo still skipped frames."""
    out = {"models": 0, "inner": set(), "stmts": set(), "callers": set(), "why": collections.defaultdict(set)}
    for r in recs:
        t = r["steps"].get("dynamo_traced") or {}
        if not t.get("ok"):
            continue
        out["models"] += 1
        for s in t["break_sites"]:
            x = (s["filename"], s["lineno"])
            out["inner"].add(x)
            out["stmts"].add(st.key(*x))
            for c in s.get("callers", []):
                f, _, n = c.rpartition(":")
                out["callers"].add((f, int(n)))
        for why in t.get("frames_skipped_because", []):
            out["why"][r["name"]].add(why)
    return out


def _traced_verdict(x, traced, st, models=()):
    """("line" | "callee" | "untraced", why) for a line in a frame Dynamo skipped; why: the
    reasons Dynamo still skipped frames in the given models (those that ran the line)."""
    if st.key(*x) in traced["stmts"]:
        return "line", ""
    if x in traced["callers"]:
        return "callee", ""
    whys = sorted({w for m in models for w in traced["why"].get(m, ())})
    return "untraced", "; ".join(whys)


def _dyn_reason(site):
    return f"{site['reason']} (in a loop: frame skipped)" if site.get("loop") else site["reason"]


def _frame_name(frame, at):
    where = f"{short(frame['filename'])}:{at['lineno']}" if at else short(frame["filename"])
    return f"`{frame['name']}` ({where})"


# Dynamo's reasons for a break at which it stops tracing the frame, so that
# the rest of it runs eagerly: checked with torch.compile on a module whose
# later operations compile into no graph.
UNRESUMABLE_BREAKS = {"Attempted to wrap RNN, GRU, or LSTM"}


def _skipped_regions(recs, st):
    """(file, first line of the function) -> the first line Dynamo never traced, for each frame
    it skipped: the skipped frame's line at the break inside a loop that made Dynamo skip it
    (the earliest over the models), else the frame's first line; and the line of a break it
    cannot resume after (UNRESUMABLE_BREAKS), from which the frame ran eagerly. A resume function
    (``torch_dynamo_resume_in_<f>_at_<N>``, the rest of ``f`` after an earlier break) is mapped
    to its function ``f``."""
    regions = {}
    for r in recs:
        d = r["steps"]["dynamo"]
        frames = {(f["name"], f["filename"], f["firstlineno"]): None for f in d.get("skipped_frames", [])}
        for lb in d.get("loop_breaks", []):
            sf = lb["skipped_frame"]
            k = (sf["name"], sf["filename"], sf["firstlineno"])
            at = (lb.get("frame_site") or {}).get("lineno")
            if at is not None:
                frames[k] = at if frames.get(k) is None else min(frames[k], at)
            else:
                frames.setdefault(k, None)
        for (name, fname, first), at in frames.items():
            start = st.func_start(fname, first) if name.startswith("torch_dynamo_resume_in_") else first
            if start is None:
                continue
            frm = at if at is not None else first
            regions[(fname, start)] = min(regions.get((fname, start), frm), frm)
        # A break Dynamo cannot resume after (it raises while loading the value,
        # not at a call): the graph ends there and the rest of the frame runs eagerly.
        for b in d.get("break_sites", []):
            if b.get("reason") not in UNRESUMABLE_BREAKS or not b.get("filename"):
                continue
            start = st.func_start(b["filename"], b["lineno"])
            if start is not None:
                key = (b["filename"], start)
                regions[key] = min(regions.get(key, b["lineno"]), b["lineno"])
    return regions


def _capture_module(rec):
    """The fxlint_capture that made the record's capture step: the last rerun's that redid it."""
    for rr in reversed(rec.get("reruns", [])):
        if "capture" in rr.get("steps", []) and rr.get("capture_module"):
            return rr["capture_module"]
    return rec.get("capture_module", "?")


def _so_digest(path):
    import glob
    import hashlib

    sos = glob.glob(os.path.join(path, "_fxlint_capture*.so"))
    if not sos:
        return ""
    with open(sos[0], "rb") as f:
        return f" (extension sha256 {hashlib.sha256(f.read()).hexdigest()[:16]})"


def _onnx_cause(step):
    if step.get("timeout"):
        return "timeout"
    if step.get("error_type") == "CaptureFailed":
        return "torch.export failed (both modes)"
    return step.get("error_type") or "?"


def _not_run(recs):
    try:
        import models

        return [s.name for s in models.all_specs() if s.name not in recs]
    except Exception:  # noqa: BLE001 - the report does not need the libraries
        return []


def _probe_verdict(x, probes, probe_stmt, st):
    """What exporting the function that holds line x alone said of it."""
    if st.key(*x) in probe_stmt:
        return "fails here"
    mine = [p for p in probes if p["filename"] == x[0] and x[1] in p.get("lines", ())]
    if not mine:
        return "not probed"
    if any(p.get("ok") is None for p in mine):
        return "not exported: " + next(p["skipped"] for p in mine if p.get("ok") is None)[:60]
    if any(p.get("raised_at") for p in mine):
        at = next(p["raised_at"] for p in mine if p.get("raised_at"))
        return f"draft export raised at {short(at['filename'])}:{at['lineno']}" if at else "draft export raised"
    return "passes"


def _causes(name="causes.json"):
    """file:line -> why, written after reading each site: why fxlint has no finding at a compiler
    failure site (causes.json), or why an fxlint error is not a failure site (alarms.json)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {k: v for k, v in json.load(f).items() if not k.startswith("_")}


def _draft_finished(r):
    """Draft export ran the whole forward (it did not raise on the way)."""
    v = r["steps"].get("export_draft") or {}
    return "failures" in v and not v.get("raised_at")


def _static_vs_failures(w, target, models, sites, by_line, by_stmt, st, lines, steps, dyn_sites, probed=()):
    rec_line = [x for x in sites if by_line[target].get(x)]
    rec_stmt = [x for x in sites if by_stmt[target].get(st.key(*x))]
    failed = [r for r in models if any((r["steps"].get(s) or {}).get("ok") is False
                                       and not (r["steps"].get(s) or {}).get("timeout") for s in steps)]
    passed = [r for r in models if r not in failed and any((r["steps"].get(s) or {}).get("ok") for s in steps)
              and all((r["steps"].get(s) or {}).get("ok") is not False for s in steps)]
    every = " and every failure draft export lists" if "export_draft" in steps else ""
    w(f"- **Recall**: of the {len(sites)} distinct failure sites in library code (the first failure of each "
      f"model that failed{every}, over {len(models)} models), fxlint `--target {target}` has a finding on the line at "
      f"**{pct(len(rec_line), len(sites))}** (same statement: {pct(len(rec_stmt), len(sites))}).")
    first = [x for x, v in sites.items() if v.get("modes", set()) - {"draft"}]
    if any("draft" in v.get("modes", ()) for v in sites.values()) and len(first) < len(sites):
        w(f"  Over the compilers' own first failures (the failure a user sees, {len(first)} sites): "
          f"{pct(len([x for x in first if x in rec_line]), len(first))}; the other {len(sites) - len(first)} "
          f"sites only draft export lists, after it went past earlier failures with the values the real tensors "
          f"gave: {pct(len([x for x in sites if x not in first and x in rec_line]), len(sites) - len(first))}.")
    translated = {x for x, v in sites.items()
                  if v.get("causes") and "torch.export failed (both modes)" not in v["causes"]}
    if translated:
        captured = [x for x in sites if x not in translated]
        w(f"  Of those sites, {len(translated)} are failures of the exporter's translation to ONNX, after its "
          f"capture (torch.export) took the model without a failure: an operator or a view the translation cannot "
          f"express, which is not a pitfall of the model's code (listed below). Over the "
          f"{len(captured)} sites where its capture failed: "
          f"{pct(len([x for x in captured if x in rec_line]), len(captured))}.")
    execd = _executed(models, lines)
    errs = _errors_on(by_line[target], execd, models, lines)
    site_stmt = {st.key(*x) for x in sites}
    probed_stmt = {st.key(*x) for x in probed} - site_stmt
    prec = [x for x in errs if x in sites]
    prec_stmt = [x for x in errs if st.key(*x) in site_stmt]
    by_probe = [x for x in errs if st.key(*x) in probed_stmt]
    broad = {st.key(*x) for x in dyn_sites} | site_stmt
    prec_broad = [x for x in errs if st.key(*x) in broad]
    if by_probe:
        confirmed = {st.key(*x) for x in errs} & (site_stmt | probed_stmt)
        # Errors of the silent kinds only: the compiler freezes the value or drops the effect.
        silent = [x for x in errs if st.key(*x) not in confirmed
                  and all(f[3].startswith(("FX2", "FX4")) for f in by_line[target][x] if f[4] == "error")]
        w(f"- **Precision**: of the {len(errs)} distinct lines with an fxlint `--target {target}` error that these "
          f"models executed, **{pct(len(prec_stmt) + len(by_probe), len(errs))}** are failure sites (same "
          f"statement): {len(prec_stmt)} where the model's own export fails, and {len(by_probe)} the compiler "
          f"never reached, where the function that holds them fails when exported alone (`export_probe`)"
          + (f"; with the {len(silent)} documented silent case{'s' if len(silent) != 1 else ''} (errors of the "
             f"FX2xx and FX4xx kinds only: the "
             f"compiler keeps the value the trace saw or drops the effect, without failing), "
             f"**{pct(len(prec_stmt) + len(by_probe) + len(silent), len(errs))}**" if silent else "") + ".")
    w(f"- {'Without the probe, p' if by_probe else '**P'}recision{'' if by_probe else '**'}: of the {len(errs)} "
      f"distinct lines with an fxlint `--target {target}` error that these models executed, "
      f"{'' if by_probe else '**'}{pct(len(prec), len(errs))}{'' if by_probe else '**'} are failure sites (same "
      f"statement: {pct(len(prec_stmt), len(errs))})."
      + ("" if every else " The compiler reports only its first failure per model, so this undercounts;")
      + f" against failure sites and Dynamo break sites together: {pct(len(prec_broad), len(errs))}.")
    reached = [x for x in errs if _reached(x, models, failed, lines, steps) or st.key(*x) in probed_stmt]
    # Rules whose pitfall does not fail a compile: it freezes a value or drops an effect.
    loud = [x for x in reached if any(f[4] == "error" and not f[3].startswith(("FX2", "FX4"))
                                      for f in by_line[target][x])]
    w(f"  Of those lines, {len(errs) - len(reached)} ran only after the compiler's first failure, in every "
      f"model that ran them (the eager run reached them later than the failing line), so the compiler never "
      f"traced them; over the other {len(reached)}, "
      f"{pct(len([x for x in reached if x in sites]), len(reached))} are failure sites, and "
      f"{pct(len([x for x in loud if x in sites]), len(loud))} of the {len(loud)} whose errors are not all of "
      f"the silent kinds (FX2xx global state, FX4xx stored tensors: the compiler freezes the value or drops "
      f"the effect without failing).")
    if target == "fx2onnx":
        w("  `--target fx2onnx` models the strict FX tracer, which fails on data-dependent shapes (FX301-FX303) "
          "and values (FX101) that this exporter, built on torch.export, carries as symbols; `--target export` "
          "is the one that models it.")

    def has_err(r):
        return any(f[4] == "error" for f in r.get("static", {}).get(target, []))

    f_flag = [r for r in failed if has_err(r)]
    p_clean = [r for r in passed if not has_err(r)]
    w(f"- Per model: of the {len(failed)} models the compiler failed on, fxlint has an error on an executed "
      f"line for {pct(len(f_flag), len(failed))}; of the {len(passed)} it exported, fxlint has no error on an "
      f"executed line for {pct(len(p_clean), len(passed))}.")
    w("")


def _index(findings):
    out = collections.defaultdict(list)
    for f in findings:
        out[(f[0], f[1])].append(f)
    return out


def _index_stmt(findings, st):
    out = collections.defaultdict(list)
    for f in findings:
        out[st.key(f[0], f[1])].append(f)
    return out


def _executed(models, lines):
    ex = set()
    for r in models:
        for fname, nums in lines.get(r["name"], {}).items():
            ex |= {(fname, n) for n in nums}
    return ex


def _reached(x, models, failed, lines, steps):
    """Whether a compiler traced line x for some model that ran it: the model exported, or its
    eager run first reached x before the line of the compiler's first failure (unknown order
    counts as reached)."""
    failed_names = {r["name"] for r in failed}
    for r in models:
        if x[1] not in lines.get(r["name"], {}).get(x[0], ()):
            continue
        if r["name"] not in failed_names:
            return True
        if "export_draft" in steps and _draft_finished(r):
            return True  # a draft export that finished traced the whole forward
        first = FIRST.get(r["name"])
        fails = [(v["site"]["filename"], v["site"]["lineno"]) for s in steps
                 for v in [r["steps"].get(s) or {}] if v.get("ok") is False and v.get("site")]
        if first is None or not fails:
            return True
        at = [first.get(f) for f in fails if first.get(f) is not None]
        if not at or first.get(x, -1) <= max(at):
            return True
    return False


def _errors_on(by_line, executed, models, lines):
    """The lines with an fxlint error that some model ran, and ran that error's own source range
    where its instruction spans are recorded (static.ran)."""
    def ran(f, x):
        for r in models:
            if x[1] in lines.get(r["name"], {}).get(x[0], ()):
                spans = SPANS.get(r["name"])
                if static.ran(f, None if spans is None else spans.get(x[0], {})):
                    return True
        return False
    return sorted(x for x, fs in by_line.items()
                  if x in executed and any(f[4] == "error" and ran(f, x) for f in fs))


def _who_executed(models, lines, wanted):
    who = collections.defaultdict(list)
    for r in models:
        for fname, nums in lines.get(r["name"], {}).items():
            for n in nums:
                if (fname, n) in wanted:
                    who[(fname, n)].append(r["name"])
    return who


def _models(names, limit=6):
    names = list(names)
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _first(text):
    lines = (text or "").strip().splitlines()
    return lines[0][:200] if lines else ""


def _med(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "n/a"
    m = statistics.median(xs)
    return f"{m:.3g}" if m < 100 else f"{m:.0f}"


def _gc(step):
    if not step:
        return "-"
    if step.get("timeout"):
        return "T"
    if not step.get("ok"):
        return "E"
    return str(step.get("graph_count"))


def _st(step):
    if not step:
        return "-"
    if step.get("timeout"):
        return "T"
    if step.get("ok") is None:
        return "skip"
    return "ok" if step.get("ok") else "F"


if __name__ == "__main__":
    import sys

    print(render(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "results")))
