"""Return values of every shape become graph outputs that run, and every
captured graph is replayed on its recorded inputs and compared with what ran."""

import collections
import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import typing

import pytest
import torch
import torch.nn as nn

import fxlint_capture

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(fxlint_capture.__file__)))


class Pair(typing.NamedTuple):
    first: torch.Tensor
    second: torch.Tensor


@dataclasses.dataclass
class Output:
    logits: torch.Tensor
    hidden: tuple
    note: str = "kept"


@dataclasses.dataclass(frozen=True)
class Frozen:
    value: torch.Tensor
    scale: float


class Holder:
    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.name = "holder"


def named_tuple(x):
    return Pair(x * 2, x.sin())


def dataclass_output(x):
    h = x.relu()
    return Output(logits=h @ h.t(), hidden=(h, h + 1))


def frozen_dataclass(x):
    return Frozen(x * 3, 0.5)


def ordered_dict(x):
    return collections.OrderedDict(b=x.cos(), a=x * 4)


def return_types(x):
    return torch.max(x * 2, dim=1)


def custom_object(x):
    return Holder(x + 1, [x * 2, 3])


def nested(x):
    return {"pair": Pair(x, x * 2), "items": [Holder(x - 1, None)], "n": 7}


def with_dtype(x):
    return x * 2, x.dtype


CASES = [named_tuple, dataclass_output, frozen_dataclass, ordered_dict, return_types, custom_object, nested,
         with_dtype]


def _equal(a, b):
    """Same structure, types and values."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.equal(a, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_equal(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a):
        return all(_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if hasattr(a, "__dict__"):
        return _equal(vars(a), vars(b))
    return a == b


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_structured_output_is_flat_in_the_graph_and_rebuilt(fn):
    x = torch.randn(3, 4)
    report = fxlint_capture.explain(fn, mode="strict")(x)
    eager = fn(x)
    assert report.graph_count == 1 and report.ok, str(report)
    # The call's result keeps its own type and structure.
    assert _equal(report.result, eager)
    gm = report.graphs[0]
    out = gm(*report.graph_inputs[0])
    # The graph returns tensors only: no trace-time object is baked into its code.
    assert isinstance(out, tuple) and all(isinstance(t, torch.Tensor) for t in out), gm.code
    assert "tensor(" not in gm.code
    for node in gm.graph.nodes:
        if node.op != "output":
            assert node.users, f"{node} is computed but not returned:\n{gm.code}"
    rebuilt = report.rebuild_result(out)
    assert _equal(rebuilt, eager)
    assert report.replays == [{"graph": 0, "ok": True, "reason": None, "max_abs_diff": 0.0,
                               "compared": len(out), "skipped": 0}]
    assert report.to_json()["output_type"] == type(eager).__qualname__


def test_named_tuple_and_return_types_keep_their_types():
    report = fxlint_capture.explain(return_types)(torch.randn(3, 4))
    assert type(report.result) is torch.return_types.max
    rebuilt = report.rebuild_result(report.graphs[0](*report.graph_inputs[0]))
    assert type(rebuilt) is torch.return_types.max and rebuilt.indices.dtype == torch.int64
    report = fxlint_capture.explain(named_tuple)(torch.randn(3, 4))
    rebuilt = report.rebuild_result(report.graphs[0](*report.graph_inputs[0]))
    assert type(rebuilt) is Pair and torch.equal(rebuilt.second, report.result.second)


def test_plain_containers_stay_the_graph_output():
    def plain(x):
        return {"a": x * 2, "b": [x + 1, 3]}

    report = fxlint_capture.explain(plain)(torch.randn(2))
    assert report.output_spec is None
    out = report.graphs[0](*report.graph_inputs[0])
    assert isinstance(out, dict) and out["b"][1] == 3 and torch.equal(out["a"], report.result["a"])


def test_transformers_model_output():
    transformers = pytest.importorskip("transformers")
    config = transformers.BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=32, max_position_embeddings=16)
    torch.manual_seed(0)
    model = transformers.BertModel(config).eval()
    ids = torch.randint(0, 50, (2, 8))
    report = fxlint_capture.explain(model)(ids)
    with torch.no_grad():
        eager = model(ids)
    assert type(report.result) is type(eager)
    assert list(report.result.keys()) == list(eager.keys())
    assert all(r["ok"] for r in report.replays), report.replays
    if report.graph_count == 1:
        out = report.graphs[0](*report.graph_inputs[0])
        rebuilt = report.rebuild_result(out)
        assert type(rebuilt) is type(eager)
        assert torch.allclose(rebuilt.last_hidden_state, eager.last_hidden_state, atol=1e-5)
        assert torch.allclose(rebuilt["pooler_output"], eager.pooler_output, atol=1e-5)


def _self_removing_hook_model():
    lin = nn.Linear(3, 3)
    handle = None

    def doubling_once(module, args, out):
        handle.remove()
        return out * 2

    handle = lin.register_forward_hook(doubling_once)
    return lin


def test_graph_that_does_not_replay_what_ran_fails():
    lin = _self_removing_hook_model()

    def f(x):
        return lin(x) + 1

    x = torch.randn(2, 3)
    report = fxlint_capture.explain(f)(x)
    (entry,) = report.replays
    assert not entry["ok"] and "differs from what ran" in entry["reason"]
    assert not report.ok  # even in dynamo mode
    assert [f["code"] for f in report.to_json()["failures"]] == ["REPLAY"]
    assert "does not replay what ran" in str(report)

    lin = _self_removing_hook_model()

    def g(x):
        return lin(x) + 1

    strict = fxlint_capture.explain(g, mode="strict")(x)
    assert strict.graph_count == 1 and not strict.ok
    with pytest.raises(fxlint_capture.CaptureError, match="REPLAY"):
        strict.check()


def test_replay_of_every_graph_after_breaks():
    def broken(x):
        y = x * 2
        n = int(y.sum().item() > 0)
        z = y + n
        k = z[z > 0].sum()
        return (z * k).sin(), y

    report = fxlint_capture.explain(broken)(torch.randn(4))
    assert report.graph_count == 3
    assert len(report.replays) == 3 and all(r["ok"] for r in report.replays), report.replays


def test_a_break_that_writes_into_a_graph_output_leaves_its_replay_alone():
    # The slice bounds are tensors: the capture breaks at the store, which runs
    # eagerly and changes `out` in place after the first graph returned it
    # (Mask R-CNN's paste of each mask into the image).
    def paste(mask, box):
        out = torch.zeros(6, 6)
        x_0 = max(box[0], 0)
        x_1 = min(box[2] + 1, 6)
        out[:, x_0:x_1] = mask[:, (x_0 - box[0]):(x_1 - box[0])]
        return out

    mask, box = torch.rand(6, 6), torch.tensor([1, 0, 3, 4])
    report = fxlint_capture.explain(paste)(mask, box)
    assert report.graph_count == 2 and [b.code for b in report.break_reasons] == ["FX102"], str(report)
    assert torch.equal(report.result, paste(mask, box))
    assert all(r["ok"] for r in report.replays), report.replays


def test_replay_reproduces_random_ops_and_restores_state():
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Dropout(0.5)).train()

    def f(x):
        return model(x) + torch.rand_like(x[:, :1])

    torch.manual_seed(0)
    x = torch.randn(5, 4)
    before = model[1].running_mean.clone()
    report = fxlint_capture.explain(f)(x)
    after_capture = model[1].running_mean.clone()
    assert not torch.equal(before, after_capture)  # the capture ran the model once, in train mode
    assert all(r["ok"] and r["compared"] == 1 for r in report.replays), report.replays
    # The replay ran it again, and put the running statistics back.
    assert torch.equal(model[1].running_mean, after_capture)
    assert model[1].num_batches_tracked.item() == 1


def test_replay_leaves_inputs_alone():
    def inplace(x):
        x.mul_(2)
        return x + 1

    x = torch.ones(3)
    report = fxlint_capture.explain(inplace)(x)
    assert torch.equal(x, torch.full((3,), 2.0))  # eager semantics: mutated once
    assert report.replays[0]["ok"], report.replays
    assert torch.equal(report.graph_inputs[0][0], torch.ones(3))  # the value the graph took


def test_cli_fails_on_a_graph_that_does_not_replay(tmp_path):
    path = tmp_path / "hooked.py"
    path.write_text(textwrap.dedent('''
        import torch

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(3, 3)
                self.handle = self.fc.register_forward_hook(self.once)

            def once(self, module, args, out):
                self.handle.remove()
                return out * 2

            def forward(self, x):
                return self.fc(x) + 1
    '''))
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    for mode in ("strict", "dynamo"):
        run = subprocess.run([sys.executable, "-m", "fxlint_capture", f"{path}:Net", "float32[2,3]", "--mode", mode,
                              "--json"], capture_output=True, text=True, env=env, cwd=tmp_path)
        assert run.returncode == 1, run.stderr
        data = json.loads(run.stdout)
        assert data["graph_count"] == 1 and data["ok"] is False
        assert data["replay"][0]["ok"] is False
        assert any(f["code"] == "REPLAY" and "does not replay" in f["reason"] for f in data["failures"])


def _step(x):
    y = x * 2
    s = y.sum().item()
    return y + s


def test_a_unit_breaks_where_it_is_compiled_not_where_it_is_reused():
    def loop(x):
        for i in range(5):
            x = _step(x)
        return x

    # As TorchDynamo: the loop breaks inside its body, so its frame runs eagerly;
    # _step is a unit of its own, compiled once (its part before .item()), its resume
    # unit once for the first number and once more with the number left free.
    report = fxlint_capture.explain(loop)(torch.ones(2))
    assert report.graph_break_count == 1 and report.graph_count == 3
    (site,) = report.break_sites
    assert site["count"] == 1 and site["code"] == "FX101" and ".item()" in site["line"]
    assert site["filename"] == __file__
    assert all(r["ok"] for r in report.replays)
    assert torch.equal(report.result, loop(torch.ones(2)))


def _draws_then_breaks(x):
    y = x + torch.rand_like(x)
    n = int(y.sum() > 0)  # a break inside the inlined call
    return y * n


def _draws_then_calls(x):
    z = x * 2 + torch.rand_like(x)
    return _draws_then_breaks(z) + 1


def test_a_graph_that_draws_random_numbers_is_not_cut_at_a_break_in_a_call(monkeypatch):
    # Cut at the call, the callee's part would replay from the generator state the
    # caller's graph opened with, drawing the caller's numbers again.
    torch.manual_seed(0)
    report = fxlint_capture.explain(_draws_then_calls)(torch.randn(4))
    assert report.graph_count == 3 and all(r["ok"] for r in report.replays), report.replays

    from fxlint_capture import split

    monkeypatch.setattr(split, "_RANDOM", frozenset())  # what the refusal prevents
    torch.manual_seed(0)
    cut = fxlint_capture.explain(_draws_then_calls)(torch.randn(4))
    assert cut.graph_count == 4 and not all(r["ok"] for r in cut.replays), cut.replays


def _breaks_in_call(y):
    w = y * 2
    n = int(w.sum() > 0)  # a break inside the inlined call
    return w * n


def _calls_under_no_grad(x):
    z = x * 3
    with torch.no_grad():
        out = _breaks_in_call(z)
    return out + z


def test_a_graph_that_switches_grad_mode_is_not_cut_at_a_break_in_a_call(monkeypatch):
    # Cut at the call, the callee's part would replay in the grad mode the
    # caller's graph opened with, not the no_grad it ran under.
    x = torch.randn(4, requires_grad=True)
    report = fxlint_capture.explain(_calls_under_no_grad)(x)
    assert report.graph_count == 3 and all(r["ok"] for r in report.replays), report.replays
    assert report.result.requires_grad and torch.equal(report.result, _calls_under_no_grad(x))

    from fxlint_capture import split

    monkeypatch.setattr(split, "_STATEFUL", ())  # what the refusal prevents
    cut = fxlint_capture.explain(_calls_under_no_grad)(x)
    assert cut.graph_count == 4
    (failed,) = [r for r in cut.replays if not r["ok"]]
    assert "requires grad where the capture's does not" in failed["reason"]


def test_a_call_target_rebound_since_an_earlier_capture_is_not_named_by_its_old_name(monkeypatch):
    # A graph names a torch function by its qualified name. Once `torch.sigmoid`
    # is rebound, the original function can no longer be named so: the graph
    # must keep the object itself, or its code would call the new binding.
    original = torch.sigmoid

    def f(x):
        return original(x) + 1

    x = torch.randn(5)
    first = fxlint_capture.explain(f)(x)
    assert all(r["ok"] for r in first.replays), first.replays
    monkeypatch.setattr(torch, "sigmoid", lambda t: t * 0 - 7)
    second = fxlint_capture.explain(f)(x)
    assert all(r["ok"] for r in second.replays), second.replays
    out = second.graphs[0](*second.graph_inputs[0])
    assert torch.equal(out[0] if isinstance(out, tuple) else out, original(x) + 1)
