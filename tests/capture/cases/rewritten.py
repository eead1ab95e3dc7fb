"""Rewritten forms (the fixes of pitfalls.md, and the seed detector example
rewritten): each captures in one graph with nothing to report."""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.fx._symbolic_trace import is_fx_tracing

from .registry import case

TOTAL = torch.zeros(())


def x43():
    return (torch.randn(4, 3),)


@case(graphs=1, inputs=x43, strict_ok=True)
def branch_as_where(x):
    y = x * 2
    y = torch.where(y.sum() > 0, y - 1, y)
    return y.relu()


@case(graphs=1, inputs=x43, strict_ok=True)
def mask_assign_as_where(x):
    z = x.clone()
    z = torch.where(z < 0, torch.zeros_like(z), z)
    z.masked_fill_(z > 1, 1.0)
    return z * 2


@case(graphs=1, inputs=x43, strict_ok=True)
def mask_reduction_as_where(x):
    return torch.where(x > 0, x, torch.zeros_like(x)).sum() * 2


@case(graphs=1, inputs=x43, strict_ok=True)
def print_behind_hatch(x):
    y = x * 2
    if not is_fx_tracing():
        print("shape", y.shape)
    return y + 1


@case(graphs=1, inputs=x43, strict_ok=True)
def global_counter_as_tensor(x):
    TOTAL.add_(x.sum())
    return x + 1


class Backbone(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, stride=2, padding=1)

    def forward(self, images):
        x = F.relu(self.conv1(images))
        x = torch.where(x.abs().max() > 100, x / 100, x)
        return F.relu(self.conv2(x))


class Head(nn.Module):
    def __init__(self, channels=8, anchors=4):
        super().__init__()
        self.anchors = anchors
        self.box = nn.Linear(channels, 4 * anchors)
        self.score = nn.Linear(channels, anchors)

    def forward(self, feats):
        pooled = feats.mean(dim=(2, 3))
        boxes = self.box(pooled).view(pooled.shape[0], self.anchors, 4).sigmoid()
        scores = self.score(pooled).sigmoid()
        if not is_fx_tracing():
            print("max score", scores.max().item())
        return boxes, scores


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = Head()

    def forward(self, images):
        boxes, scores = self.head(self.backbone(images))
        keep = scores > 0.05
        scores = torch.where(keep, scores, torch.zeros_like(scores))
        boxes = boxes * keep.unsqueeze(-1)
        return boxes, scores


_detector = Detector().eval()


@case(graphs=1, inputs=lambda: (torch.rand(2, 3, 16, 16),), strict_ok=True)
def detector_rewritten(images):
    return _detector(images)
