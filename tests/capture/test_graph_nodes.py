"""The capture adds nodes to its torch.fx graphs without Graph.create_node's
walk of every argument (fxlint_capture/nodes.py): the graphs it makes so must
be the graphs create_node makes, and a torch whose Graph differs must fall back."""

import torch
import torch.nn as nn

import fxlint_capture
from fxlint_capture import nodes


def test_lean_nodes_make_the_graph_create_node_makes():
    assert nodes._same_graphs(nodes._lean)
    assert nodes.make_node is nodes._lean  # the installed torch takes the lean path


def test_a_graph_that_differs_falls_back_to_create_node(monkeypatch):
    def broken(graph, op, target, args, kwargs, name):
        raise AttributeError("_find_nodes_lookup_table")

    monkeypatch.setattr(nodes, "_lean", broken)
    assert nodes._pick() is nodes._create_node

    def misnamed(graph, op, target, args, kwargs, name):
        return nodes._create_node(graph, op, target, args, kwargs, name + "_x")

    monkeypatch.setattr(nodes, "_lean", misnamed)
    assert nodes._pick() is nodes._create_node


def test_captured_graphs_are_well_formed_and_replay():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 5)).eval()

    def f(x):
        y = model(x)
        z = y.softmax(-1) * x.mean()
        n = int(z.argmax())  # a break: two graphs
        return z[:, n:] + y.sum(dim=1, keepdim=True)

    report = fxlint_capture.explain(f)(torch.randn(2, 3, 8, 8))
    assert report.graph_count == 2
    for g in report.fx_graphs:
        g.lint()
        assert all(len(n.users) > 0 for n in g.nodes if n.op not in ("output",)), g
    assert all(r["ok"] for r in report.replays), report.replays
