"""What the capture does not interpret: it breaks, runs the code eagerly, and goes on."""

import torch

from .registry import case


def _pair_sum(value):
    match value:
        case (a, b):  # break: FX504
            return a + b
        case _:
            return value


@case(graphs=2, inputs=lambda: (torch.randn(4, 3),), also=(_pair_sum,))
def unsupported_opcode_in_helper(x):
    y = x * 2
    z = _pair_sum((y, x))
    return z + 1
