"""Side effects are reported for containers that outlive the call, never for
containers the captured code has just made."""

import copy

import pytest
import torch

import fxlint_capture


def _targets(report):
    return [(s["target"], s["code"]) for s in report.side_effects]


def own_kwargs(x, **kw):
    scale = kw.pop("scale", 1.0)
    kw.setdefault("shift", 0.0)
    kw["extra"] = 1
    return x * scale + kw["shift"]


def copies(x, sizes, table):
    a = sizes.copy()
    a.append(3)
    b = sizes[:]
    b[0] = 7
    c = copy.copy(sizes)
    c.insert(0, 1)
    d = dict(table)
    d["new"] = x
    e = list(sizes)
    e.append(4)
    f = table.copy()
    f.pop("k")
    g = sizes + [5]
    g.append(6)
    h = sorted(sizes)
    h.reverse()
    s = set(sizes).copy()
    s.add(9)
    return x * (len(a) + len(b) + len(c) + len(d) + len(e) + len(f) + len(g) + len(h) + len(s))


def test_kwargs_dict_of_the_function_itself_is_fresh():
    report = fxlint_capture.explain(own_kwargs, mode="strict")(torch.ones(2), scale=2.0, shift=1.0)
    assert report.side_effects == [] and report.ok, str(report)
    assert torch.equal(report.result, torch.full((2,), 3.0))


def test_copies_of_outer_containers_are_fresh():
    sizes, table = [2, 1], {"k": 1}
    report = fxlint_capture.explain(copies, mode="strict")(torch.ones(2), sizes, table)
    assert report.side_effects == [] and report.ok, str(report)
    assert report.graph_count == 1 and report.graph_break_count == 0
    assert sizes == [2, 1] and table == {"k": 1}  # nothing outside changed
    assert torch.equal(report.result, copies(torch.ones(2), [2, 1], {"k": 1}))


def test_mutating_outer_containers_is_still_reported():
    outer, lookup = [1], {"k": [1]}

    def mutates(x, kw_outer):
        outer.append(2)  # a global list
        kw_outer.pop("a")  # a dict passed in
        inner = lookup.get("k")  # a list another container holds
        inner.append(x)
        return x + 1

    passed = {"a": 1}
    report = fxlint_capture.explain(mutates)(torch.ones(2), passed)
    assert _targets(report) == [("list.append", "FX204"), ("dict.pop", "FX204"), ("list.append", "FX404")]
    assert passed == {} and outer == [1, 2]


def test_copy_of_a_tensor_still_breaks():
    def copies_tensor(x):
        return copy.copy(x) + 1

    report = fxlint_capture.explain(copies_tensor)(torch.ones(2))
    assert [b.code for b in report.break_reasons] == ["FX502"]


def test_swin_t_has_no_side_effects_in_strict_mode():
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    model = torchvision.models.swin_t().eval()
    x = torch.randn(1, 3, 64, 64)
    report = fxlint_capture.explain(model, mode="strict")(x)
    assert report.side_effects == [], str(report)
    assert report.ok and report.graph_count == 1, str(report)
    with torch.no_grad():
        assert torch.allclose(report.result, model(x), atol=1e-5)


def test_sorted_min_max_key_functions_are_interpreted():
    def by_value(x):
        parts = [x * 3, x, x * 2]
        ordered = sorted(parts, key=lambda t: t.sum().item(), reverse=True)
        smallest = min(parts, key=lambda t: float(t.sum()))
        return torch.stack(ordered) + smallest

    x = torch.ones(2)
    report = fxlint_capture.explain(by_value)(x)
    # The keys read Python numbers from tensors: FX101 / FX102 at the lambdas' line,
    # not a comparison of tensors (FX103). Each key function breaks once: as under
    # TorchDynamo, it is a unit compiled for the first item and reused for the others.
    assert [b.code for b in report.break_reasons] == ["FX101", "FX102"], str(report)
    assert {b.user_stack[-1]["name"] for b in report.break_reasons} == {"<lambda>"}
    assert torch.equal(report.result, by_value(x))
    assert all(r["ok"] for r in report.replays)

    def by_tensor(x):
        return max([x, x * 2], key=lambda t: t.sum())

    report = fxlint_capture.explain(by_tensor)(x)
    assert [b.code for b in report.break_reasons] == ["FX103"]
    assert torch.equal(report.result, x * 2)
    assert sorted([], key=lambda t: t) == fxlint_capture.explain(lambda: sorted([], key=lambda t: t))().result
