"""Splitting a graph at the calls into the frames a break passed through.

Dynamo compiles a break inside an inlined call as one graph per frame: the
caller's graph ends at the call, and the callee, entered again from eager code,
is traced as a unit of its own up to the break. The capture runs each
instruction once, so it recorded those frames into one graph; at the break it
cuts that graph where each frame was entered (a position among the graph's
nodes) into the graphs Dynamo makes.
"""

import operator

import torch

# Operations that draw from a random number generator: a graph opened after one of
# them would replay from a generator state the capture did not keep.
_RANDOM = frozenset({
    "rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "randperm", "normal", "bernoulli",
    "multinomial", "poisson", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
    "feature_alpha_dropout", "rrelu", "uniform_", "normal_", "bernoulli_", "exponential_", "geometric_",
    "log_normal_", "cauchy_", "random_", "rrelu_", "native_dropout",
})


# Calls that switch global state the graph's later nodes run under: a graph
# opened after one would replay in the state the capture kept when it opened.
_STATEFUL = (torch._C._set_grad_enabled,)


def _name(node):
    target = node.target
    return target if isinstance(target, str) else getattr(target, "__name__", "")


def _segment_of(nodes, cuts):
    """The segment of each non-placeholder node: 0 before cuts[0], i after cuts[i-1]."""
    seg, s = {}, 0
    for i, node in enumerate(nodes):
        while s < len(cuts) and i >= cuts[s]:
            s += 1
        seg[node] = s
    return seg


def split(graph, cuts, keep):
    """Cuts `graph` (no output node yet) at `cuts`, ascending positions among its
    non-placeholder nodes; segment 0 stays in `graph`, segment i (1..len(cuts))
    moves to a graph of its own when keep[i], else is dropped (its frame runs
    eagerly). A `getitem` of a value made in an earlier segment stays with it.

    Returns None when the graph cannot be cut safely (random draws or grad-mode
    switches, whose state at a cut was not kept), else a dict: `graphs`, one per
    segment 1.. (None when dropped or empty), each {graph, inputs (the old nodes
    its placeholders stand for) and placeholders, in order, mapping (old node ->
    new node), call_nodes, created (its non-placeholder nodes), first (the first
    of them), names (every node's), get_attrs (target -> node)}; `moved`, the old
    nodes leaving `graph`; `call_nodes`, what stays.
    """
    nodes = [n for n in graph.nodes if n.op != "placeholder"]
    if not cuts or any(n.op == "output" for n in nodes):
        return None
    for n in nodes:
        if n.op in ("call_function", "call_method") and (
                _name(n) in _RANDOM or n.target in _STATEFUL):
            return None
    seg = _segment_of(nodes, cuts)
    for n in nodes:  # an element taken out of an earlier segment's value belongs to it
        if n.op == "call_function" and n.target is operator.getitem and isinstance(n.args[0], torch.fx.Node):
            parent = seg.get(n.args[0], 0)
            if parent < seg[n]:
                seg[n] = parent
    out = []
    moved = []
    for s in range(1, len(cuts) + 1):
        members = [n for n in nodes if seg[n] == s]
        moved.extend(members)
        calls = sum(1 for n in members if n.op in ("call_function", "call_method", "call_module"))
        if not keep[s] or calls == 0:
            out.append(None)
            continue
        new = torch.fx.Graph()
        env, inputs = {}, []

        def arg(a, new=new, env=env, inputs=inputs, s=s):
            if a in env:
                return env[a]
            if a.op == "get_attr":
                env[a] = new.get_attr(a.target)
            else:  # made before this segment: an input
                env[a] = new.placeholder(a.name)
                inputs.append(a)
            return env[a]

        # Placeholders first, as the capture keeps them: each input in order of first use.
        for n in members:
            for a in n.all_input_nodes:
                if seg.get(a) != s and a.op not in ("get_attr",) and a not in env:
                    arg(a)
        for n in members:
            env[n] = new.node_copy(n, arg)
        made = [n for n in new.nodes if n.op != "placeholder"]
        out.append({"graph": new, "inputs": inputs, "placeholders": [env[a] for a in inputs],
                    "mapping": {n: env[n] for n in members}, "call_nodes": calls, "created": len(made),
                    "first": made[0] if made else None, "names": [n.name for n in new.nodes],
                    "get_attrs": {n.target: n for n in made if n.op == "get_attr"}})
    return {"graphs": out, "moved": moved,
            "call_nodes": sum(1 for n in nodes if seg[n] == 0
                              and n.op in ("call_function", "call_method", "call_module"))}


def remove(graph, moved):
    """Takes the moved nodes out of `graph`, last first (each one's users go before it);
    returns the first node left that is not a placeholder, or None."""
    for n in reversed(moved):
        graph.erase_node(n)
    return next((n for n in graph.nodes if n.op != "placeholder"), None)
