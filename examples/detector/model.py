"""The model: a backbone and a head, composed by Detector."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from detector import stats
from detector.postprocess import select_boxes


class Backbone(nn.Module):
    def __init__(self, channels: int = 16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, stride=2, padding=1)

    def forward(self, images):
        x = F.relu(self.conv1(images))
        # A branch on a tensor value: the graph can hold only one side.
        if x.abs().max() > 100:
            x = x / 100
        return F.relu(self.conv2(x))


class Head(nn.Module):
    def __init__(self, channels: int = 16, anchors: int = 32):
        super().__init__()
        self.anchors = anchors
        self.box = nn.Linear(channels, 4 * anchors)
        self.score = nn.Linear(channels, anchors)
        self.last_scores = None

    def forward(self, feats):
        pooled = feats.mean(dim=(2, 3))
        boxes = self.box(pooled).view(pooled.shape[0], self.anchors, 4).sigmoid()
        scores = self.score(pooled).sigmoid()
        self.last_scores = scores
        print("max score", scores.max().item())
        return boxes, scores


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = Head()
        self.calls = 0

    def forward(self, images):
        self.calls += 1
        stats.record_batch(images.shape[0])
        if not torch.compiler.is_compiling():
            # Eager-only debugging: tracers skip this block.
            stats.log_shapes(images)
        images = images * stats.SCALE
        boxes, scores = self.head(self.backbone(images))
        if stats.DEBUG:
            stats.keep(scores)
        return select_boxes(boxes[0], scores[0])
