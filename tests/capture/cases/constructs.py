"""Python constructs the capture follows into a single graph."""

import collections
import dataclasses
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F

from .registry import case

OFFSET = 1.5


def x43():
    return (torch.randn(4, 3),)


def _scale(t, factor=2.0, *, bias=0.0):
    return t * factor + bias


def _sum_all(*tensors, **weights):
    total = tensors[0] * 0
    for i, t in enumerate(tensors):
        total = total + t * weights.get(f"w{i}", 1.0)
    return total


@case(graphs=1, inputs=x43)
def arithmetic_and_calls(x):
    a = x + 1
    b = a * 2 - x / 3
    c = -b ** 2 // 4 % 5
    d = torch.relu(c) @ x.t()
    e = F.softmax(d, dim=-1).mean(dim=0, keepdim=True)
    f = x.sum(1).unsqueeze(1) > 0
    return e.sum() + f.float().sum() + x[1:, ::2].abs().sum() + x[0].sum()


@case(graphs=1, inputs=x43)
def augmented_assignment_on_numbers(x):
    # A Python number updated by a tensor has no in-place form: Python computes
    # `n + t`, a new tensor; a tensor updated in place stays an in-place op.
    total = 0
    total += x
    scale = 1.5
    scale *= total.sum(0)
    y = x.clone()
    y += 1
    y -= scale
    return total, y


class _ChannelsFirstNorm(nn.LayerNorm):
    # Calls its base class's forward through the class, as transformers' SqueezeBERT does.
    def forward(self, x):
        x = x.permute(1, 0)
        x = nn.LayerNorm.forward(self, x)
        return x.permute(1, 0)


_channels_first_norm = _ChannelsFirstNorm(4)


@case(graphs=1, inputs=x43)
def base_class_forward_called_through_the_class(x):
    return _channels_first_norm(x) * 2


class _PartialActivation(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = functools.partial(F.gelu, approximate="tanh")
        self.scale = functools.partial(_scale, factor=3.0)

    def forward(self, x):
        return self.scale(self.act(x), bias=1.0)


_partial_activation = _PartialActivation()


@case(graphs=1, inputs=x43)
def functools_partial(x):
    return _partial_activation(x) + functools.partial(torch.add, alpha=2)(x, x)


@case(graphs=1, inputs=x43)
def containers_and_unpacking(x):
    parts = [x, x * 2]
    parts.append(x * 3)
    d = {"a": parts[0], "b": parts[-1]}
    d["c"] = d["a"] + d["b"]
    first, *rest = parts
    a, (b, c) = first, (rest[0], rest[1])
    t = tuple(p.sum() for p in parts)
    return torch.stack([a, b, c, d["c"]]).sum() + sum(t) + len(rest)


@case(graphs=1, inputs=x43)
def loops(x):
    acc = x * 0
    for i in range(3):
        acc = acc + x * i
    for i, w in enumerate((0.5, 0.25)):
        acc = acc + w * i
    for a, b in zip([x, acc], [acc, x]):
        acc = acc + a * b
    for row in x:
        acc = acc + row
    return acc


@case(graphs=1, inputs=x43)
def calls_and_closures(x):
    k = 3

    def inner(t):
        return t * k + OFFSET

    y = _scale(x, 0.5, bias=1.0)
    z = _sum_all(x, y, w1=0.25)
    ys = list(map(inner, [x, y]))
    return inner(z) + ys[1] + (lambda t: t.sin())(x)


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, n)
        self.register_buffer("shift", torch.ones(n))
        self.gain = nn.Parameter(torch.full((n,), 0.5))

    def forward(self, x):
        return self.helper(self.lin(x)) + self.shift

    def helper(self, y):
        return F.gelu(y) * self.gain


class Base(nn.Module):
    def forward(self, x):
        return x + 1


class Derived(Base):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3), Block(3)])
        self.seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU())

    def forward(self, x):
        x = super().forward(x)
        for block in self.blocks:
            x = block(x)
        with torch.no_grad():
            y = self.seq(x)
        return x + y


_derived = Derived()


@case(graphs=1, inputs=x43)
def modules_super_and_no_grad(x):
    return _derived(x)


@case(graphs=1, inputs=x43)
def exceptions_handled_inside(x):
    try:
        raise KeyError("absent")
    except KeyError:
        x = x + 1
    try:
        y = x * 2
    finally:
        y = y + 1
    return y


def _checked(t):
    if t.shape[0] > 2:
        raise IndexError("too many rows")
    return t


@case(graphs=1, inputs=x43)
def exception_from_inlined_helper(x):
    try:
        y = _checked(x * 2)
    except IndexError:
        y = x * 3
    return y + 1


@case(graphs=1, inputs=x43)
def generator_expression_and_dict_comprehension(x):
    rows = {i: r * i for i, r in enumerate(x)}
    return sum(r.sum() for r in rows.values()) + max(len(rows), 2)


@dataclasses.dataclass
class Pair:
    a: torch.Tensor
    b: int = 1


Point = collections.namedtuple("Point", ["u", "v"])


class _Scaled:
    def __init__(self, t, factor=2):
        self.t = t
        self.factor = factor

    def value(self):
        return self.t * self.factor


class _Tracker:
    def __init__(self):
        self.entered = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, *exc):
        return False


@case(graphs=1, inputs=x43)
def python_semantics(x):
    p = Point(x, 2)
    q = Pair(x * 2)
    s = _Scaled(x, factor=3)
    n = x.shape[0]
    label = f"{n:02d}-{'even' if n % 2 == 0 else 'odd'}"
    flags = {k: v for k, v in zip("abc", range(3)) if v}
    merged = {**flags, "z": 9}
    uniq = {i % 2 for i in range(5)}
    args = [x, 1.0]
    if 0 < n < 10 and isinstance(p, tuple) and not isinstance(n, (list, dict)):
        y = torch.add(*args)
    else:
        y = x
    assert n > 0, "python assert"
    if (m := len(merged)) > 2:
        y = y + m
    t = _Tracker()
    with t as tracked:
        y = y * tracked.entered
    try:
        _ = merged["missing"]
    except KeyError:
        y = y + 1
    else:
        y = y - 100
    finally:
        y = y * 1
    rows = x[None, ..., 0:3][0]
    del flags
    return y + p.u * p.v + q.a * q.b + s.value() + rows + len(label) + len(uniq)


@case(graphs=1, inputs=x43)
def builtin_max_min_of_a_tensor_and_a_number(x):
    # TorchDynamo reads these as torch.clamp / torch.maximum, without a break.
    lo = max(x[0, 0], 0)
    hi = min(x[1, 1] + 1, 2.5)
    both = max(x[2, 0], x[2, 1])
    return x * lo + hi - both


# A break inside inlined calls: Dynamo compiles one graph per frame the break
# passed through (the caller's part up to the call, each callee's up to its own
# call), then resumes in each.
def _innermost(x):
    y = x * 2
    n = int(y.sum())  # break: FX102
    return y + n


def _middle(x):
    z = torch.relu(x) - 1
    return _innermost(z) * 3


@case(graphs=6, inputs=x43, also=(_innermost,))
def break_two_calls_deep(x):
    a = x + 1
    b = _middle(a)
    return b - a


def _logs_then_breaks(x):
    # the loop makes Dynamo skip this frame after the break: its part runs eagerly
    for i in range(2):
        x = x + i
        if x.sum() > 0:  # break: FX103
            x = x * 2
    return x


@case(graphs=2, inputs=x43, also=(_logs_then_breaks,))
def break_in_a_looping_callee(x):
    a = torch.cos(x)
    b = _logs_then_breaks(a)
    return b * a


@case(graphs=5, inputs=x43, also=(_innermost,))
def break_in_a_call_before_any_op(x):
    # nothing is recorded before the call: the caller's part is empty, no graph
    return _middle(x) + x


class _Gelu(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * 0.5 * (1.0 + torch.tanh(0.79788456 * t * (1 + 0.044715 * t * t)))

    @staticmethod
    def backward(ctx, grad):
        (t,) = ctx.saved_tensors
        return grad * torch.sigmoid(1.702 * t)


@torch.jit.script
def _scripted_scale(t: torch.Tensor, dim: int) -> torch.Tensor:
    return t / t.abs().sum(dim, keepdim=True).clamp_min(1e-6)


@case(graphs=1, inputs=x43)
def autograd_function_and_scripted_function(x):
    # Called by the capture as they are; the graph's code must name them so that it calls them.
    return _scripted_scale(_Gelu.apply(x * 2), 1) + 1
