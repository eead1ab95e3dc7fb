"""One case per pattern of the rule catalog (pitfalls.md), with TorchDynamo's
verdict: the graph count, and where and why each graph break happens."""

import copy
import logging
import math
import random
import time
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

from .registry import case

log = logging.getLogger("fxlint_capture_cases")


def x43():
    return (torch.randn(4, 3),)


def positive():
    return (torch.rand(4, 3) + 0.1,)


# FX101 tensor-item

@case(graphs=2, inputs=x43)
def item(x):
    s = x.sum().item()  # break: FX101
    return x * s


# FX102 tensor-to-python

@case(graphs=2, inputs=x43)
def tolist(x):
    v = x.sum(0).tolist()  # break: FX102
    return x + v[0]


@case(graphs=2, inputs=x43)
def int_of_tensor(x):
    n = int(x.argmax())  # break: FX102
    return x * n


@case(graphs=1, inputs=x43)
def numpy_of_tensor(x):
    a = x.numpy()  # break: FX102
    return x * 2 + len(a)


@case(graphs=2, inputs=x43)
def tensor_slice_bound(x):
    n = x.argmax() % 4 + 1
    y = x[:n]  # break: FX102
    return y * 2


# FX103 tensor-condition

@case(graphs=2, inputs=x43)
def if_on_tensor(x):
    y = x * 2
    if y.sum() > 0:  # break: FX103
        y = y - 1
    return y.relu()


@case(graphs=2, inputs=x43)
def conditional_expression(x):
    y = x * 2
    y = y if y.mean() > 0 else -y  # break: FX103
    return y + 1


@case(graphs=3, inputs=positive, breaks=2)
def and_of_tensors(x):
    if (x > 0).any() and (x < 2).all():  # break: FX103
        x = x + 1
    return x


@case(graphs=2, inputs=positive)
def not_of_tensor(x):
    if not x.any():  # break: FX103
        return x
    return x * 3


# TorchDynamo compiles the loop test once and the loop body once (its resume
# function), then reuses them on each later iteration: two graphs, two breaks.
@case(graphs=2, inputs=lambda: (torch.full((4,), 4.0),), breaks=2)
def while_on_tensor(x):
    while x.sum() > 1:  # break: FX103
        x = x / 2
    return x


# The comprehension breaks inside its loop: Dynamo runs it eagerly, once.
@case(graphs=2, inputs=lambda: (torch.tensor([[1.0, 2.0], [-3.0, 1.0], [2.0, 2.0]]),), breaks=1)
def comprehension_filter(x):
    kept = [row for row in x if row.sum() > 0]  # break: FX103
    return torch.stack(kept)


# FX104 tensor-assert: TorchDynamo keeps it in the graph as torch._assert.

@case(graphs=1, inputs=positive)
def tensor_assert(x):
    assert (x > 0).all(), "inputs must be positive"
    return x.log()


# FX105 data-dependent-loop

@case(graphs=1, inputs=lambda: (torch.randn(4, 3), torch.tensor(3)))
def data_dependent_loop(x, n):
    for i in range(int(n)):  # break: FX102
        x = x + i
    return x


# FX201 / FX202 global reads: guarded and baked in, no break.

SCALE = 2.5
DEBUG = False


@case(graphs=1, inputs=x43, specializations=("SCALE",))
def global_read(x):
    return x * SCALE


@case(graphs=1, inputs=x43, specializations=("DEBUG",))
def global_condition(x):
    if DEBUG:
        x = x + 100
    return x * 2


# FX203 / FX204 Python state written from compiled code: side effects.

COUNTER = 0
LOG = []
CACHE = {}


@case(graphs=1, inputs=x43, strict_ok=False)
def global_mutation(x):
    global COUNTER
    COUNTER += 1  # side-effect: FX203
    return x + 1


class Steps(nn.Module):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def forward(self, x):
        self.steps += 1  # side-effect: FX203
        return x * 2


_steps = Steps()


@case(graphs=1, inputs=x43, strict_ok=False, also=(Steps,))
def attribute_mutation(x):
    return _steps(x)


def _make_counter():
    n = 0

    def count(x):
        nonlocal n
        n += 1  # side-effect: FX203
        return x - n

    return count


_count = _make_counter()


@case(graphs=1, inputs=x43, strict_ok=False, also=(_make_counter,))
def nonlocal_mutation(x):
    return _count(x)


@case(graphs=1, inputs=x43, strict_ok=False)
def outer_container_mutation(x):
    LOG.append(3)  # side-effect: FX204
    CACHE["k"] = 1  # side-effect: FX204
    return x * 2


# FX3xx dynamic shapes

@case(graphs=2, inputs=x43)
def mask_index(x):
    y = x[x > 0]  # break: FX301
    return y.sum() * 2


@case(graphs=1, inputs=x43)
def mask_assign(x):
    # TorchDynamo traces the assignment as one index_put_: no break.
    z = x.clone()
    z[z < 0] = 0
    z[z > 1] = x.sum()
    return z * 2


@case(graphs=2, inputs=x43)
def mask_assign_of_a_mask_read(x):
    z = x.clone()
    z[z < 0] = x[x < 0] * 2  # break: FX301
    return z * 2


_LSTM = nn.LSTM(3, 3)


@case(graphs=0, inputs=x43)
def recurrent_module(x):
    # TorchDynamo cannot load nn.LSTM / GRU / RNN (GB0014) and runs the whole frame eagerly.
    y, _ = _LSTM((x * 2).unsqueeze(1))  # break: FX502
    return y.squeeze(1) + 1


@case(graphs=2, inputs=x43)
def nonzero(x):
    idx = (x * 2).nonzero()  # break: FX303
    return idx.float() + 1


@case(graphs=2, inputs=x43)
def argwhere(x):
    idx = torch.argwhere(x * 2)  # break: FX303
    return idx + 1


@case(graphs=2, inputs=x43)
def where_one_argument(x):
    rows, cols = torch.where(x * 2 > 0)  # break: FX303
    return rows + cols


@case(graphs=2, inputs=lambda: (torch.tensor([3, 1, 3, 2]),))
def unique(labels):
    vals = torch.unique(labels * 2)  # break: FX303
    return vals + 1


@case(graphs=2, inputs=lambda: (torch.tensor([3, 3, 1, 2]),))
def unique_consecutive(labels):
    runs = (labels * 2).unique_consecutive()  # break: FX303
    return runs + 1


@case(graphs=2, inputs=x43)
def masked_select(x):
    sel = torch.masked_select(x, x > 0)  # break: FX303
    return sel * 2


@case(graphs=2, inputs=lambda: (torch.tensor([3, 1, 3, 2]),))
def bincount(labels):
    hist = torch.bincount(labels + 1)  # break: FX303
    return hist * 2


@case(graphs=2, inputs=lambda: (torch.randn(3, 2), torch.tensor([1, 2, 1])))
def repeat_interleave_tensor(x, repeats):
    rep = torch.repeat_interleave(x * 2, repeats, dim=0)  # break: FX303
    return rep + 1


@case(graphs=2, inputs=lambda: (torch.tensor([0, 2, 1]),))
def one_hot_without_classes(labels):
    hot = F.one_hot(labels * 1)  # break: FX303
    return hot + 1


# Dynamo breaks inside torchvision.ops.nms: the caller's part and nms's own (its
# usage logging) are two graphs before the break, then the rest.
@case(graphs=3, inputs=lambda: (torch.tensor([[0.0, 0, 2, 2], [0.1, 0.1, 2, 2], [5, 5, 6, 6]]),
                                torch.tensor([0.9, 0.8, 0.7])))
def nms(boxes, scores):
    keep = torchvision.ops.nms(boxes * 1, scores, 0.5)  # break: FX303
    return keep + 1


# FX304 data-dependent-size: the size comes from .item(), which breaks.

@case(graphs=2, inputs=x43)
def data_dependent_size(x):
    n = int(x.abs().sum().ceil().item())  # break: FX101
    return torch.zeros(n) + x.sum()


# FX4xx tensors stored outside the function.

LAST = None
KEPT = []


@case(graphs=1, inputs=x43, strict_ok=False)
def global_tensor_assign(x):
    global LAST
    LAST = x * 2  # side-effect: FX401
    return LAST + 1


def _make_holder():
    t = None

    def hold(x):
        nonlocal t
        t = x + 1  # side-effect: FX402
        return t * 2

    return hold


_hold = _make_holder()


@case(graphs=1, inputs=x43, strict_ok=False, also=(_make_holder,))
def nonlocal_tensor_assign(x):
    return _hold(x)


class Remember(nn.Module):
    def forward(self, x):
        y = x.relu()
        self.last = y  # side-effect: FX403
        return y + 1


_remember = Remember()


@case(graphs=1, inputs=x43, strict_ok=False, also=(Remember,))
def attribute_tensor_assign(x):
    return _remember(x)


@case(graphs=1, inputs=x43, strict_ok=False)
def outer_container_store(x):
    y = x * 2
    KEPT.append(y)  # side-effect: FX404
    return y


# FX5xx other graph breaks

@case(graphs=2, inputs=x43)
def print_call(x):
    y = x * 2
    print("shape", y.shape)  # break: FX501
    return y + 1


@case(graphs=2, inputs=x43)
def logging_call(x):
    y = x * 2
    log.info("shape %s", y.shape)  # break: FX501
    return y + 1


@case(graphs=2, inputs=x43)
def warnings_call(x):
    y = x * 2
    warnings.warn("fxlint capture case", stacklevel=1)  # break: FX501
    return y + 1


@case(graphs=2, inputs=x43)
def numpy_call(x):
    y = x * 2
    a = np.asarray(y)  # break: FX502
    return y + len(a)


@case(graphs=2, inputs=x43)
def time_call(x):
    y = x * 2
    t = time.time()  # break: FX502
    return y + (t > 0)


@case(graphs=2, inputs=x43)
def random_call(x):
    y = x * 2
    r = random.random()  # break: FX502
    return y + r * 0


@case(graphs=2, inputs=x43)
def deepcopy_call(x):
    y = x * 2
    z = copy.deepcopy(y)  # break: FX502
    return z + 1


@case(graphs=2, inputs=positive)
def math_on_tensor(x):
    y = x.sum() * 2
    r = math.sqrt(y)  # break: FX502
    return x * r


@case(graphs=2, inputs=x43)
def data_ptr(x):
    y = x * 2
    p = y.data_ptr()  # break: FX503
    return y + (p != 0)


@case(graphs=1, inputs=x43)
def host_copy(x):
    # .cpu() is a graph op for TorchDynamo, not a break.
    return (x * 2).cpu() + 1


@case(graphs=2, inputs=x43)
def eval_call(x):
    y = x * 2
    k = eval("1 + 1")  # break: FX504
    return y + k


@case(graphs=2, inputs=x43)
def locals_call(x):
    y = x * 2
    names = locals()  # break: FX504
    return names["y"] + 1


@case(graphs=2, inputs=x43)
def class_definition(x):
    y = x * 2

    class Local:  # break: FX504
        scale = 3

    return y * Local.scale


@case(graphs=0, inputs=x43)
def generator_function(x):
    yield x * 2  # break: FX504
