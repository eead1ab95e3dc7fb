"""Capture time of fxlint_capture against torch.fx.symbolic_trace and torch.jit.trace.

    PYTHONPATH=build/python .venv/bin/python bench/capture/bench_capture.py [--repeat N] [--json]

Each figure is the median CPU time (one thread; steadier than wall time on a
shared machine) of N runs on the same model and input. The capture runs the
model once for real (it is concolic), so eager time is listed too; the
interpreter's own overhead is the median of (capture - eager) over interleaved
pairs of runs.
"""

import argparse
import json
import statistics
import time

import torch
import torchvision

import fxlint_capture


class Encoder(torch.nn.Module):
    """Two encoder layers behind a user module: symbolic_trace keeps them as leaves."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(
            [torch.nn.TransformerEncoderLayer(256, 8, dim_feedforward=512) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def models():
    return {
        "resnet18": (torchvision.models.resnet18(), torch.randn(1, 3, 64, 64), None),
        "resnet50": (torchvision.models.resnet50(), torch.randn(1, 3, 64, 64), None),
        # symbolic_trace rejects this one: its forward branches on tensor properties.
        "transformer_encoder_layer": (torch.nn.TransformerEncoderLayer(256, 8, dim_feedforward=512),
                                      torch.randn(16, 4, 256), {"src_mask": None, "src_key_padding_mask": None}),
        "encoder_2_layers": (Encoder(), torch.randn(16, 4, 256), None),
    }


def median_time(fn, repeat):
    """Median seconds of `repeat` runs, or None when the tracer rejects the model."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        try:
            fn()
        except torch.fx.proxy.TraceError:
            return None
        times.append(time.process_time() - start)
    return statistics.median(times)


def paired_overhead(capture, eager, repeat):
    """Median of (capture - eager) over interleaved pairs: steadier than a difference of medians
    when the machine is busy."""
    diffs = []
    for _ in range(repeat):
        start = time.process_time()
        capture()
        mid = time.process_time()
        eager()
        diffs.append((mid - start) - (time.process_time() - mid))
    return statistics.median(diffs)


def ratio(a, b):
    return None if a is None or b is None else a / b


def fmt(value, width, digits=4):
    return f"{'n/a':>{width}}" if value is None else f"{value:{width}.{digits}f}"


def bench(repeat):
    rows = []
    for name, (model, x, concrete) in models().items():
        model.eval()

        def capture():
            fxlint_capture.explain(model)(x)

        def run_eager():
            with torch.no_grad():
                model(x)

        capture()  # warm-up: imports and decode caches
        eager = median_time(run_eager, repeat)
        row = {
            "model": name,
            "eager_s": eager,
            "capture_s": median_time(capture, repeat),
            "symbolic_trace_s": median_time(lambda: torch.fx.symbolic_trace(model, concrete_args=concrete),
                                            repeat),
            "jit_trace_s": median_time(lambda: torch.jit.trace(model, (x,), check_trace=False), repeat),
        }
        row["capture_overhead_s"] = paired_overhead(capture, run_eager, repeat)
        row["capture_vs_symbolic_trace"] = ratio(row["capture_s"], row["symbolic_trace_s"])
        row["capture_vs_jit_trace"] = ratio(row["capture_s"], row["jit_trace_s"])
        row["overhead_vs_symbolic_trace"] = ratio(row["capture_overhead_s"], row["symbolic_trace_s"])
        rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)  # steadier figures on a small machine
    rows = bench(args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'model':28} {'eager':>8} {'capture':>8} {'overhead':>9} {'fx.trace':>9} {'jit.trace':>9} "
          f"{'cap/fx':>7} {'cap/jit':>7} {'ovh/fx':>7}")
    for r in rows:
        print(f"{r['model']:28} {fmt(r['eager_s'], 8)} {fmt(r['capture_s'], 8)} {fmt(r['capture_overhead_s'], 9)} "
              f"{fmt(r['symbolic_trace_s'], 9)} {fmt(r['jit_trace_s'], 9)} {fmt(r['capture_vs_symbolic_trace'], 7, 2)} "
              f"{fmt(r['capture_vs_jit_trace'], 7, 2)} {fmt(r['overhead_vs_symbolic_trace'], 7, 2)}")


if __name__ == "__main__":
    main()
