"""The capture report: what explain() returns, printable and JSON-serializable."""

import dataclasses
import json


class CaptureError(Exception):
    """A strict capture failed; ``report`` says why."""

    def __init__(self, report):
        super().__init__("strict capture failed:\n" + "\n".join(
            f"  {f['code']}: {f['reason']}" for f in report.failures))
        self.report = report


@dataclasses.dataclass
class BreakReason:
    reason: str
    code: str
    gb_id: object
    user_stack: list
    graph_index: int = 0

    def to_json(self):
        return {"reason": self.reason, "code": self.code, "gb_id": self.gb_id, "user_stack": self.user_stack}


def _op_name(node):
    if node.op == "call_method":
        return f"Tensor.{node.target}"
    if node.op == "call_module":
        return f"module {node.target}"
    target = node.target
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", None) or str(target)
    if module in ("_operator", "operator"):
        return f"operator.{name}"
    if module.startswith("torch"):
        if module in ("torch._C._VariableFunctions",) or module == "torch":
            return f"torch.{name}"
        return f"{module}.{name}"
    return f"{module}.{name}" if module else name


class CaptureReport:
    """Graphs, graph breaks, guards, side effects and timing of one capture."""

    def __init__(self, mode, fx_graphs, attrs, graph_inputs, break_reasons, guards, side_effects, specializations,
                 compile_time_s, result, output_spec=None, replays=None):
        self.mode = mode
        self.fx_graphs = fx_graphs  # torch.fx.Graph objects, in execution order
        self._attrs = attrs
        self._graph_modules = None
        self.graph_inputs = graph_inputs
        self.break_reasons = break_reasons
        self.guards = guards
        self.side_effects = side_effects
        self.specializations = specializations
        self.compile_time_s = compile_time_s
        self.result = result
        # None when the last graph returns the result as it is; else how to rebuild
        # the result (NamedTuple, dataclass, OrderedDict, ...) from its flat tensors.
        self.output_spec = output_spec
        self.replays = replays  # one dict per graph, or None when not replayed
        self.replay_time_s = None

    def rebuild_result(self, graph_output):
        """The call's result, in its own structure and types, from what the last
        graph returned (its flat tensors when output_spec is set)."""
        if self.output_spec is None:
            return graph_output
        from .outputs import unflatten

        return unflatten(self.output_spec, list(graph_output))

    @property
    def replay_failures(self):
        """Graphs that do not replay what ran, as failures."""
        return [{"reason": f"graph {r['graph'] + 1} does not replay what ran: {r['reason']}", "code": "REPLAY",
                 "gb_id": None, "user_stack": []}
                for r in (self.replays or []) if not r["ok"]]

    @property
    def break_sites(self):
        """Distinct places (file:line of the user's innermost frame) where the
        capture broke, with how often: a break in a loop breaks once per iteration."""
        sites = {}
        for b in self.break_reasons:
            frame = b.user_stack[-1] if b.user_stack else {}
            key = (frame.get("filename", "?"), frame.get("lineno", 0))
            if key not in sites:
                sites[key] = {"filename": key[0], "lineno": key[1], "code": b.code, "reason": b.reason,
                              "line": frame.get("line"), "count": 0}
            sites[key]["count"] += 1
        return list(sites.values())
    @property
    def graphs(self):
        """The captured graphs as GraphModules (built on first use: codegen is not capture)."""
        if self._graph_modules is None:
            import torch.fx

            self._graph_modules = [torch.fx.GraphModule(self._attrs, g) for g in self.fx_graphs]
        return self._graph_modules

    @property
    def graph_count(self):
        return len(self.fx_graphs)

    @property
    def graph_break_count(self):
        return len(self.break_reasons)

    @property
    def ops_per_graph(self):
        return [[_op_name(n) for n in g.nodes if n.op in ("call_function", "call_method", "call_module")]
                for g in self.fx_graphs]

    @property
    def op_count(self):
        return sum(len(ops) for ops in self.ops_per_graph)

    @property
    def failures(self):
        """What makes a strict (fullgraph) capture fail: every break, side effect
        and graph that does not replay what ran."""
        out = [b.to_json() for b in self.break_reasons]
        out += [{"reason": f"side effect: {s['kind']} {s['target']}", "code": s["code"], "gb_id": None,
                 "user_stack": s["user_stack"]} for s in self.side_effects]
        return out + self.replay_failures

    @property
    def ok(self):
        if self.mode == "strict":
            return not self.failures and self.graph_count <= 1
        return not self.replay_failures

    def check(self):
        """Raises CaptureError when a strict capture failed; returns the report otherwise."""
        if not self.ok:
            raise CaptureError(self)
        return self

    def to_json(self):
        return {
            "mode": self.mode,
            "ok": self.ok,
            "graph_count": self.graph_count,
            "graph_break_count": self.graph_break_count,
            "break_reasons": [b.to_json() for b in self.break_reasons],
            "op_count": self.op_count,
            "ops_per_graph": self.ops_per_graph,
            "guards": self.guards,
            "side_effects": self.side_effects,
            "specializations": self.specializations,
            "failures": self.failures if self.mode == "strict" else self.replay_failures,
            "break_sites": self.break_sites,
            "replay": self.replays,
            "output_type": None if self.output_spec is None else self.output_spec.type_name,
            "compile_time_s": self.compile_time_s,
            "replay_time_s": self.replay_time_s,
        }

    def dumps(self, **kwargs):
        return json.dumps(self.to_json(), **kwargs)

    def __str__(self):
        lines = [f"Graph Count: {self.graph_count}", f"Graph Break Count: {self.graph_break_count}"]
        if self.break_reasons:
            lines.append(f"Break Sites: {len(self.break_sites)}")
        lines += [f"Op Count: {self.op_count}", "Break Reasons:"]
        for i, b in enumerate(self.break_reasons, 1):
            gb = f" [{b.gb_id}]" if b.gb_id else ""
            lines.append(f"  Break Reason {i}:")
            lines.append(f"    Reason: {b.reason}")
            lines.append(f"    Code: {b.code}{gb}")
            lines.append("    User Stack:")
            for fr in b.user_stack:
                lines.append(f"      <FrameSummary file {fr['filename']}, line {fr['lineno']} in {fr['name']}>")
                if fr.get("line"):
                    lines.append(f"        {fr['line']}")
        lines.append("Ops per Graph:")
        for i, ops in enumerate(self.ops_per_graph, 1):
            lines.append(f"  Ops {i}:")
            lines.extend(f"    {op}" for op in ops)
        lines.append("Out Guards:")
        for i, g in enumerate(self.guards, 1):
            lines.append(f"  Guard {i}: {g['source']} {g['kind']} {g['detail']}")
        if self.side_effects:
            lines.append("Side Effects:")
            for s in self.side_effects:
                where = s["user_stack"][-1] if s["user_stack"] else {}
                lines.append(f"  {s['code']} {s['kind']} {s['target']} ({s['value_type']}) "
                             f"at {where.get('filename', '?')}:{where.get('lineno', '?')}")
        if self.specializations:
            lines.append("Specializations:")
            for s in self.specializations:
                lines.append(f"  {s['name']} = {s['value']} ({s['type']})")
        if self.replays is not None:
            bad = [r for r in self.replays if not r["ok"]]
            lines.append(f"Replay: {len(self.replays) - len(bad)} of {len(self.replays)} graphs replay what ran")
            for r in bad:
                lines.append(f"  graph {r['graph'] + 1} does not replay what ran: {r['reason']}")
        if self.mode == "strict":
            lines.append(f"Strict: {'ok' if self.ok else 'FAILED'}")
        lines.append(f"Compile Time: {self.compile_time_s:.4f} s")
        return "\n".join(lines)

    __repr__ = __str__
