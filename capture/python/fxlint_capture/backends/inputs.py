"""Each compiler gets its own copy of the call's tensors, so that one that
changes an input in place does not change what the next one sees."""

import torch
from torch.utils import _pytree


def cloned(value):
    return _pytree.tree_map(lambda v: v.clone() if isinstance(v, torch.Tensor) else v, value)


def tensor_leaves(value):
    return [v for v in _pytree.tree_leaves(value) if isinstance(v, torch.Tensor)]
