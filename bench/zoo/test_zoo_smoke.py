"""Smoke test of the model zoo harness (bench/zoo/zoo.py) on four small models: a torchvision
classifier, a timm model and a transformers decoder with every step, and a torchvision detector
(eager, capture and Dynamo only, to keep the test short). It checks that each per-model record
is complete and consistent, not what the figures are. A synthetic module checks the Dynamo
step's record of graph breaks inside loops, the detector's traced Dynamo run (no frame skipped at
such a break) finds the break the skipped frame hid, and --rerun redoes the Dynamo step of a record in place.

Run by ctest as `zoo_smoke`; by hand:
    PYTHONPATH=build/python .venv/bin/python -m pytest -q bench/zoo/test_zoo_smoke.py
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

FULL = ["tv/mobilenet_v3_small", "timm/resnet18", "hf/gpt2"]
DETECTOR = "tv/fasterrcnn_mobilenet_v3_large_320_fpn"
LIB_DIRS = ("torchvision/", "timm/", "transformers/", "torch/nn/")


def _zoo(results, *args):
    cmd = [sys.executable, os.path.join(HERE, "zoo.py"), "run", "--results", str(results), "--jobs", "2",
           "--lint", "executed", "--timeout", "240", "--step-timeout", "120", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    results = tmp_path_factory.mktemp("zoo")
    first = _zoo(results, "--only", ",".join(FULL))
    second = _zoo(results, "--only", ",".join(FULL + [DETECTOR]), "--steps", "eager,capture,dynamo,dynamo_traced")
    with open(results / "results.jsonl") as f:
        recs = {r["name"]: r for r in map(json.loads, f)}
    return results, recs, first, second


def _lines(results, rec):
    with open(results / rec["lines_file"]) as f:
        return {k: set(v) for k, v in json.load(f).items()}


def _check_site(site):
    path, lineno = site["filename"], site["lineno"]
    assert os.path.isfile(path), site
    with open(path) as f:
        n = sum(1 for _ in f)
    assert 1 <= lineno <= n, site


def test_every_model_has_one_complete_record(run):
    _, recs, _, second = run
    assert sorted(recs) == sorted(FULL + [DETECTOR])
    assert "3 already in" in second  # the second run resumed: only the detector ran
    for name, rec in recs.items():
        assert rec["status"] == "ok", (name, rec["status"], rec["steps"])
        assert rec["steps"]["build"]["ok"] and rec["params"] > 0 and rec["inputs"]
        wanted = ["eager", "capture", "dynamo"] + (["export_nonstrict", "export_strict", "onnx"] if name in FULL else [])
        drafted = ["export_draft", "export_probe"] if name in FULL else []
        assert sorted(rec["steps"]) == sorted(["build", "dynamo_traced"] + drafted + wanted), name
        if drafted:  # draft export lists the failures of a failed export; these exported
            assert rec["steps"]["export_draft"]["ok"] is None, (name, rec["steps"]["export_draft"])
            assert rec["steps"]["export_probe"]["ok"] is None, (name, rec["steps"]["export_probe"])
        # the traced Dynamo run is only needed where Dynamo skipped a frame at a break in a loop
        traced = rec["steps"]["dynamo_traced"]
        assert traced["ok"] if rec["steps"]["dynamo"]["loop_breaks"] else traced["ok"] is None, (name, traced)
        for step in wanted:
            assert rec["steps"][step]["ok"], (name, step, rec["steps"][step])
            assert rec["steps"][step]["time_s"] >= 0


def test_dynamo_and_capture_ran_and_sites_are_real_lines(run):
    _, recs, _, _ = run
    for name, rec in recs.items():
        dyn, cap = rec["steps"]["dynamo"], rec["steps"]["capture"]
        assert dyn["graph_count"] >= 1 and cap["graph_count"] >= 1, name
        assert sum(s["count"] for s in dyn["break_sites"]) <= len(dyn["breaks"]), name
        assert sum(s["count"] for s in cap["break_sites"]) == cap["graph_break_count"], name
        for site in dyn["break_sites"] + cap["break_sites"]:
            _check_site(site)
    det = recs[DETECTOR]["steps"]
    # the detector's NMS and torch.where(mask) break both compilers' graphs
    assert det["dynamo"]["graph_count"] > 1 and det["dynamo"]["break_sites"]
    assert det["capture"]["graph_count"] > 1 and det["capture"]["break_sites"]
    assert all(any(d in s["filename"] for d in LIB_DIRS) for s in det["capture"]["break_sites"])
    # ... and Dynamo skips the frames where a break falls inside a loop (the RPN's proposal filter
    # loops over levels and images): each loop break names its site, reason and skipped frame
    for name, rec in recs.items():
        dyn = rec["steps"]["dynamo"]
        frames = {(f["name"], f["filename"], f["firstlineno"]) for f in dyn["skipped_frames"]}
        for lb in dyn["loop_breaks"]:
            _check_site(lb)
            _check_site(lb["frame_site"])
            assert lb["reason"] and lb["count"] >= 1, (name, lb)
            sf = lb["skipped_frame"]
            assert (sf["name"], sf["filename"], sf["firstlineno"]) in frames, (name, lb)
    loops = det["dynamo"]["loop_breaks"]
    assert any(lb["skipped_frame"]["name"] == "filter_proposals"
               and lb["skipped_frame"]["filename"].endswith("detection/rpn.py")
               for lb in loops), loops
    # With that skip turned off, Dynamo traces the rest of filter_proposals and breaks at the
    # score filter there (torch.where(mask)), a line the plain run never traced.
    rpn = "torchvision/models/detection/rpn.py"
    traced = det["dynamo_traced"]
    assert any(s["filename"].endswith(rpn) and "torch.where(scores >= self.score_thresh)" in s["line"]
               for s in traced["break_sites"]), traced["break_sites"]
    assert not any(s["filename"].endswith(rpn) and "torch.where(scores >=" in (s["line"] or "")
                   for s in det["dynamo"]["break_sites"])
    for site in traced["break_sites"]:
        _check_site(site)
    assert traced["graph_count"] > det["dynamo"]["graph_count"]


def test_exports_of_the_small_models(run):
    _, recs, _, _ = run
    for name in FULL:
        onnx = recs[name]["steps"]["onnx"]
        assert onnx["ok"] and onnx["ort"] == "ok", (name, onnx)
        assert onnx["ort_vs_eager_max_diff"] < 1e-3


def test_executed_lines_and_their_findings(run):
    results, recs, _, _ = run
    import static

    lint = {}
    for t in static.TARGETS:
        with open(results / "fxlint" / f"{t}.json") as f:
            lint[t] = json.load(f)["findings"]
    ran_anywhere = 0
    for name, rec in recs.items():
        lines = _lines(results, rec)
        spans = static.load_spans(str(results / rec["lines_file"]))
        assert spans is not None and set(spans) == set(lines), name
        assert lines and rec["steps"]["eager"]["lines"] == sum(len(v) for v in lines.values())
        assert all(any(d in f for d in LIB_DIRS) for f in lines), name
        assert any("/torch/nn/modules/" in f for f in lines), name
        for t in static.TARGETS:
            joined = rec["static"][t]
            # every joined finding is an fxlint finding on a line the model executed ...
            assert all(fnd[1] in lines.get(fnd[0], ()) for fnd in joined), (name, t)
            assert all(fnd in lint[t] for fnd in joined), (name, t)
            # ... and every fxlint finding on an executed line was joined, when the run executed
            # an instruction inside the finding's own range
            on_lines = [fnd for fnd in lint[t] if fnd[1] in lines.get(fnd[0], ())]
            expected = [fnd for fnd in on_lines if static.ran(fnd, spans.get(fnd[0], {}))]
            assert sorted(map(tuple, expected)) == sorted(map(tuple, joined)), (name, t)
            ran_anywhere += len(expected)
    # the models ran the ranges of some of their findings
    assert ran_anywhere > 0
    # the detector executed torchvision's detection code, where fxlint has findings
    assert any("torchvision/models/detection/" in fnd[0] for fnd in recs[DETECTOR]["static"]["dynamo"])


_LOOPY = textwrap.dedent("""\
    import torch


    def count(x):
        return int(x.sum().item())


    class Loopy(torch.nn.Module):
        def forward(self, x):
            y = x * 2
            for i in range(3):
                y = y + x[i].item()
            return y


    class CallsInLoop(torch.nn.Module):
        def forward(self, x):
            y = x * 2
            for i in range(3):
                y = y + count(x)
            return y
    """)


def test_dynamo_step_records_breaks_inside_loops(tmp_path):
    import importlib.util

    import torch
    from torch._dynamo.symbolic_convert import InstructionTranslatorBase

    import worker

    path = tmp_path / "loopy.py"
    path.write_text(_LOOPY)
    spec = importlib.util.spec_from_file_location("loopy", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    orig = InstructionTranslatorBase.__dict__["raise_loop_graph_break"]
    x = torch.arange(4.0).reshape(4, 1)
    fname = str(path)
    src = _LOOPY.splitlines()

    def at(text, after=0):  # the line number of the first line holding text, after line `after`
        return next(i + 1 for i, t in enumerate(src) if text in t and i + 1 > after)

    loopy, calls = at("class Loopy") + 1, at("class CallsInLoop") + 1  # their forward's first line

    # the break is in the frame's own loop: Dynamo lists nothing and skips forward
    res = worker._step_dynamo(mod.Loopy(), (x,), {}, (str(tmp_path) + "/",), 60)
    assert res["ok"] and not res["break_sites"], res
    (lb,) = res["loop_breaks"]
    line = at("x[i].item()")
    assert (lb["filename"], lb["lineno"], lb["line"]) == (fname, line, "y = y + x[i].item()"), lb
    assert lb["frame_site"]["lineno"] == line and "item()" in lb["reason"], lb
    assert lb["skipped_frame"] == {"name": "forward", "filename": fname, "firstlineno": loopy}, lb
    assert lb["lib_site"]["lineno"] == line
    assert {"name": "forward", "filename": fname, "firstlineno": loopy} in [
        {k: f[k] for k in ("name", "filename", "firstlineno")} for f in res["skipped_frames"]]

    # the break is in a function called in the loop: the site is the innermost frame, the
    # skipped frame's line is the call
    res = worker._step_dynamo(mod.CallsInLoop(), (x,), {}, (str(tmp_path) + "/",), 60)
    (lb,) = res["loop_breaks"]
    assert (lb["filename"], lb["lineno"]) == (fname, at("x.sum().item()")), lb
    assert lb["frame_site"]["lineno"] == at("count(x)", calls) and lb["skipped_frame"]["firstlineno"] == calls, lb
    assert InstructionTranslatorBase.__dict__["raise_loop_graph_break"] is orig  # restored


def test_rerun_replaces_only_the_dynamo_step(run):
    results, recs, _, _ = run
    before = recs[FULL[0]]
    out = _zoo(results, "--only", FULL[0], "--steps", "dynamo", "--rerun")
    assert "1 with a record to rerun dynamo" in out, out
    with open(results / "results.jsonl") as f:
        after = [r for r in map(json.loads, f) if r["name"] == FULL[0]][-1]
    assert after["reruns"][-1]["steps"] == ["dynamo"] and after["reruns"][-1]["status"] == "ok"
    assert after["steps"]["dynamo"]["ok"] and "loop_breaks" in after["steps"]["dynamo"]
    assert after["steps"]["dynamo"]["time_s"] != before["steps"]["dynamo"]["time_s"]
    for step in set(before["steps"]) - {"dynamo"}:
        assert after["steps"][step] == before["steps"][step], step
    assert after["static"] == before["static"] and after["lines_file"] == before["lines_file"]
    assert os.path.exists(results / after["lines_file"])


def test_report_renders(run):
    results, recs, _, _ = run
    import report

    text = report.render(str(results))
    assert "## Capture vs TorchDynamo" in text and "## Speed" in text
    for name in recs:
        assert f"`{name}`" in text


def test_a_finding_counts_where_its_own_range_ran(tmp_path):
    """`a and not g(x)` with `a` false runs its line but not `not g(x)`."""
    import importlib.util

    import static
    import worker

    src = tmp_path / "mod.py"
    src.write_text("def g(x):\n    return x\n\n\ndef f(a, x):\n    if a and not g(x):\n        return 1\n    return 2\n")
    spec = importlib.util.spec_from_file_location("mod", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    line = 6
    col = src.read_text().splitlines()[line - 1].index("not g(x)") + 1
    finding = [str(src), line, col, "FX103", "error", "", line, col + len("not g(x)")]
    for a, expect in ((False, False), (True, True)):
        _, lines, spans, first = worker._trace_lines(lambda: mod.f(a, 0), (str(tmp_path),))
        # the test of the `if` is reached before the arm it takes
        order = dict(first[str(src)])
        assert order[line] < order[7 if a else 8]
        assert line in lines[str(src)]
        by_line = {}
        for s in spans[str(src)]:
            by_line.setdefault(s[0], []).append(tuple(s))
        assert static.ran(finding, by_line) is expect


def test_report_reads_a_line_as_traced_only_before_the_first_failure():
    import report

    lines = {"m": {"f.py": {10, 20, 30}}}
    failing = [{"name": "m", "steps": {"export_nonstrict": {"ok": False, "site": {"filename": "f.py", "lineno": 20}}}}]
    report.FIRST["m"] = {("f.py", 10): 1, ("f.py", 20): 2, ("f.py", 30): 3}
    try:
        steps = ["export_nonstrict"]
        assert report._reached(("f.py", 10), failing, failing, lines, steps)  # ran before the failing line
        assert report._reached(("f.py", 20), failing, failing, lines, steps)  # the failing line itself
        assert not report._reached(("f.py", 30), failing, failing, lines, steps)  # only after it
        assert report._reached(("f.py", 30), failing, [], lines, steps)  # a model that exported traced it all
        assert not report._reached(("f.py", 40), failing, [], lines, steps)  # a line no model ran
    finally:
        del report.FIRST["m"]


def test_report_confirms_a_skipped_frame_line_by_the_traced_run(tmp_path):
    import report

    path = tmp_path / "site-packages" / "torchvision" / "post.py"  # a library file, as the report reads paths
    path.parent.mkdir(parents=True)
    path.write_text("def post(scores, boxes):\n"
                    "    keep = nms(boxes,\n"
                    "               scores)\n"
                    "    idx = where(keep)\n"
                    "    return idx\n")
    f = str(path)
    recs = [{"name": "m", "steps": {
        "dynamo": {"ok": True, "break_sites": [{"filename": f, "lineno": 4, "callers": [f"{f}:9"]}], "loop_breaks": [
            {"filename": "ops.py", "lineno": 54, "stack": [f"{f}:2", "ops.py:54"]}]},
        "dynamo_traced": {"ok": True, "break_sites": [{"filename": f, "lineno": 3, "callers": []},
                                                      {"filename": "ops.py", "lineno": 54, "callers": [f"{f}:5"]}],
                          "frames_skipped_because": ["zip has no model"]}}}]
    st = report.Statements()
    traced = report._traced_breaks(recs, st)
    assert traced["models"] == 1
    assert report._traced_verdict((f, 2), traced, st) == ("line", "")  # line 3 is in the statement of line 2
    assert report._traced_verdict((f, 5), traced, st) == ("callee", "")  # the break is in the function it calls
    assert report._traced_verdict((f, 4), traced, st, ["m"]) == ("untraced", "zip has no model")
    assert report._traced_verdict((f, 4), traced, st, ["other"]) == ("untraced", "")
    # the plain run's callers: explain's, and the frames above a break inside a loop
    assert report._dyn_callers(recs[0]) == {(f, 9), (f, 2)}


_ZIPPY = '''
import torch


class Zippy(torch.nn.Module):
    def forward(self, xs, ys):
        out = []
        for a, b in zip(xs, ys):
            keep = torch.where(a > 0)[0]
            out.append(b[keep] * 2)
        return out


class Branchy(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        n = x.numel()
        return x + n
'''


def _load(tmp_path, name, text):
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sys.modules[name] = mod  # the traced step patches `zip` in the library modules it finds there
    return path, mod


def test_traced_step_goes_on_past_a_break_with_a_zip_on_the_stack(tmp_path):
    import torch

    import worker

    path, mod = _load(tmp_path, "zippy", _ZIPPY)
    try:
        prefixes = (str(tmp_path) + "/",)
        line = next(i + 1 for i, t in enumerate(_ZIPPY.splitlines()) if "torch.where" in t)
        xs = [torch.randn(5) for _ in range(3)]
        ys = [torch.randn(5) for _ in range(3)]
        res = worker._step_dynamo_traced(mod.Zippy(), (xs, ys), {}, prefixes, 120)
        assert res["ok"], res
        # every iteration is traced, so each one's break is listed (a zip iterator on the stack
        # would have made Dynamo skip the frame after the first)
        (site,) = [s for s in res["break_sites"] if s["filename"] == str(path)]
        assert site["lineno"] == line and site["count"] == 3, res
        assert not any("zip" in why for why in res["frames_skipped_because"]), res
        assert "zip" not in vars(mod)  # restored
        # the same tuples as the builtin's
        with worker._ListedZip(prefixes):
            assert list(mod.zip([1, 2], "ab")) == [(1, "a"), (2, "b")]
        assert "zip" not in vars(mod)
    finally:
        del sys.modules["zippy"]


def test_draft_export_step_lists_every_failure(tmp_path):
    import torch

    import worker

    path, mod = _load(tmp_path, "branchy", _ZIPPY)
    try:
        line = next(i + 1 for i, t in enumerate(_ZIPPY.splitlines()) if "if x.sum() > 0" in t)
        res = worker._step_export_draft(mod.Branchy(), (torch.randn(4),), {}, (str(tmp_path) + "/",), 120)
        assert res["ok"] is False and "raised_at" not in res, res
        (f,) = res["failures"]
        assert (f["filename"], f["lineno"], f["kind"]) == (str(path), line, "DATA_DEPENDENT_ERROR"), f
        assert f["line"] == "if x.sum() > 0:"
    finally:
        del sys.modules["branchy"]


_PASTER = textwrap.dedent("""
    import torch
    from torch import nn


    def paste(mask, box, size: int):
        x_0 = max(box[0], 0)
        x_1 = min(box[2] + 1, size)
        out = torch.zeros(size, size)
        out[:, x_0:x_1] = mask[:, (x_0 - box[0]):(x_1 - box[0])]
        return out


    def scale(y, box):
        w = int(box[2] - box[0] + 1)
        return y * w


    class Paster(nn.Module):
        def forward(self, x):
            keep = torch.where(x.flatten() > 0)[0]
            n = int(keep.numel())
            box = (x[0, :4].abs() * 4).long().sort().values
            return scale(paste(x, box, x.shape[0]), box) * n
""")


def _line_of(source, text):
    return next(i + 1 for i, t in enumerate(source.splitlines()) if text in t)


def test_draft_export_keeps_the_failures_before_it_raises(tmp_path):
    import torch

    import worker

    path, mod = _load(tmp_path, "paster", _PASTER)
    try:
        torch.manual_seed(0)
        res = worker._step_export_draft(mod.Paster(), (torch.randn(8, 8),), {}, (str(tmp_path) + "/",), 120)
        assert res["ok"] is False and res["raised_at"]["lineno"] == _line_of(_PASTER, "out[:, x_0:x_1]"), res
        failed = {(f["filename"], f["lineno"]): f["kind"] for f in res["failures"]}
        assert failed[(str(path), _line_of(_PASTER, "n = int("))] == "DATA_DEPENDENT_ERROR", res
        # where it raised is a guard on data too, so it is a failure site
        assert failed[(str(path), _line_of(_PASTER, "out[:, x_0:x_1]"))].startswith("DATA_DEPENDENT_ERROR"), res
        # scale() comes after: draft export never reached it
        assert (str(path), _line_of(_PASTER, "w = int(")) not in failed
    finally:
        del sys.modules["paster"]


def test_export_probe_exports_the_function_holding_an_unreached_line(tmp_path):
    import torch

    import probe

    path, mod = _load(tmp_path, "paster", _PASTER)
    try:
        torch.manual_seed(0)
        w_line, n_line = _line_of(_PASTER, "w = int("), _line_of(_PASTER, "n = int(")
        wanted = [(str(path), w_line), (str(path), n_line), (str(path), 999)]
        res = probe.step(mod.Paster(), (torch.randn(8, 8),), {}, wanted, (str(tmp_path) + "/",), 120)
        assert res["ok"], res
        by_name = {p["name"]: p for p in res["probes"]}
        # scale(y, box) alone: y and box are its inputs, and int() of box's values fails
        assert by_name["scale"]["lines"] == [w_line]
        assert [(f["filename"], f["lineno"]) for f in by_name["scale"]["failures"]] == [(str(path), w_line)], res
        # forward is a method: its module is the probe's sub-module
        assert (str(path), n_line) in {(f["filename"], f["lineno"]) for f in by_name["Paster.forward"]["failures"]}
        assert res["not_reached"] == [(str(path), 999)]
    finally:
        del sys.modules["paster"]


def test_report_reads_every_line_of_a_finished_draft_export_as_traced():
    import report

    lines = {"m": {"f.py": {10, 20, 30}}}
    failing = [{"name": "m", "steps": {
        "export_nonstrict": {"ok": False, "site": {"filename": "f.py", "lineno": 20}},
        "export_draft": {"ok": False, "failures": [{"filename": "f.py", "lineno": 20}]}}}]
    report.FIRST["m"] = {("f.py", 10): 1, ("f.py", 20): 2, ("f.py", 30): 3}
    try:
        assert not report._reached(("f.py", 30), failing, failing, lines, ["export_nonstrict"])
        assert report._reached(("f.py", 30), failing, failing, lines, ["export_nonstrict", "export_draft"])
        # a draft export that raised traced only up to where it raised
        failing[0]["steps"]["export_draft"] = {"ok": False, "raised_at": {"filename": "f.py", "lineno": 10},
                                               "failures": [{"filename": "f.py", "lineno": 10}]}
        assert not report._reached(("f.py", 30), failing, failing, lines, ["export_nonstrict", "export_draft"])
    finally:
        del report.FIRST["m"]
