"""Capture time of fxlint_capture against torch.fx.symbolic_trace and torch.jit.trace.

    PYTHONPATH=build/python .venv/bin/python bench/capture/bench_capture.py [--repeat N] [--json]
                                                                            [--loops 1000,2000,4000,10000]

Each figure is the median CPU time (one thread; steadier than wall time on a
shared machine) of N runs on the same model and input. The capture runs the
model once for real (it is concolic), so eager time is listed too; the
interpreter's own overhead is the median of (capture - eager) over interleaved
pairs of runs. The model rows time the capture without its replay of the
graphs (replay=False), which runs the model a second time.

The loop rows time Python loops of n iterations (wall time, one run each):
one that stays in one graph of 2n nodes, and one that breaks at `.item()` in
every iteration (n graphs); capture time must grow linearly with n.
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


def models(image_sizes):
    images = {f"{name} ({size}x{size})": (build(), torch.randn(1, 3, size, size), None)
              for size in image_sizes
              for name, build in (("resnet18", torchvision.models.resnet18), ("resnet50", torchvision.models.resnet50))}
    return {
        **images,
        # symbolic_trace rejects this one: its forward branches on tensor properties.
        "transformer_encoder_layer": (torch.nn.TransformerEncoderLayer(256, 8, dim_feedforward=512),
                                      torch.randn(16, 4, 256), {"src_mask": None, "src_key_padding_mask": None}),
        "encoder_2_layers": (Encoder(), torch.randn(16, 4, 256), None),
    }


class LoopNet(torch.nn.Module):
    """A numbered sub-module called in a long Python loop: one graph of 2n nodes."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 8)

    def forward(self, x, n: int):
        for i in range(n):
            x = self.fc1(x) * 0.5
        return x


def item_loop(x, n: int):
    """A break in the loop body: as TorchDynamo, the capture runs the frame eagerly
    (no graph), interpreting every iteration."""
    total = 0.0
    for i in range(n):
        total += (x * i).sum().item()
    return total


def bench_loops(sizes):
    rows = []
    net = LoopNet().eval()
    x = torch.randn(2, 8)
    for kind, fn in (("loop_one_graph", net), ("loop_break_each_iteration", item_loop)):
        fxlint_capture.explain(fn, replay=False)(x, 10)  # warm-up
        for n in sizes:
            start = time.perf_counter()
            with torch.no_grad():
                fn(x, n)
            eager = time.perf_counter() - start
            start = time.perf_counter()
            report = fxlint_capture.explain(fn, replay=False)(x, n)
            capture = time.perf_counter() - start
            start = time.perf_counter()
            fxlint_capture.explain(fn)(x, n)
            with_replay = time.perf_counter() - start
            rows.append({"loop": kind, "n": n, "graphs": report.graph_count, "eager_s": eager,
                         "capture_s": capture, "capture_with_replay_s": with_replay,
                         "capture_us_per_iteration": capture / n * 1e6})
    return rows


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


def bench(repeat, image_sizes):
    rows = []
    for name, (model, x, concrete) in models(image_sizes).items():
        model.eval()

        def capture():  # under no_grad, as the eager run it is compared with
            with torch.no_grad():
                fxlint_capture.explain(model, replay=False)(x)

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
        row["capture_vs_eager"] = ratio(row["capture_s"], eager)
        row["capture_vs_symbolic_trace"] = ratio(row["capture_s"], row["symbolic_trace_s"])
        row["capture_vs_jit_trace"] = ratio(row["capture_s"], row["jit_trace_s"])
        row["overhead_vs_symbolic_trace"] = ratio(row["capture_overhead_s"], row["symbolic_trace_s"])
        rows.append(row)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--loops", default="1000,2000,4000,10000",
                        help="iteration counts of the loop rows (comma-separated; empty: none)")
    parser.add_argument("--loops-only", action="store_true", help="run the loop rows only")
    parser.add_argument("--image-sizes", default="64,224",
                        help="input sizes of the ResNet rows (comma-separated; 1x3xNxN)")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)  # steadier figures on a small machine
    sizes = [int(n) for n in args.loops.split(",") if n.strip()]
    rows = [] if args.loops_only else bench(args.repeat, [int(n) for n in args.image_sizes.split(",") if n.strip()])
    loops = bench_loops(sizes)
    if args.json:
        print(json.dumps({"models": rows, "loops": loops}, indent=2))
        return
    if loops:
        print(f"{'loop':28} {'n':>6} {'graphs':>6} {'eager':>8} {'capture':>8} {'+replay':>8} {'us/iter':>8}")
        for r in loops:
            print(f"{r['loop']:28} {r['n']:6d} {r['graphs']:6d} {fmt(r['eager_s'], 8, 3)} {fmt(r['capture_s'], 8, 3)} "
                  f"{fmt(r['capture_with_replay_s'], 8, 3)} {fmt(r['capture_us_per_iteration'], 8, 1)}")
    if not rows:
        return
    print(f"{'model':28} {'eager':>8} {'capture':>8} {'cap/eager':>9} {'overhead':>9} {'fx.trace':>9} {'jit.trace':>9} "
          f"{'cap/fx':>7} {'cap/jit':>7} {'ovh/fx':>7}")
    for r in rows:
        print(f"{r['model']:28} {fmt(r['eager_s'], 8)} {fmt(r['capture_s'], 8)} {fmt(r['capture_vs_eager'], 9, 2)} "
              f"{fmt(r['capture_overhead_s'], 9)} "
              f"{fmt(r['symbolic_trace_s'], 9)} {fmt(r['jit_trace_s'], 9)} {fmt(r['capture_vs_symbolic_trace'], 7, 2)} "
              f"{fmt(r['capture_vs_jit_trace'], 7, 2)} {fmt(r['overhead_vs_symbolic_trace'], 7, 2)}")


if __name__ == "__main__":
    main()
