#!/usr/bin/env python
"""The model zoo: fxlint's static findings, its bytecode capture and the real compilers
(TorchDynamo, torch.export, the ONNX exporter) side by side on real models.

    python bench/zoo/zoo.py list [--family F] [--only NAMES]
    python bench/zoo/zoo.py run [--family F] [--only NAMES] [--jobs N] [--timeout S] [--step-timeout S]
                                [--results DIR] [--fresh] [--retry FAILED] [--steps a,b] [--onnx-max-params N]
    python bench/zoo/zoo.py run --steps dynamo --rerun [--only NAMES] [--family F]   # redo steps in place
    python bench/zoo/zoo.py lint [--results DIR] [--refresh]      # fxlint over the libraries (cached)
    python bench/zoo/zoo.py report [--results DIR] [--out docs/agreement.md]

Each model runs in a forked child of this process (the libraries are imported once, here),
with an alarm per step and a hard limit per model; results are appended, one JSON line per
model, to DIR/results.jsonl, and a run skips the models already there (resume). With --rerun,
a run redoes only the --steps given for models already there (at the input size they were run
at) and appends each record with just those steps replaced.
"""

import argparse
import copy
import dataclasses
import datetime
import json
import os
import signal
import sys
import time
import traceback

# One thread per model process, set before torch is imported: the harness forks its
# children, and a forked OpenMP pool would hang them; the machine is shared anyway.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

DEFAULT_RESULTS = os.path.join(HERE, "results")


def safe_name(name):
    return name.replace("/", "__")


def load_results(path):
    recs = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    rec = json.loads(line)
                    recs[rec["name"]] = rec  # a later line for the same model wins
    return recs


def _preimport():
    """Everything the steps import, imported once before forking."""
    import onnx  # noqa: F401
    import onnxruntime  # noqa: F401
    import onnxscript  # noqa: F401
    import timm  # noqa: F401
    import torch
    import torch._dynamo  # noqa: F401
    import torch.export  # noqa: F401
    import torch.onnx  # noqa: F401
    import torchvision  # noqa: F401
    import transformers  # noqa: F401
    from fxlint_capture.explain import explain  # noqa: F401

    torch.set_num_threads(1)


def _final_record(spec, partial_path, lines_path, status, wall, static_idx, rel_results):
    import static

    rec = {"name": spec.name, "family": spec.family, "steps": {}}
    if os.path.exists(partial_path):
        with open(partial_path) as f:
            rec = json.load(f)
        os.remove(partial_path)
    killed_in = rec.pop("current_step", None)
    rec.pop("current_step_started", None)
    rec.pop("pid", None)
    if status == "timeout" and killed_in:
        rec["steps"][killed_in] = {"ok": False, "error": f"killed: model time limit reached during {killed_in}",
                                   "timeout": True}
    elif status == "crashed" and killed_in:
        rec["steps"][killed_in] = {"ok": False, "error": "the model's process died during this step", "crashed": True}
    if not rec["steps"].get("build", {}).get("ok"):
        status = "build_failed" if status == "ok" else status
    rec["status"] = status
    rec["wall_s"] = wall
    rec["date"] = datetime.datetime.now().isoformat(timespec="seconds")
    if os.path.exists(lines_path):
        rec["lines_file"] = os.path.relpath(lines_path, rel_results)
        with open(lines_path) as f:
            lines = json.load(f)
        spans = static.load_spans(lines_path)
        rec["static"] = {t: static.on_executed_lines(idx, lines, spans) for t, idx in static_idx.items()}
    return rec


def cmd_run(a):
    import models
    import static
    import worker

    specs = models.select(models.all_specs(), a.only, a.family)
    if not specs:
        sys.exit("no model matches")
    results_dir = os.path.abspath(a.results)
    for sub in ("", "lines", "partial", "logs"):
        os.makedirs(os.path.join(results_dir, sub), exist_ok=True)
    results_path = os.path.join(results_dir, "results.jsonl")
    if a.fresh and os.path.exists(results_path):
        os.remove(results_path)
    done = load_results(results_path)
    retry = set(a.retry.split(",")) if a.retry else set()
    rerun_steps = None
    if a.rerun:
        if not a.steps:
            sys.exit("--rerun needs --steps (the steps to redo)")
        rerun_steps = a.steps.split(",")
        # only models with a record whose build passed; each at the input size it ran at
        todo = [dataclasses.replace(s, sizes=(done[s.name]["size"],)) if "size" in done[s.name] else s
                for s in specs if s.name in done and done[s.name].get("steps", {}).get("build", {}).get("ok")]
        print(f"{len(specs)} models selected, {len(todo)} with a record to rerun {','.join(rerun_steps)} in",
              flush=True)
    else:
        todo = [s for s in specs if s.name not in done or done[s.name].get("status") in retry]
        print(f"{len(specs)} models selected, {len(specs) - len(todo)} already in {results_path}, {len(todo)} to run",
              flush=True)
    if not todo:
        return
    _preimport()
    roots = worker.library_roots()
    static_idx = {}
    joins = rerun_steps is None or "eager" in rerun_steps  # a rerun without eager keeps the records' joins
    if a.lint == "libraries" and joins:
        lint = static.lint(results_dir, roots, log=lambda m: print(m, flush=True))
        static_idx = {t: static.index(v["findings"]) for t, v in lint.items()}
    opts = {"step_timeout": a.step_timeout, "onnx_max_params": a.onnx_max_params,
            "strict_export": a.strict_export, "onnx_optimize": a.onnx_optimize,
            "steps": a.steps.split(",") if a.steps else None, "ort": not a.no_ort,
            "static_index": static_idx}

    running = {}  # pid -> (spec, start, partial, lines)
    queue = list(todo)
    n_done = 0
    t_run = time.time()
    with open(results_path, "a") as out:
        while queue or running:
            while queue and len(running) < a.jobs:
                spec = queue.pop(0)
                partial = os.path.join(results_dir, "partial", safe_name(spec.name) + ".json")
                lines = os.path.join(results_dir, "lines", safe_name(spec.name) + ".json")
                if rerun_steps is not None and "eager" not in rerun_steps:
                    # the record keeps its executed lines: the child's (unwritten) lines go to a scratch path
                    lines = os.path.join(results_dir, "partial", safe_name(spec.name) + ".lines.json")
                for p in (partial, lines):
                    if os.path.exists(p):
                        os.remove(p)
                if rerun_steps is not None:
                    # the record's findings on the lines it ran: what export_probe looks for
                    opts["probe_lines"] = sorted({(f[0], f[1]) for f in done[spec.name].get("static", {}).get("export", [])
                                                  if f[4] == "error"})
                log = os.path.join(results_dir, "logs", safe_name(spec.name) + ".log")
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:  # the child
                    code = 0
                    try:
                        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                        os.dup2(fd, 1)
                        os.dup2(fd, 2)
                        worker.run_model(spec, opts, partial, lines)
                    except BaseException:  # noqa: BLE001
                        traceback.print_exc()
                        code = 1
                    finally:
                        sys.stdout.flush()
                        sys.stderr.flush()
                        os._exit(code)
                running[pid] = (spec, time.time(), partial, lines)
            time.sleep(0.2)
            for pid in list(running):
                spec, start, partial, lines = running[pid]
                finished, status = False, None
                try:
                    wpid, wstatus = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    wpid, wstatus = pid, 1 << 8
                if wpid == pid:
                    finished = True
                    status = "ok" if os.WIFEXITED(wstatus) and os.WEXITSTATUS(wstatus) == 0 else "crashed"
                elif time.time() - start > a.timeout:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    finished, status = True, "timeout"
                if finished:
                    del running[pid]
                    rec = _final_record(spec, partial, lines, status, time.time() - start, static_idx, results_dir)
                    if rerun_steps is not None:
                        rec = _merge_rerun(done[spec.name], rec, rerun_steps, lines)
                    out.write(json.dumps(rec, default=str) + "\n")
                    out.flush()
                    n_done += 1
                    what = _summary(rec) if rerun_steps is None else _rerun_summary(rec)
                    print(f"[{n_done}/{len(todo)} {time.time() - t_run:6.0f}s] {spec.name}: {what}", flush=True)
    if a.lint == "executed" and joins:
        # fxlint over the files the models executed, once per target, then joined into every record
        recs = list(load_results(results_path).values())
        files = static.executed_files(results_dir, recs)
        lint = static.lint(results_dir, roots, files=files, log=lambda m: print(m, flush=True))
        static.refresh_joins(results_dir, results_path, recs, lint)


def _merge_rerun(old, new, steps, lines_path):
    """The old record with the rerun's steps in place of its own (a step the rerun did not reach,
    its build having failed, keeps the old one); the rerun is noted in the record's ``reruns``."""
    rec = copy.deepcopy(old)
    replaced = [s for s in steps if s in new.get("steps", {})]
    for s in replaced:
        rec["steps"][s] = new["steps"][s]
    if "eager" in replaced and "lines_file" in new:
        rec["lines_file"], rec["static"] = new["lines_file"], new.get("static", {})
    elif os.path.basename(lines_path).endswith(".lines.json") and os.path.exists(lines_path):
        os.remove(lines_path)
    rec.setdefault("reruns", []).append({
        "steps": replaced, "date": new["date"], "status": new["status"], "wall_s": new["wall_s"],
        "torch": new.get("torch"), "capture_module": new.get("capture_module"),
        **({"build_error": new["steps"]["build"].get("error")} if not replaced and new.get("steps", {}).get("build")
           else {})})
    return rec


def _rerun_summary(rec):
    rr = rec["reruns"][-1]
    parts = []
    for step in rr["steps"]:
        v = rec["steps"][step]
        state = "timed out" if v.get("timeout") else ("ok" if v.get("ok") else "skipped" if v.get("ok") is None
                                                      else "failed")
        if step == "dynamo" and v.get("ok"):
            state = f"{v['graph_count']} graphs, {len(v.get('loop_breaks', []))} breaks in loops"
        parts.append(f"{step} {state}")
    return f"rerun {', '.join(parts) or 'nothing: ' + rr['status']} ({rr['wall_s']:.0f}s)"


def _summary(rec):
    st = rec.get("steps", {})
    if rec["status"] != "ok":
        bad = [k for k, v in st.items() if v.get("timeout") or v.get("crashed")]
        if rec["status"] == "build_failed":
            return "build failed: " + (st.get("build", {}).get("error") or "").splitlines()[-1][:160] \
                if st.get("build", {}).get("error") else "build failed"
        return f"{rec['status']} in {','.join(bad) or '?'} ({rec['wall_s']:.0f}s)"

    def g(step, key):
        v = st.get(step)
        if not v:
            return "-"
        if v.get("timeout"):
            return "T/O"
        if v.get("ok") is None:
            return "skip"
        if not v.get("ok"):
            return "FAIL"
        return str(v.get(key, "ok"))

    return (f"capture {g('capture', 'graph_count')} graphs, dynamo {g('dynamo', 'graph_count')} graphs, "
            f"export {g('export_nonstrict', 'ok')}/{g('export_strict', 'ok')}, onnx {g('onnx', 'ok')} "
            f"({rec['wall_s']:.0f}s)")


def cmd_list(a):
    import models

    for s in models.select(models.all_specs(), a.only, a.family):
        print(f"{s.name:50s} {s.family:32s} sizes={list(s.sizes)}")


def cmd_lint(a):
    import static
    import worker

    roots = worker.library_roots()
    results_dir = os.path.abspath(a.results)
    results_path = os.path.join(results_dir, "results.jsonl")
    recs = list(load_results(results_path).values())
    files = static.executed_files(results_dir, recs) if a.lint == "executed" else None
    lint = static.lint(results_dir, roots, refresh=a.refresh, files=files)
    for t, v in lint.items():
        print(f"{t}: {len(v['findings'])} findings ({v['time_s']:.1f}s)")
    if recs:  # the joins of the records already there
        n = static.refresh_joins(results_dir, results_path, recs, lint)
        print(f"refreshed the static findings of {n} records")


def cmd_report(a):
    import report

    text = report.render(os.path.abspath(a.results))
    with open(a.out, "w") as f:
        f.write(text)
    print(f"wrote {a.out}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("list", "run", "lint", "report"):
        s = sub.add_parser(name)
        s.add_argument("--results", default=DEFAULT_RESULTS)
        if name in ("list", "run"):
            s.add_argument("--only", help="comma-separated model names (tv/resnet18, or resnet18 for every library's)")
            s.add_argument("--family", help="comma-separated family prefixes: torchvision, torchvision.detection, "
                                            "timm, transformers, transformers.decoder, ...")
        if name == "run":
            s.add_argument("--jobs", type=int, default=1, help="models run side by side (one thread each)")
            s.add_argument("--timeout", type=float, default=480, help="hard limit per model, seconds")
            s.add_argument("--step-timeout", type=float, default=150, help="limit per step, seconds")
            s.add_argument("--fresh", action="store_true", help="start a new results file instead of resuming")
            s.add_argument("--retry", help="also rerun models whose status is one of these (timeout,crashed,...)")
            s.add_argument("--steps", help="comma-separated subset of: " + ",".join(
                ("eager", "capture", "dynamo", "dynamo_traced", "export_nonstrict", "export_strict", "export_draft",
                 "export_probe", "onnx")))
            s.add_argument("--rerun", action="store_true",
                           help="redo --steps for the selected models already in the results (at their recorded "
                                "input size) and replace just those steps in their records")
            s.add_argument("--onnx-max-params", type=int, default=100_000_000,
                           help="skip the ONNX export above this many parameters (0: never skip)")
            s.add_argument("--no-ort", action="store_true", help="do not run the ONNX model with ONNX Runtime")
            s.add_argument("--onnx-optimize", action="store_true",
                           help="torch.onnx.export(optimize=True) (the exporter's default; slow on big models)")
            s.add_argument("--strict-export", choices=("always", "auto"), default="always",
                           help="auto: skip strict export where Dynamo took one graph and non-strict export passed")
        if name in ("run", "lint"):
            s.add_argument("--lint", choices=("libraries", "executed"), default="libraries",
                           help="fxlint over every file of the libraries (default), or only over the files "
                                "the models executed (faster; module-level facts then come from those files only)")
        if name == "lint":
            s.add_argument("--refresh", action="store_true")
        if name == "report":
            s.add_argument("--out", default=os.path.join(REPO, "docs", "agreement.md"))
    a = p.parse_args(argv)
    {"list": cmd_list, "run": cmd_run, "lint": cmd_lint, "report": cmd_report}[a.cmd](a)


if __name__ == "__main__":
    main()
