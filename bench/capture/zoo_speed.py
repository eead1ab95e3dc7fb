"""Capture time against eager on the zoo's image models at their real input sizes.

    PYTHONPATH=build/python .venv/bin/python bench/capture/zoo_speed.py [--family torchvision.classification,timm]
                                                                        [--only NAMES] [--out FILE.jsonl]

The zoo (bench/zoo) times the capture at the smallest input each model takes,
where a fixed cost per interpreted instruction and per recorded node is a large
share of a forward that runs in a few milliseconds. This bench builds the same
models at the size their users feed them: timm models at their own configured
input size (`pretrained_cfg["input_size"]`), torchvision classifiers at 224x224
(or the largest size of the zoo's ladder that they take), random weights,
`eval()`, one torch thread, under `torch.no_grad()`.

Each model runs in a process of its own. Eager and the capture (without its
replay, as the zoo times it) run warm and interleaved, three times each; the
figure per model is the best of each, and the overhead per graph operation is
(capture - eager) / operations. The summary gives the median ratio and how
many models stay within 1.2 times eager.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "zoo"))

import models  # noqa: E402 - the zoo's model list

SIZES = {"timm": ("default",), "torchvision.classification": (224,)}


def sizes_for(spec):
    for family, sizes in SIZES.items():
        if spec.family == family or spec.family.startswith(family + "."):
            # then the zoo's own ladder, largest first, for models that do not take the real size
            return sizes + tuple(sorted((s for s in spec.sizes if isinstance(s, int)), reverse=True))
    return tuple(spec.sizes)


def run_one(name):
    import torch

    from fxlint_capture.explain import explain

    torch.set_num_threads(1)
    spec = next(s for s in models.all_specs() if s.name == name)
    errors = []
    for size in sizes_for(spec):
        try:
            torch.manual_seed(0)
            model, args, kwargs = spec.build(size)
            model.eval()
            with torch.no_grad():
                model(*args, **kwargs)
            break
        except Exception as e:  # noqa: BLE001 - the next size of the ladder
            errors.append(f"{size}: {type(e).__name__}")
            model = None
    if model is None:
        return {"name": name, "ok": False, "error": "; ".join(errors)}
    shape = [list(a.shape) for a in args if isinstance(a, torch.Tensor)]
    with torch.no_grad():
        first = explain(model, mode="dynamo", replay=False)(*args, **kwargs)  # decodes every code object
        eager, capture = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            model(*args, **kwargs)
            eager.append(time.perf_counter() - t0)
            capture.append(explain(model, mode="dynamo", replay=False)(*args, **kwargs).compile_time_s)
    ops = first.to_json()["op_count"]
    e, c = min(eager), min(capture)
    return {"name": name, "ok": True, "input": shape, "eager_s": e, "capture_s": c, "ratio": c / e,
            "ops": ops, "overhead_us_per_op": (c - e) * 1e6 / max(ops, 1)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--family", default="torchvision.classification,timm")
    p.add_argument("--only")
    p.add_argument("--out", default=os.path.join(HERE, "zoo_speed.jsonl"))
    p.add_argument("--timeout", type=float, default=300, help="per model, seconds")
    p.add_argument("--one", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(run_one(a.one)))
        return 0
    specs = models.select(models.all_specs(), only=a.only, family=a.family)
    rows = []
    with open(a.out, "w") as out:
        for spec in specs:
            try:
                done = subprocess.run([sys.executable, __file__, "--one", spec.name], capture_output=True,
                                      text=True, timeout=a.timeout)
                lines = done.stdout.strip().splitlines()
                row = json.loads(lines[-1]) if done.returncode == 0 and lines else \
                    {"name": spec.name, "ok": False, "error": (done.stderr.strip().splitlines() or ["?"])[-1][:200]}
            except subprocess.TimeoutExpired:
                row = {"name": spec.name, "ok": False, "error": f"timeout after {a.timeout}s"}
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            if row["ok"]:
                print(f"{row['name']:40} {str(row['input']):22} eager {row['eager_s']:8.4f} s  "
                      f"capture {row['capture_s']:8.4f} s  x{row['ratio']:.2f}  "
                      f"{row['overhead_us_per_op']:6.1f} us/op", flush=True)
            else:
                print(f"{row['name']:40} failed: {row['error']}", flush=True)
    summarize(rows)
    return 0


def summarize(rows):
    ok = [r for r in rows if r["ok"]]
    if not ok:
        return
    ratios = [r["ratio"] for r in ok]
    within = sum(1 for x in ratios if x <= 1.2)
    print(f"\n{len(ok)} models ({len(rows) - len(ok)} failed): capture / eager median {statistics.median(ratios):.2f}, "
          f"within 1.2x on {within} ({100 * within / len(ok):.1f}%); overhead per graph operation median "
          f"{statistics.median(r['overhead_us_per_op'] for r in ok):.1f} us; eager median "
          f"{statistics.median(r['eager_s'] for r in ok):.4f} s")
    by = {}
    for r in ok:
        by.setdefault(r["name"].split("/")[0], []).append(r["ratio"])
    for lib, xs in sorted(by.items()):
        print(f"  {lib}: {len(xs)} models, median {statistics.median(xs):.2f}, "
              f"within 1.2x on {sum(1 for x in xs if x <= 1.2)}")


if __name__ == "__main__":
    sys.exit(main())
