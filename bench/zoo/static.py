"""fxlint over the model libraries: one run per target over every Python file of the
libraries (cached, keyed by the fxlint binary and the library versions), and the join of its
findings with the lines a model's eager forward executed."""

import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ("dynamo", "export", "fx2onnx")


def fxlint_binary():
    exe = os.environ.get("FXLINT")
    if exe:
        return exe
    beside = os.path.join(os.path.dirname(sys.executable), "fxlint")
    return beside if os.path.exists(beside) else "fxlint"


def _file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def _py_files(roots):
    out = []
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


def cache_key(roots, files=None):
    """What the cached findings depend on: the binary, and the files (every file under the
    library roots, or the given list)."""
    listed = sorted(files) if files is not None else _py_files(roots.values())
    latest = max(os.stat(f).st_mtime for f in listed) if listed else 0
    import shutil

    exe = shutil.which(fxlint_binary()) or fxlint_binary()
    key = {"fxlint": exe, "fxlint_sha256": _file_digest(exe), "roots": roots, "files": len(listed),
           "latest_mtime": latest}
    if files is not None:
        key["file_list_sha256"] = hashlib.sha256("\n".join(listed).encode()).hexdigest()[:16]
    return key


def run_fxlint(paths, target, jobs=1):
    """Findings as [filename, row, column, code, severity, message], filenames as the
    libraries' own paths (those of the modules' __file__)."""
    cmd = ["nice", "-n", "15", fxlint_binary(), "check", "--config", os.path.join(HERE, "fxlint.toml"),
           "--target", target, "--output-format", "json", "--exit-zero", "-j", str(jobs), *paths]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"fxlint failed ({proc.returncode}): {proc.stderr[:2000]}")
    data = json.loads(proc.stdout or "[]")
    return [[d["filename"], d["location"]["row"], d["location"]["column"], d["code"], d["severity"], d["message"],
             d["end_location"]["row"], d["end_location"]["column"]]
            for d in data]


def lint(results_dir, roots, refresh=False, log=print, files=None):
    """The findings per target, from the cache when the binary and libraries are unchanged.
    ``files``: lint only these files (the smoke test's executed files) instead of the roots."""
    os.makedirs(os.path.join(results_dir, "fxlint"), exist_ok=True)
    key = cache_key(roots, files)
    out = {}
    for target in TARGETS:
        path = os.path.join(results_dir, "fxlint", f"{target}.json")
        if not refresh and os.path.exists(path):
            with open(path) as f:
                cached = json.load(f)
            if cached.get("key") == key:
                out[target] = cached
                continue
        import time

        t0 = time.perf_counter()
        findings = run_fxlint(sorted(files) if files is not None else list(roots.values()), target)
        elapsed = time.perf_counter() - t0
        log(f"fxlint --target {target}: {len(findings)} findings over {key['files']} files in {elapsed:.1f}s")
        cached = {"key": key, "time_s": elapsed, "findings": findings}
        with open(path + ".tmp", "w") as f:
            json.dump(cached, f)
        os.replace(path + ".tmp", path)
        out[target] = cached
    return out


def index(findings):
    by_line = {}
    for fnd in findings:
        by_line.setdefault((fnd[0], fnd[1]), []).append(fnd)
    return by_line


def executed_files(results_dir, recs):
    """Every library file some record's model executed."""
    files = set()
    for rec in recs:
        lf = rec.get("lines_file")
        if lf and os.path.exists(os.path.join(results_dir, lf)):
            with open(os.path.join(results_dir, lf)) as f:
                files |= set(json.load(f))
    return files


def refresh_joins(results_dir, results_path, recs, lint_out):
    """Rewrites every record's static findings from lint_out; returns how many were joined."""
    idx = {t: index(v["findings"]) for t, v in lint_out.items()}
    n = 0
    with open(results_path + ".tmp", "w") as out:
        for rec in recs:
            lf = rec.get("lines_file")
            if lf and os.path.exists(os.path.join(results_dir, lf)):
                with open(os.path.join(results_dir, lf)) as f:
                    lines = json.load(f)
                spans = load_spans(os.path.join(results_dir, lf))
                rec["static"] = {t: on_executed_lines(i, lines, spans) for t, i in idx.items()}
                n += 1
            out.write(json.dumps(rec, default=str) + "\n")
    os.replace(results_path + ".tmp", results_path)
    return n


def on_executed_lines(by_line, lines, spans=None):
    """The findings whose line the model executed (lines: {filename: [lineno, ...]}), and,
    where the instructions it ran in that file are known (spans, see load_spans), whose own
    source range it ran an instruction of."""
    out = []
    for fname, nums in lines.items():
        for n in nums:
            out += [f for f in by_line.get((fname, n), []) if ran(f, (spans or {}).get(fname))]
    return out


def spans_path(lines_path):
    """The instruction spans the eager step writes beside a model's executed lines."""
    return lines_path[: -len(".json")] + ".spans.json"


def load_spans(lines_path):
    """{filename: {line: [(line, end line, column, end column), ...]}} of the instructions the
    model ran, by their first line; None when the run did not record them."""
    path = spans_path(lines_path)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = json.load(f)
    out = {}
    for fname, spans in data.items():
        by = out.setdefault(fname, {})
        for s in spans:
            by.setdefault(s[0], []).append(tuple(s))
    return out


def load_first(lines_path):
    """{(filename, line): when the model's eager run first reached it} (a count of lines first
    reached before it); None when the run did not record it."""
    path = lines_path[: -len(".json")] + ".first.json"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = json.load(f)
    return {(fname, line): at for fname, pairs in data.items() for line, at in pairs}


def ran(finding, file_spans):
    """Whether an instruction the model ran lies inside the finding's source range: `a and not
    f(x)` runs its line but not `not f(x)` when `a` is false. True when the spans are unknown."""
    if file_spans is None or len(finding) < 8:
        return True
    start, end = (finding[1], finding[2] - 1), (finding[6], finding[7] - 1)
    for line in range(finding[1], finding[6] + 1):
        for l, el, c, ec in file_spans.get(line, ()):
            if start <= (l, c) and (el, ec) <= end:
                return True
    return False
