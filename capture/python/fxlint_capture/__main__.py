"""python3 -m fxlint_capture FILE.py:QUALNAME [INPUT ...] [--mode M] [--json] [--onnx OUT.onnx]

Exit status: 0 captured (strict: in one graph with nothing to report; with
--onnx: exported and valid), 1 strict failure or invalid ONNX, 2 usage, target
or input error, 3 the target raised an exception.
"""

import argparse
import contextlib
import json
import sys
import traceback

import torch

from .explain import MODES, explain
from .inputs import SpecError, parse_specs, resolve_target


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m fxlint_capture",
                                description="Capture a PyTorch function or module into torch.fx graphs and "
                                            "report its graph breaks.")
    p.add_argument("target", help="path/to/file.py:qualified.name (a function, a method or an nn.Module class)")
    p.add_argument("inputs", nargs="*",
                   help="input specs: float32[2,3], int64[4], bool[8], int:3, float:0.5, none, module:make_inputs")
    p.add_argument("--mode", choices=MODES, default="dynamo", help="dynamo (report breaks) or strict (fullgraph)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--onnx", metavar="PATH", help="export the single graph to PATH and validate it")
    p.add_argument("--opset", type=int, default=18, help="ONNX opset (default 18)")
    p.add_argument("--seed", type=int, default=0, help="seed for random inputs and weights (default 0)")
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
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
