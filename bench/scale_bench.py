#!/usr/bin/env python3
"""Time `fxlint check` on one generated file of growing size, dense with findings.

`--shape lines`: every line of a compiled function holds two findings (FX101,
FX303). `--shape counters`: every compiled function updates the same global
counter (FX203), whose fix needs to know every use of the name in the module.
Either way the file's number of diagnostics grows with its size: the time per
MB must stay flat. Usage: bench/scale_bench.py [--fxlint PATH] [--sizes 0.5,1,2,4,8]
"""
import argparse
import os
import pathlib
import resource
import subprocess
import tempfile
import time

SHAPES = {
    # header, repeated part, footer, findings per part
    "lines": ("import torch\n\n@torch.compile\ndef f(x: torch.Tensor):\n",
              "    v{i} = x.item() + len(x.nonzero())\n", "    return x\n", 2),
    "counters": ("import torch\n\nCALLS = 0\n",
                 "\n@torch.compile\ndef f{i}(x):\n    global CALLS\n    CALLS += 1\n    return x\n", "", 1),
}


def write_file(path, megabytes, shape):
    head, part, tail, per_part = SHAPES[shape]
    target = int(megabytes * 1_000_000)
    parts, size, i = [head], len(head), 0
    while size < target:
        line = part.format(i=i)
        parts.append(line)
        size += len(line)
        i += 1
    parts.append(tail)
    path.write_text("".join(parts))
    return i * per_part


def main():
    here = pathlib.Path(__file__).resolve().parent
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--fxlint", default=str(here.parent / "build" / "fxlint"))
    p.add_argument("--sizes", default="0.5,1,2,4,8", help="file sizes in MB")
    p.add_argument("--repeat", type=int, default=3, help="runs per size (the best is kept)")
    p.add_argument("--shape", choices=sorted(SHAPES), default="lines", help="what the file is dense with")
    args = p.parse_args()
    print("| file | findings | `check` wall time (best of %d) | per MB | peak RSS |" % args.repeat)
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for mb in [float(s) for s in args.sizes.split(",")]:
            path = pathlib.Path(tmp) / f"dense_{mb}.py"
            expected = write_file(path, mb, args.shape)
            best = None
            for _ in range(args.repeat):
                before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                start = time.perf_counter()
                run = subprocess.run([args.fxlint, "check", "--output-format", "concise", "--jobs", "1", str(path)],
                                     capture_output=True, text=True)
                elapsed = time.perf_counter() - start
                rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                found = run.stdout.count(": FX")
                if run.returncode != 1 or found != expected:
                    raise SystemExit(f"{path.name}: exit {run.returncode}, {found} findings, expected {expected}\n"
                                     + run.stderr[-2000:])
                best = elapsed if best is None else min(best, elapsed)
            print(f"| {mb:g} MB | {expected:,} | {best:.2f} s | {best / mb:.2f} s | {max(rss, before) / 1024:.0f} MB |",
                  flush=True)
            os.unlink(path)


if __name__ == "__main__":
    main()
