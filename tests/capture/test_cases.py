"""Every pattern of pitfalls.md, the constructs capture follows, the rewritten
forms and the limits: graph count, break codes and lines, side effects, and
the eager result, checked against what the case's source marks."""

import copy
import json
import os
import sys
import types

import pytest
import torch

sys.path.insert(0, os.path.dirname(__file__))

import fxlint_capture  # noqa: E402
from cases import constructs, limits, pitfalls, rewritten  # noqa: E402,F401
from cases.registry import CASES  # noqa: E402

CASE_FILES = {os.path.abspath(m.__file__) for m in (constructs, limits, pitfalls, rewritten)}


def _same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b, equal_nan=True)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, types.GeneratorType):
        return isinstance(b, types.GeneratorType)
    return a == b


def _case_frame(stack):
    """The innermost frame in a case file: where the user's own code broke."""
    for frame in reversed(stack):
        if os.path.abspath(frame["filename"]) in CASE_FILES:
            return frame
    raise AssertionError(f"no frame of a case file in {stack}")


def _run(c, mode="dynamo"):
    torch.manual_seed(0)
    inputs = c.inputs()
    eager_inputs = copy.deepcopy(inputs)
    report = fxlint_capture.explain(c.fn, mode=mode)(*inputs)
    return report, eager_inputs


@pytest.mark.parametrize("c", CASES, ids=repr)
def test_case(c):
    report, eager_inputs = _run(c)
    expected_breaks = sorted(set(c.marks("break")))
    found = sorted({(_case_frame(b.user_stack)["lineno"], b.code) for b in report.break_reasons})
    assert found == expected_breaks, str(report)
    if c.breaks is not None:
        assert report.graph_break_count == c.breaks, str(report)
    else:
        assert report.graph_break_count == len(c.marks("break")), str(report)
    assert report.graph_count == c.graphs, str(report)

    effects = sorted((_case_frame(s["user_stack"])["lineno"], s["code"]) for s in report.side_effects)
    assert effects == sorted(c.marks("side-effect")), str(report)

    names = {s["name"].rsplit(".", 1)[-1] for s in report.specializations}
    assert set(c.specializations) <= names, str(report)

    if not c.marks("side-effect"):  # stateful cases would see their own first run
        torch.manual_seed(0)
        eager = c.fn(*eager_inputs)
        assert _same(report.result, eager)


# Cases where the capture counts graphs differently from the installed
# TorchDynamo, and why. Each is expected to differ (strict xfail), so the list
# stays true.
DYNAMO_DIFFERS = {
    "unsupported_opcode_in_helper": "Dynamo traces `match`; the capture runs the helper eagerly (a limit)",
    "tensor_slice_bound": "Dynamo compiles the prefix and runs the rest after the slice eagerly",
    "numpy_call": "Dynamo traces NumPy calls on tensors through torch._numpy",
    "random_call": "Dynamo skips the whole frame at random.random()",
    "eval_call": "Dynamo evaluates eval() of a constant string at trace time",
    "locals_call": "Dynamo traces locals()",
    "print_behind_hatch": "is_fx_tracing() is False under Dynamo, so the print runs and breaks",
    "detector_rewritten": "is_fx_tracing() is False under Dynamo, so the print runs and breaks",
}


def _dynamo_graph_count(c):
    import torch._dynamo

    torch._dynamo.reset()
    torch.manual_seed(0)
    try:
        return torch._dynamo.explain(c.fn)(*c.inputs()).graph_count
    finally:
        torch._dynamo.reset()


@pytest.mark.parametrize(
    "c", [pytest.param(c, marks=pytest.mark.xfail(reason=DYNAMO_DIFFERS[c.name], strict=True))
          if c.name in DYNAMO_DIFFERS else c for c in CASES], ids=repr)
def test_graph_count_is_dynamos(c):
    """What the installed TorchDynamo compiles is the truth: one graph per
    compile unit, a unit reused on later iterations, a frame that breaks in a
    loop run eagerly."""
    report, _ = _run(c)
    assert report.graph_count == _dynamo_graph_count(c), str(report)


@pytest.mark.parametrize("c", [c for c in CASES if c.graphs == 1], ids=repr)
def test_single_graph_matches_eager(c):
    report, eager_inputs = _run(c)
    gm, inputs = report.graphs[0], report.graph_inputs[0]
    assert _same(gm(*inputs), report.result), gm.code


@pytest.mark.parametrize("c", [c for c in CASES if c.strict_ok is not None], ids=repr)
def test_strict_mode(c):
    report, _ = _run(c, mode="strict")
    assert report.ok is c.strict_ok, str(report)
    data = report.to_json()
    assert data["ok"] is c.strict_ok
    if not c.strict_ok:
        codes = {f["code"] for f in data["failures"]}
        assert codes == {code for _, code in c.marks("side-effect") + c.marks("break")}


def test_strict_mode_fails_on_breaks():
    report, _ = _run(next(c for c in CASES if c.name == "item"), mode="strict")
    assert not report.ok
    assert [f["code"] for f in report.to_json()["failures"]] == ["FX101"]
    with pytest.raises(fxlint_capture.CaptureError, match="FX101"):
        report.check()


def test_user_exception_propagates_unchanged():
    def bad(x):
        y = x * 2
        if y.shape[0] == 4:
            raise ValueError("bad input shape")
        return y

    with pytest.raises(ValueError, match="bad input shape"):
        fxlint_capture.explain(bad)(torch.randn(4, 3))


def test_exception_from_torch_propagates():
    def mismatched(x):
        return x @ x

    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        fxlint_capture.explain(mismatched)(torch.randn(4, 3))


# TorchDynamo's graph-break id for each kind of break, as its registry
# (torch/_dynamo/graph_break_registry.json) describes it.
GB_IDS = {
    "item": "GB0124", "int_of_tensor": "GB0033", "tolist": "GB0109", "tensor_slice_bound": "GB0038",
    "if_on_tensor": "GB0170", "mask_index": "GB0036", "nonzero": "GB0036", "one_hot_without_classes": "GB0246",
    "print_call": "GB0059", "logging_call": "GB0291", "numpy_call": "GB0294", "time_call": "GB9193",
    "deepcopy_call": "GB0179", "class_definition": "GB0075", "eval_call": None, "numpy_of_tensor": None,
    "warnings_call": "GB0007", "random_call": "GB0007", "math_on_tensor": "GB0007", "data_ptr": None,
    "locals_call": None,
}


@pytest.mark.parametrize("name", sorted(GB_IDS))
def test_breaks_carry_dynamo_graph_break_ids(name):
    report, _ = _run(next(c for c in CASES if c.name == name))
    assert report.to_json()["break_reasons"][0]["gb_id"] == GB_IDS[name]


def test_report_json_fields():
    report, _ = _run(next(c for c in CASES if c.name == "print_call"))
    data = report.to_json()
    for key in ("graph_count", "graph_break_count", "break_reasons", "op_count", "ops_per_graph", "guards",
                "side_effects", "specializations", "compile_time_s"):
        assert key in data
    (reason,) = data["break_reasons"]
    assert reason["code"] == "FX501" and reason["gb_id"] == "GB0059"
    frame = reason["user_stack"][-1]
    assert set(frame) == {"filename", "lineno", "name", "line"}
    assert frame["name"] == "print_call" and frame["line"].startswith("print(")
    assert data["op_count"] == sum(len(ops) for ops in data["ops_per_graph"])
    assert any(g["source"] == "L['x']" and g["kind"] == "TENSOR_MATCH" for g in data["guards"])
    assert json.loads(json.dumps(data)) == data  # plain JSON, nothing that needs a default=
    text = str(report)
    assert "Graph Count: 2" in text and "Graph Break Count: 1" in text and "FX501" in text


def test_bad_mode_is_an_error():
    with pytest.raises(ValueError, match="mode"):
        fxlint_capture.explain(lambda x: x, mode="fast")


def test_not_a_function_is_an_error():
    with pytest.raises(TypeError, match="Python function"):
        fxlint_capture.explain(torch.relu)(torch.randn(2))


def test_exception_inside_with_block_propagates_and_restores_grad_mode():
    def inside_no_grad(x):
        with torch.no_grad():
            y = x * 2
            raise KeyError("inside")
        return y

    x = torch.randn(3, requires_grad=True)
    assert torch.is_grad_enabled()
    with pytest.raises(KeyError, match="inside"):
        fxlint_capture.explain(inside_no_grad)(x)
    assert torch.is_grad_enabled()


def test_no_grad_is_in_the_graph_and_respected():
    lin = torch.nn.Linear(3, 3)

    def frozen(x):
        with torch.no_grad():
            y = lin(x)
        return y * 2

    report = fxlint_capture.explain(frozen)(torch.randn(2, 3))
    assert report.graph_count == 1
    assert not report.result.requires_grad
    assert report.ops_per_graph[0].count("torch._C._set_grad_enabled") == 2


def test_unsupported_opcode_in_captured_function_runs_it_eagerly():
    def matcher(x):
        match (x, 2):
            case (t, k):
                return t * k

    x = torch.randn(3)
    report = fxlint_capture.explain(matcher)(x)
    assert report.graph_count == 0
    (reason,) = report.break_reasons
    assert reason.reason == "unsupported bytecode MATCH_SEQUENCE"
    assert reason.user_stack[-1]["line"] == "case (t, k):"
    assert torch.equal(report.result, x * 2)


def test_deep_recursion_breaks_instead_of_overflowing():
    def depth(t, n):
        return t if n == 0 else depth(t + 1, n - 1)

    report = fxlint_capture.explain(depth)(torch.zeros(2), 100)
    assert torch.equal(report.result, torch.full((2,), 100.0))
    assert any("inlining too deep" in b.reason for b in report.break_reasons)


def test_tensors_inside_argument_containers_are_graph_inputs():
    def combine(images, extra):
        return images[0] * 2 + images[1] + extra["bias"]

    images = [torch.randn(2, 3), torch.randn(2, 3)]
    extra = {"bias": torch.randn(3)}
    report = fxlint_capture.explain(combine)(images, extra)
    gm = report.graphs[0]
    assert [n.op for n in gm.graph.nodes].count("placeholder") == 3
    assert not [n for n in gm.graph.nodes if n.op == "get_attr"]
    assert torch.allclose(gm(*report.graph_inputs[0]), combine(images, extra))
    sources = {g["source"] for g in report.guards}
    assert {"L['images'][0]", "L['images'][1]", "L['extra']['bias']"} <= sources


def test_guard_text_is_the_values_repr_cut_to_120_characters():
    class Holder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.cache = {"ab": torch.zeros(4, 196, dtype=torch.float16)}
            self.steps = list(range(10_000))
            self.small = {"k": [1, 2.5, "s", None, True], "e": set(), "one": (3,)}

        def forward(self, x):
            return x * len(self.cache) + len(self.steps) + len(self.small)

    report = fxlint_capture.explain(Holder())(torch.ones(2))
    detail = {g["source"]: g["detail"] for g in report.guards if g["kind"] == "CONSTANT_MATCH"}
    # Plain values read exactly as repr() writes them, up to the cut.
    assert detail["L['self'].small"] == repr({"k": [1, 2.5, "s", None, True], "e": set(), "one": (3,)})
    assert detail["L['self'].steps"] == repr(list(range(10_000)))[:117] + "..."
    # A tensor in a container is named by dtype and shape, not printed.
    assert detail["L['self'].cache"] == "{'ab': tensor(float16[4, 196])}"


def test_decoder_agrees_with_dis():
    import dis

    from fxlint_capture import _fxlint_capture

    for c in CASES:
        code = c.fn.__code__
        mine = _fxlint_capture.decode(code)
        ref = [i for i in dis.get_instructions(code) if i.opname not in ("CACHE", "EXTENDED_ARG")]
        assert [(m[0], m[1]) for m in mine] == [(i.offset, i.opname) for i in ref], c.name
        for m, i in zip(mine, ref):
            if i.opcode in dis.hasjrel:
                assert m[3] == i.argval, (c.name, m, i)
            if i.starts_line is not None:
                assert m[4] == i.starts_line, (c.name, m, i)


def test_generators_stay_lazy():
    log = []

    def counter():
        i = 0
        while True:
            log.append(i)
            yield i
            i += 1

    def consume(x):
        for _, k in zip(range(3), counter()):
            x = x + k
        return x, (t * 2 for t in (x, x + 1))

    report = fxlint_capture.explain(consume)(torch.zeros(2))
    assert report.graph_count == 1 and report.graph_break_count == 0
    assert log == [0, 1, 2]  # as in eager: the endless generator runs only as far as zip pulls it
    total, rest = report.result
    assert torch.equal(total, torch.full((2,), 3.0))
    # A generator that escapes the capture still runs when consumed afterwards.
    assert [t.tolist() for t in rest] == [[6.0, 6.0], [8.0, 8.0]]


class _Scale(torch.nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x * self.k + 1


_SCALES = [_Scale(k) for k in range(12)]


def _through_scales(x):
    total = 0.0
    for m in _SCALES:
        x = m(x)
        total += x.sum().item()  # a break in the loop: this frame runs eagerly
    return x, total


def test_a_unit_recompiled_past_dynamos_limit_runs_eagerly():
    # Each module's forward is a unit entered from the skipped loop; its constant
    # `k` differs every time, so every call fails the guards. Dynamo compiles 8
    # and runs the others eagerly (recompile_limit).
    report = fxlint_capture.explain(_through_scales)(torch.ones(3))
    assert report.graph_count == 8 == _dynamo_graph_count(types.SimpleNamespace(fn=_through_scales,
                                                                               inputs=lambda: (torch.ones(3),)))
    assert torch.equal(report.result[0], _through_scales(torch.ones(3))[0])
