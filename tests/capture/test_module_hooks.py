"""Forward hooks and pre-hooks run under capture as nn.Module.__call__ runs
them, so the captured graph computes what eager computes; a pitfall inside a
hook is a break at the hook's line."""

import inspect

import pytest
import torch

import fxlint_capture


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.lin(x).relu()


class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.norm = torch.nn.LayerNorm(3)

    def forward(self, x):
        return self.norm(self.inner(x)) * 2


def scale_input(module, args):
    return (args[0] * 3,)


def shift_output(module, args, output):
    return output + 100


def check_in_one_graph(model, x):
    report = fxlint_capture.explain(model)(x)
    assert report.graph_count == 1 and report.graph_break_count == 0, str(report)
    with torch.no_grad():
        eager = model(x)
        graph = report.graphs[0](*report.graph_inputs[0])
    assert torch.allclose(report.result, eager) and torch.allclose(graph, eager)
    return report


def test_hooks_on_an_inlined_submodule_are_traced():
    torch.manual_seed(0)
    model = Outer().eval()
    model.inner.register_forward_pre_hook(scale_input)
    model.inner.register_forward_hook(shift_output)
    report = check_in_one_graph(model, torch.randn(2, 3))
    (ops,) = report.ops_per_graph
    assert ops[:4] == ["operator.mul", "module inner.lin", "Tensor.relu", "operator.add"]


def test_hooks_on_the_captured_module_and_on_a_leaf_module():
    torch.manual_seed(0)
    model = Outer().eval()
    model.register_forward_hook(shift_output)
    model.norm.register_forward_hook(shift_output)  # a leaf: the graph's call runs its hook
    report = check_in_one_graph(model, torch.randn(2, 3))
    # The inputs keep forward's names, as without hooks.
    sources = {g["source"] for g in report.to_json()["guards"]}
    assert "L['x']" in sources and not any("args" in s for s in sources), sources


def test_a_hook_returning_none_changes_nothing_and_removed_hooks_are_gone():
    torch.manual_seed(0)
    model = Outer().eval()
    seen = []
    model.inner.register_forward_hook(lambda m, a, out: seen.append(out.shape))
    handle = model.inner.register_forward_hook(shift_output)
    handle.remove()
    check_in_one_graph(model, torch.randn(2, 3))
    assert seen == [torch.Size([2, 3])] * 2  # capture and the eager check each ran it once


def test_a_pitfall_inside_a_hook_breaks_at_the_hook():
    def log_peak(module, args, output):
        peak = output.max().item()  # the break
        return output / peak

    torch.manual_seed(0)
    model = Outer().eval()
    model.inner.register_forward_hook(log_peak)
    x = torch.randn(2, 3)
    report = fxlint_capture.explain(model)(x)
    (reason,) = report.break_reasons
    assert reason.code == "FX101"
    line = inspect.getsourcelines(log_peak)[1] + 1
    assert [frame["name"] for frame in reason.user_stack] == ["forward", "log_peak"]  # the user's frames only
    assert reason.user_stack[-1]["lineno"] == line
    with torch.no_grad():
        assert torch.allclose(report.result, model(x))


@pytest.mark.skipif("with_kwargs" not in inspect.signature(torch.nn.Module.register_forward_hook).parameters,
                    reason="hooks with kwargs need torch 2")
def test_hooks_with_kwargs():
    torch.manual_seed(0)
    model = Outer().eval()
    model.inner.register_forward_pre_hook(lambda m, a, k: ((a[0] + 1,), k), with_kwargs=True)
    model.inner.register_forward_hook(lambda m, a, k, out: out * 3, with_kwargs=True)
    check_in_one_graph(model, torch.randn(2, 3))


def test_global_hooks_run_on_every_module():
    torch.manual_seed(0)
    model = Outer().eval()
    handle = torch.nn.modules.module.register_module_forward_hook(
        lambda m, a, out: out * 2 if isinstance(out, torch.Tensor) else out)
    try:
        x = torch.randn(2, 3)
        report = fxlint_capture.explain(model)(x)
        assert report.graph_count == 1 and report.graph_break_count == 0, str(report)
        with torch.no_grad():
            eager = model(x)
            # forward, not __call__: the graph module is a module too, and the global hook
            # would run once more on it.
            graph = report.graphs[0].forward(*report.graph_inputs[0])
        assert torch.allclose(report.result, eager) and torch.allclose(graph, eager)
        # The hook runner's own globals are not the user's: no guards on them.
        assert not any("hooks" in g["source"] for g in report.to_json()["guards"])
    finally:
        handle.remove()
