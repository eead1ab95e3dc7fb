"""Capture cases: functions whose source marks the lines where capture must
break (`# break: CODE`) or record a side effect (`# side-effect: CODE`)."""

import inspect
import re

CASES = []
_MARK = re.compile(r"#\s*(break|side-effect):\s*(FX\d{3})")


class Case:
    def __init__(self, fn, graphs, inputs, breaks, strict_ok, specializations, also):
        self.fn = fn
        self.also = also  # helpers the case calls, whose marks count too
        self.name = fn.__name__
        self.graphs = graphs
        self.inputs = inputs
        self.breaks = breaks  # expected number of breaks when a marked line breaks more than once
        self.strict_ok = strict_ok
        self.specializations = specializations

    def marks(self, kind):
        """(line, code) pairs marked in the function's source."""
        out = []
        for obj in (self.fn, *self.also):
            lines, start = inspect.getsourcelines(obj)
            for offset, text in enumerate(lines):
                for m in _MARK.finditer(text):
                    if m.group(1) == kind:
                        out.append((start + offset, m.group(2)))
        return out

    def __repr__(self):
        return self.name


def case(graphs, inputs, breaks=None, strict_ok=None, specializations=(), also=()):
    def register(fn):
        CASES.append(Case(fn, graphs, inputs, breaks, strict_ok, specializations, also))
        return fn

    return register
