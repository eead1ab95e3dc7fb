"""python3 -m fxlint_capture FILE.py:QUALNAME [INPUT ...] [--mode M] [--json] [--onnx OUT.onnx]
python3 -m fxlint_capture FILE.py:QUALNAME [INPUT ...] --backend {dynamo,export,onnx} [--json]
python3 -m fxlint_capture --backend {dynamo,export,onnx} --batch JOBS --json
python3 -m fxlint_capture --eager-output FILE.py:QUALNAME [INPUT ...] {--save PATH | --against PATH}

Exit status: 0 captured (strict: in one graph with nothing to report; with
--onnx: exported and valid; other backends: passed), 1 strict failure, invalid
ONNX or a backend's break or failure, 2 usage, target or input error, 3 the
target raised an exception. With --batch: 0 when the jobs ran (each job's own
status is in the JSON), 2 usage error. --eager-output runs the target eagerly and
saves or compares its outputs (see eager_output.py).
"""

import argparse
import contextlib
import json
import os
import sys
import traceback

import torch

from .backends import BACKENDS
from .explain import MODES, explain
from .inputs import SpecError, parse_specs, resolve_target


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m fxlint_capture",
                                description="Capture a PyTorch function or module into torch.fx graphs and "
                                            "report its graph breaks.")
    p.add_argument("target", nargs="?",
                   help="path/to/file.py:qualified.name (a function, a method or an nn.Module class)")
    p.add_argument("inputs", nargs="*",
                   help="input specs: float32[2,3], int64[4], bool[8], int:3, float:0.5, none, module:make_inputs")
    p.add_argument("--mode", choices=MODES, default="dynamo", help="dynamo (report breaks) or strict (fullgraph)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--onnx", metavar="PATH", help="export the single graph to PATH and validate it")
    p.add_argument("--opset", type=int, default=18, help="ONNX opset (default 18)")
    p.add_argument("--seed", type=int, default=0, help="seed for random inputs and weights (default 0)")
    p.add_argument("--backend", choices=BACKENDS, default="capture",
                   help="capture (the bundled bytecode capture; default), dynamo (torch._dynamo.explain), "
                        "export (torch.export strict and non-strict) or onnx (torch.onnx.export, dynamo=True, "
                        "checked with ONNX Runtime)")
    p.add_argument("--batch", metavar="JOBS",
                   help='with --backend other than capture: a JSON list of {"target", "inputs", "onnx", '
                        '"opset"} run in this one process; prints {"results": [{"exit", "report", "message"}]}')
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--eager-output"]:
        from .eager_output import main as eager_output

        return eager_output(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    if args.backend != "capture":
        return _run_backend(parser, args)
    if args.batch is not None or args.target is None:
        parser.error("the capture backend takes one TARGET (--batch is for the other backends)")
    torch.manual_seed(args.seed)
    # With --json, stdout carries the JSON alone: whatever the target prints goes to stderr.
    with contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext():
        outcome = _capture(args)
    if isinstance(outcome, int):
        return outcome
    data, report, status = outcome
    if args.json:
        json.dump(data, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    else:
        print(report)
        if args.onnx:
            _print_onnx(data["onnx"])
    return status


def _capture(args):
    """Loads, captures and exports; returns (data, report, status) or an exit status."""
    try:
        fn, base_dir = resolve_target(args.target)
        call_args, call_kwargs = parse_specs(args.inputs, base_dir)
    except SpecError as e:
        print(f"fxlint_capture: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # importing the user's file can fail in any way
        print(f"fxlint_capture: error: cannot load {args.target}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    try:
        report = explain(fn, mode=args.mode)(*call_args, **call_kwargs)
    except Exception:
        print(f"fxlint_capture: {args.target} raised an exception:", file=sys.stderr)
        traceback.print_exc()
        return 3
    data = report.to_json()
    data["target"] = args.target
    status = 0 if report.ok else 1
    if args.onnx:
        data["onnx"] = _export(report, args.onnx, args.opset)
        if not data["onnx"]["ok"]:
            status = 1
    return data, report, status


def _run_backend(parser, args):
    """A real compiler on one target, or on each job of --batch."""
    from .backends.jobs import read_batch, run_job
    from .backends.text_report import format_report
    from .inputs import SpecError

    if args.batch is not None and (args.target or args.inputs or args.onnx):
        parser.error("--batch takes the targets, inputs and ONNX paths from its JSON")
    if args.batch is None and args.target is None:
        parser.error("a TARGET (or --batch JOBS) is required")
    if args.batch is not None:
        try:
            jobs = read_batch(args.batch)
        except SpecError as e:
            print(f"fxlint_capture: error: {e}", file=sys.stderr)
            return 2
    else:
        jobs = [{"target": args.target, "inputs": args.inputs, "onnx": args.onnx, "opset": args.opset}]
    # The compilers and the targets print (graphs, progress, the user's own
    # output): with --json, stdout carries the JSON alone, down to the file descriptor.
    out = sys.stdout
    if args.json:
        sys.stdout.flush()
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
    with contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext():
        results = [run_job(args.backend, j["target"], [str(i) for i in j.get("inputs") or []], j.get("onnx"),
                           int(j.get("opset") or args.opset), args.seed) for j in jobs]
    if args.batch is not None:
        json.dump({"results": results}, out, indent=2, default=str)
        out.write("\n")
        out.flush()
        return 0
    (result,) = results
    if result["report"] is None:
        if result["exit"] == 2:  # exit 3: the traceback is on stderr already
            print(f"fxlint_capture: error: {result['message']}", file=sys.stderr)
        return result["exit"]
    if args.json:
        json.dump(result["report"], out, indent=2, default=str)
        out.write("\n")
        out.flush()
    else:
        print(format_report(result["report"]))
    return result["exit"]


def _export(report, path, opset):
    from .onnx_check import export_and_validate

    return export_and_validate(report, path, opset)


def _print_onnx(onnx_result):
    print("ONNX:")
    for key in ("path", "ok", "error", "checker", "shape_inference", "opset_imports", "op_types",
                "non_standard_ops", "max_abs_diff_graph_vs_eager", "onnxruntime", "max_abs_diff_onnx_vs_eager"):
        if key in onnx_result:
            print(f"  {key}: {onnx_result[key]}")


if __name__ == "__main__":
    sys.exit(main())
