"""Real-code semantic benchmark of `fxlint fix`.

    .venv/bin/python bench/fix_semantics/run.py [--fxlint build/fxlint] [--workdir DIR]
                                                [--packages torchvision,timm,transformers]
                                                [--report report.md] [--json results.json]

Not part of the test suite; run on demand. Steps:

1. Copy the installed torchvision, timm and transformers packages (from the Python running
   this script) into WORKDIR/fixed/, and run `fxlint check --scope all --output-format json`
   on each copy (the fixes on offer, with rule, applicability and title), then
   `fxlint fix --apply --unsafe-fixes --scope all PKG` (cwd WORKDIR/fixed).
2. Count what changed: files changed (byte comparison with the installed package), fixes per
   rule (fxlint's summary line), and each changed hunk attributed to the diagnostics whose
   fix edits fall in it.
3. `py_compile` every changed file; import each package and every changed module in a
   subprocess with PYTHONPATH=WORKDIR/fixed (checking `module.__file__` to be sure the copy
   was imported), and the same imports from the installed packages for comparison.
4. Run the cases of cases.py (models built with random weights from the same seed, run in
   eval mode and in train mode with a loss and backward; library functions the rewrites
   touched, called directly) once against the installed packages and once against the fixed
   copies, each in its own subprocess, and compare outputs, losses and gradients bit for bit
   (max abs difference reported otherwise). In the fixed run, the rewritten lines each case
   executes are recorded, so every result says which rewrites it exercised.

Models that fail to build or run with the installed packages are skipped with the reason.
Exit status: 0 when everything matches, 1 when anything differs or fails.
"""

import argparse
import difflib
import json
import os
import py_compile
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PACKAGES = ["torchvision", "timm", "transformers"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def site_dir(pkg):
    out = subprocess.run([sys.executable, "-c", f"import os, {pkg}; print(os.path.dirname({pkg}.__file__))"],
                         capture_output=True, text=True, check=True, cwd="/")
    return os.path.realpath(out.stdout.strip())


def py_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(d, f), root)


def run_fxlint(fxlint, args, cwd):
    """Runs fxlint, waiting for the binary when it is being rebuilt."""
    for _ in range(60):
        if os.path.exists(fxlint):
            break
        time.sleep(5)
    return subprocess.run([fxlint, *args], capture_output=True, text=True, cwd=cwd)


def parse_summary(stderr):
    """'Fixed 36 errors (FX301 ×2, FX302 ×9, FX501 ×25) in 21 files.' -> (36, {...}, 21)."""
    m = re.search(r"Fixed (\d+) errors?(?: \(([^)]*)\))? in (\d+) files?", stderr)
    if not m:
        return 0, {}, 0
    per_rule = {}
    for part in (m.group(2) or "").split(","):
        part = part.strip()
        if not part:
            continue
        code, _, n = part.partition(" ×")
        per_rule[code] = int(n) if n else 1
    return int(m.group(1)), per_rule, int(m.group(3))


def hunks(orig_lines, fixed_lines):
    """(orig_start, orig_end, fixed_start, fixed_end) of each change, 1-based, end exclusive."""
    sm = difflib.SequenceMatcher(a=orig_lines, b=fixed_lines, autojunk=False)
    return [(i1 + 1, i2 + 1, j1 + 1, j2 + 1) for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]


def fix_package(fxlint, pkg, src, fixed_root):
    dst = os.path.join(fixed_root, pkg)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    chk = run_fxlint(fxlint, ["check", "--scope", "all", "--exit-zero", "--output-format", "json", pkg], fixed_root)
    diags = json.loads(chk.stdout or "[]")
    offered = {}
    by_file = {}
    for d in diags:
        fix = d.get("fix")
        if not fix or fix.get("applicability") not in ("safe", "unsafe"):
            continue
        key = f"{d['code']} ({fix['applicability']})"
        offered[key] = offered.get(key, 0) + 1
        rel = os.path.relpath(os.path.realpath(d["filename"]), os.path.realpath(dst))
        rows = [d["location"]["row"]] + [e["location"]["row"] for e in fix["edits"]] + \
               [e["end_location"]["row"] for e in fix["edits"]]
        by_file.setdefault(rel, []).append({"code": d["code"], "applicability": fix["applicability"],
                                            "title": fix["message"], "rows": (min(rows), max(rows)),
                                            "row": d["location"]["row"]})
    t0 = time.time()
    fx = run_fxlint(fxlint, ["fix", "--apply", "--unsafe-fixes", "--scope", "all", pkg], fixed_root)
    fix_time = time.time() - t0
    total, per_rule, nfiles = parse_summary(fx.stderr)
    changed = {}
    for rel in sorted(py_files(src)):
        a_path, b_path = os.path.join(src, rel), os.path.join(dst, rel)
        with open(a_path, "rb") as f:
            a = f.read()
        if not os.path.exists(b_path):
            changed[rel] = {"hunks": [], "missing": True}
            continue
        with open(b_path, "rb") as f:
            b = f.read()
        if a == b:
            continue
        al = a.decode("utf-8", "replace").splitlines()
        bl = b.decode("utf-8", "replace").splitlines()
        hs = []
        for o1, o2, f1, f2 in hunks(al, bl):
            lo, hi = o1, max(o1, o2 - 1)
            rules = sorted({(x["code"], x["applicability"], x["title"]) for x in by_file.get(rel, [])
                            if x["rows"][0] <= hi and x["rows"][1] >= lo})
            if not rules and all(l.strip() in ("import torch", "") for l in bl[f1 - 1:f2 - 1]) and o1 == o2:
                rules = [("(import torch added)", "-", "Naming torch: `import torch` added for the rewrites")]
            hs.append({"orig": [o1, o2], "fixed": [f1, f2], "removed": al[o1 - 1:o2 - 1], "added": bl[f1 - 1:f2 - 1],
                       "rules": [list(r) for r in rules]})
        changed[rel] = {"hunks": hs}
    compile_failures = []
    cdir = tempfile.mkdtemp(prefix="pyc-")
    for rel in changed:
        for which, base in (("fixed", dst), ("original", src)):
            try:
                py_compile.compile(os.path.join(base, rel), cfile=os.path.join(cdir, "x.pyc"), doraise=True)
            except py_compile.PyCompileError as e:
                compile_failures.append({"file": f"{pkg}/{rel}", "which": which, "error": str(e.msg).strip()})
    shutil.rmtree(cdir, ignore_errors=True)
    return {
        "python_files": sum(1 for _ in py_files(src)),
        "fix_rc": fx.returncode, "fix_seconds": round(fix_time, 1),
        "fix_summary": fx.stderr.strip().splitlines()[:3],
        "fix_errors": [l for l in fx.stderr.splitlines() if "did not converge" in l or "left as it was" in l
                       or "not applied" in l or l.startswith("error")],
        "fixed_errors": total, "fixed_per_rule": per_rule, "summary_files": nfiles,
        "offered_fixes": offered,
        "files_changed": len(changed), "changed": changed,
        "compile_failures": compile_failures,
    }


IMPORT_SCRIPT = r"""
import importlib, json, os, sys, traceback, warnings
warnings.filterwarnings("ignore")
pkg, mods, root = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
res = {"modules": {}}
try:
    m = importlib.import_module(pkg)
    res["package"] = "ok"
    res["file"] = os.path.realpath(m.__file__)
except Exception as e:
    res["package"] = f"{type(e).__name__}: {e}"
for name in mods:
    try:
        m = importlib.import_module(name)
        f = os.path.realpath(getattr(m, "__file__", "") or "")
        res["modules"][name] = "ok" if (not root or f.startswith(root)) else f"imported from elsewhere: {f}"
    except BaseException as e:
        res["modules"][name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
print(json.dumps(res))
"""


def notorch_site(workdir):
    """A copy of site-packages (symlinks) without torch: imports as in an environment without torch."""
    import sysconfig
    sp = sysconfig.get_paths()["purelib"]
    d = os.path.join(workdir, "site-without-torch")
    if not os.path.isdir(d):
        os.makedirs(d)
        for e in os.listdir(sp):
            if not (e.startswith("torch") or e.startswith("functorch") or e.startswith("__pycache__")):
                os.symlink(os.path.join(sp, e), os.path.join(d, e))
    return d


def import_check(pkg, changed, fixed_root, no_torch_site=None):
    mods = []
    for rel in changed:
        parts = [pkg] + rel[:-3].split(os.sep)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods.append(".".join(parts))
    out = {}
    variants = [("original", ""), ("fixed", fixed_root)]
    if no_torch_site:  # python -S: site-packages only through PYTHONPATH, torch left out
        variants += [("original_no_torch", no_torch_site), ("fixed_no_torch", fixed_root + os.pathsep + no_torch_site)]
    for which, pp in variants:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if pp:
            env["PYTHONPATH"] = pp
        flags = ["-S"] if which.endswith("no_torch") else []
        p = subprocess.run([sys.executable, *flags, "-c", IMPORT_SCRIPT, pkg, json.dumps(mods),
                            fixed_root if which.startswith("fixed") else ""],
                           capture_output=True, text=True, env=env, cwd="/", timeout=900)
        try:
            out[which] = json.loads(p.stdout.strip().splitlines()[-1])
        except Exception:  # noqa: BLE001
            out[which] = {"package": f"import subprocess failed (rc {p.returncode}): {p.stderr[-2000:]}",
                          "modules": {}}
    fixed_file = out["fixed"].get("file", "")
    out["copy_imported"] = bool(fixed_file) and fixed_file.startswith(fixed_root)
    out["regressions"] = {m: r for m, r in out["fixed"]["modules"].items()
                          if r != "ok" and out["original"]["modules"].get(m) == "ok"}
    out["fail_in_both"] = {m: r for m, r in out["fixed"]["modules"].items()
                           if r != "ok" and out["original"]["modules"].get(m) != "ok"}
    if no_torch_site:
        o, f = out["original_no_torch"], out["fixed_no_torch"]
        out["no_torch_package"] = {"original": o.get("package"), "fixed": f.get("package")}
        out["no_torch_regressions"] = {m: r for m, r in f["modules"].items()
                                       if r != "ok" and o["modules"].get(m) == "ok"}
        if o.get("package") == "ok" and f.get("package") != "ok":
            out["no_torch_regressions"][pkg] = f.get("package")
    return out


def compare(a, b, path=""):
    """Returns (equal_bits, max_abs_diff, first_difference)."""
    import torch
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False, float("inf"), f"{path}: {tuple(a.shape)} {a.dtype} vs {tuple(b.shape)} {b.dtype}"
        if a.is_floating_point() or a.is_complex():
            same = (a == b) | (torch.isnan(a) & torch.isnan(b))
            same_bits = bool(same.all()) and torch.equal(torch.signbit(a.real), torch.signbit(b.real))
            if same_bits:
                return True, 0.0, None
            d = (a.double() - b.double()).abs()
            d = torch.where(same, torch.zeros_like(d), d)
            md = float(d.max()) if d.numel() else 0.0
            return False, md, f"{path}: max |diff| {md:.3g}"
        if torch.equal(a, b):
            return True, 0.0, None
        md = float((a.double() - b.double()).abs().max()) if a.numel() else 0.0
        return False, md, f"{path}: integer/bool values differ (max |diff| {md:g})"
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return False, float("inf"), f"{path}: keys differ: {sorted(set(a) ^ set(b))}"
        items = [(a[k], b[k], f"{path}.{k}") for k in a]
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return False, float("inf"), f"{path}: length {len(a)} vs {len(b)}"
        items = [(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b))]
    else:
        ok = type(a) is type(b) and (a == b or (a != a and b != b))
        return ok, (0.0 if ok else float("inf")), (None if ok else f"{path}: {a!r} vs {b!r}")
    eq, md, first = True, 0.0, None
    for x, y, p in items:
        e, m, f = compare(x, y, p)
        if not e:
            eq = False
            md = max(md, m)
            first = first or f
    return eq, md, first


def run_group(group, fixed_root, workdir, trace_files, timeout):
    res = {}
    for which in ("original", "fixed"):
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        env.pop("FXB_TRACE_FILES", None)
        if which == "fixed":
            env["PYTHONPATH"] = fixed_root
            env["FXB_TRACE_FILES"] = trace_files
        out = os.path.join(workdir, f"{group}-{which}.pt")
        t0 = time.time()
        p = subprocess.run([sys.executable, os.path.join(HERE, "cases.py"), group, out], env=env, cwd="/",
                           capture_output=True, text=True, timeout=timeout)
        log(f"  {group} ({which}): {time.time() - t0:.0f}s, rc {p.returncode}")
        if p.returncode != 0 or not os.path.exists(out):
            res[which] = {"crash": p.stderr[-3000:]}
            continue
        import torch
        res[which] = torch.load(out, weights_only=False)
    return res


def traceback_frames(tb, root):
    return [(f, int(n)) for f, n in re.findall(r'File "([^"]+)", line (\d+)', tb or "") if f.startswith(root)]


def evaluate(groups, results, fixed_root, changed_index):
    """Per case and phase: match / mismatch / fixed fails / skipped."""
    rows = []
    for group in groups:
        r = results[group]
        orig, fixed = r.get("original", {}), r.get("fixed", {})
        if "crash" in orig or "crash" in fixed:
            rows.append({"group": group, "case": "(worker)", "phases": {
                "eval": {"status": "worker crashed", "detail": (orig.get("crash") or fixed.get("crash"))[-1500:]}},
                "rewritten_lines": []})
            continue
        pkg_ok = fixed.get("__package_file__", "").startswith(fixed_root) and \
            not orig.get("__package_file__", "").startswith(fixed_root)
        for name, o in orig["cases"].items():
            f = fixed["cases"].get(name, {})
            phases = {}
            for ph, ov in o.items():
                fv = f.get(ph, {"error": "missing in the fixed run"})
                if "error" in ov:
                    phases[ph] = {"status": "skipped", "detail": "original fails: " + ov["error"].splitlines()[0][:300]}
                elif "error" in fv:
                    frames = traceback_frames(fv.get("traceback"), fixed_root)
                    phases[ph] = {"status": "FIXED FAILS", "detail": fv["error"].splitlines()[0][:400],
                                  "frames": [f"{os.path.relpath(a, fixed_root)}:{n}" for a, n in frames]}
                else:
                    eq, md, first = compare(ov, fv)
                    phases[ph] = {"status": "match" if eq else "MISMATCH", "max_abs_diff": md,
                                  "detail": first}
            lines = fixed.get("lines", {}).get(name, [])
            hit = set()
            for path, line in lines:
                rel = os.path.relpath(path, fixed_root)
                for h in changed_index.get(rel, []):
                    if h["fixed"][0] <= line < max(h["fixed"][1], h["fixed"][0] + 1):
                        rules = ",".join(sorted({x[0] for x in h["rules"]})) or "?"
                        if all(l.strip() in ("import torch", "") for l in h["added"]) and not h["removed"]:
                            rules = "import torch added for " + rules
                        hit.add(f"{rel}:{h['fixed'][0]} ({rules})")
            rows.append({"group": group, "case": name, "phases": phases, "rewritten_lines": sorted(hit),
                         "copy_imported": pkg_ok})
    return rows


def fmt_phase(p):
    if p is None:
        return "-"
    if p["status"] == "match":
        return "match (bit-exact)"
    if p["status"] == "MISMATCH":
        return f"**MISMATCH** (max abs diff {p['max_abs_diff']:.3g})"
    if p["status"] == "FIXED FAILS":
        return f"**FIXED FAILS**: {p['detail'][:120]}"
    return f"{p['status']}: {p.get('detail', '')[:120]}"


def short(msg):
    return "ok" if msg == "ok" else f"fails ({str(msg)[:60]})"


def report(summary, rows):
    out = ["## Packages", "",
           "| package | .py files | files changed | fixes applied (summary) | per rule | compile failures | "
           "`import` of the copy | changed modules: import regressions | without torch installed: "
           "`import` (original / fixed), regressions |",
           "|---|---|---|---|---|---|---|---|---|"]
    for pkg, s in summary.items():
        imp = s["imports"]
        pk = imp["fixed"].get("package")
        nmods = len(imp["fixed"]["modules"])
        out.append(f"| {pkg} | {s['python_files']} | {s['files_changed']} | {s['fixed_errors']} | "
                   + ", ".join(f"{k} ×{v}" for k, v in sorted(s["fixed_per_rule"].items()))
                   + f" | {len([c for c in s['compile_failures'] if c['which'] == 'fixed'])} | "
                   + f"{pk}{' (copy verified)' if imp['copy_imported'] else ' (NOT the copy)'} | "
                   + f"{len(imp['regressions'])} of {nmods} ({len(imp['fail_in_both'])} fail in the original too) | "
                   + f"{short(imp['no_torch_package']['original'])} / {short(imp['no_torch_package']['fixed'])}, "
                   + f"{len(imp['no_torch_regressions'])} |")
    out += ["", "Fixes on offer before fixing (`fxlint check --scope all`, first pass; applied with "
            "`--unsafe-fixes`):", ""]
    for pkg, s in summary.items():
        out.append(f"- {pkg}: " + ", ".join(f"{k} ×{v}" for k, v in sorted(s["offered_fixes"].items())))
    out += ["", "## Cases", "", "| library | case | eval | train | rewritten lines executed (fixed run) |",
            "|---|---|---|---|---|"]
    for r in rows:
        ph = r["phases"]
        lines = "; ".join(r["rewritten_lines"][:6]) + (f"; +{len(r['rewritten_lines']) - 6}"
                                                       if len(r["rewritten_lines"]) > 6 else "")
        out.append(f"| {r['group']} | {r['case']} | {fmt_phase(ph.get('eval'))} | {fmt_phase(ph.get('train'))} | "
                   f"{lines or 'none'} |")
    bad = [(r, k, p) for r in rows for k, p in r["phases"].items() if p["status"] in
           ("MISMATCH", "FIXED FAILS", "worker crashed")]
    out += ["", "## Differences and failures", ""]
    if not bad:
        out.append("None.")
    for r, k, p in bad:
        out.append(f"- {r['group']} / {r['case']} / {k}: {p['status']}: {p.get('detail')}")
        for fr in p.get("frames", []):
            out.append(f"  - at {fr}")
    for pkg, s in summary.items():
        for c in s["compile_failures"]:
            out.append(f"- compile failure ({c['which']}): {c['file']}: {c['error']}")
        for m, e in s["imports"]["regressions"].items():
            out.append(f"- import regression: {m}: {e}")
        for m, e in s["imports"].get("no_torch_regressions", {}).items():
            out.append(f"- import regression without torch installed: {m}: {e}")
        if not s["imports"]["copy_imported"]:
            out.append(f"- {pkg}: the fixed copy was not imported: {s['imports']['fixed'].get('package')}")
        for e in s["fix_errors"]:
            out.append(f"- fxlint ({pkg}): {e}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fxlint", default=os.path.join(REPO, "build", "fxlint"))
    ap.add_argument("--workdir", help="where the copies go (default: a new temporary directory, kept)")
    ap.add_argument("--packages", default=",".join(PACKAGES))
    ap.add_argument("--report", help="write the markdown report here (default: WORKDIR/report.md)")
    ap.add_argument("--json", help="write all results here (default: WORKDIR/results.json)")
    ap.add_argument("--timeout", type=int, default=600, help="per worker subprocess, seconds")
    args = ap.parse_args()
    fxlint = os.path.abspath(args.fxlint)
    workdir = os.path.realpath(args.workdir or tempfile.mkdtemp(prefix="fxlint-fix-bench-"))
    fixed_root = os.path.join(workdir, "fixed")
    if os.path.exists(fixed_root):
        shutil.rmtree(fixed_root)
    os.makedirs(fixed_root)
    pkgs = [p for p in args.packages.split(",") if p]
    t_start = time.time()
    summary = {}
    for pkg in pkgs:
        src = site_dir(pkg)
        log(f"{pkg}: fixing a copy of {src}")
        summary[pkg] = fix_package(fxlint, pkg, src, fixed_root)
        summary[pkg]["source"] = src
        log(f"  {summary[pkg]['files_changed']} files changed; {summary[pkg]['fix_summary'][:1]}")
        summary[pkg]["imports"] = import_check(pkg, summary[pkg]["changed"], fixed_root, notorch_site(workdir))
        log(f"  import: {summary[pkg]['imports']['fixed'].get('package')}, copy imported: "
            f"{summary[pkg]['imports']['copy_imported']}, regressions: {len(summary[pkg]['imports']['regressions'])}")
    changed_index = {f"{pkg}/{rel}": v["hunks"] for pkg in pkgs for rel, v in summary[pkg]["changed"].items()}
    trace_files = os.path.join(workdir, "trace_files.json")
    with open(trace_files, "w") as f:
        json.dump([os.path.join(fixed_root, rel) for rel in changed_index], f)
    results = {}
    for pkg in pkgs:
        log(f"{pkg}: running the cases")
        results[pkg] = run_group(pkg, fixed_root, workdir, trace_files, args.timeout)
    rows = evaluate(pkgs, results, fixed_root, changed_index)
    text = report(summary, rows)
    rep = args.report or os.path.join(workdir, "report.md")
    with open(rep, "w") as f:
        f.write(text)
    with open(args.json or os.path.join(workdir, "results.json"), "w") as f:
        json.dump({"summary": summary, "cases": rows}, f, indent=1, default=str)
    print(text)
    log(f"done in {time.time() - t_start:.0f}s; workdir {workdir}; report {rep}")
    bad = any(p["status"] in ("MISMATCH", "FIXED FAILS", "worker crashed") for r in rows for p in r["phases"].values())
    bad = bad or any(s["compile_failures"] or s["imports"]["regressions"] or not s["imports"]["copy_imported"]
                     or s["imports"].get("no_torch_regressions")
                     for s in summary.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
