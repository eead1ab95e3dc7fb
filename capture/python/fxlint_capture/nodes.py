"""How the capture adds a node to a torch.fx graph.

`Graph.create_node` walks every argument of every node for symbolic values
(torch.SymInt and kin) to warn about them: a sixth of a capture's time on a
small model. The capture's arguments are the real values that ran, never
symbolic, so it adds its nodes the way create_node does without that walk,
and without asking the graph's namespace to check a name the capture already
made unique.
When this torch's Graph lacks what that needs, or a graph made so does not
match one made by create_node, create_node itself is used.
"""

import operator

import torch
from torch.fx import Graph
from torch.fx.node import Node


def _lean(graph, op, target, args, kwargs, name):
    # The capture names each node uniquely and legally itself (one name table
    # per graph): the namespace only has to learn the name.
    node = Node(graph, name, op, target, args, kwargs, None)
    namespace = graph._graph_namespace
    namespace._used_names.add(name)
    namespace._obj_to_name[node] = name
    graph._insert(node)
    graph._find_nodes_lookup_table.insert(node)
    graph._len += 1
    return node


def _create_node(graph, op, target, args, kwargs, name):
    return graph.create_node(op, target, args, kwargs, name)


def _same_graphs(make):
    """Whether `make` builds a graph that torch.fx accepts and that runs as create_node's does."""
    def build(maker):
        g = Graph()
        x = g.placeholder("x")
        y = maker(g, "call_function", operator.mul, (x, 2.0), {}, "mul")
        z = maker(g, "call_method", "sum", (y,), {"dim": 0}, "sum_1")
        with g.inserting_before(y):
            w = maker(g, "call_function", torch.neg, (x,), {}, "neg")
        g.output((z, w))
        g.lint()
        return torch.fx.GraphModule(torch.nn.Module(), g)

    x = torch.arange(6.0).reshape(2, 3)
    mine, theirs = build(make), build(_create_node)
    return mine.code == theirs.code and all(torch.equal(a, b) for a, b in zip(mine(x), theirs(x)))


def _pick():
    try:
        if _same_graphs(_lean):
            return _lean
    except Exception:  # noqa: BLE001 - this torch's Graph differs: use its own method
        pass
    return _create_node


make_node = _pick()
