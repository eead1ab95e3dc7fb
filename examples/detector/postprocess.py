"""Turning raw boxes and scores into detections."""
import numpy as np
import torch
import torchvision
from torch import Tensor

SCORE_THRESHOLD = 0.05
NMS_IOU = 0.5


def select_boxes(boxes: Tensor, scores: Tensor):
    # Reached from Detector.forward.
    assert (scores >= 0).all(), "scores must be probabilities"
    keep = scores > SCORE_THRESHOLD
    boxes = boxes[keep]
    scores = scores[keep]
    keep = torchvision.ops.nms(boxes, scores, NMS_IOU)
    # `keep` holds indices now: indexing with it is fine.
    boxes = boxes[keep].cpu()
    return boxes, scores[keep]


def top_scores(scores: Tensor, k: Tensor) -> Tensor:
    # Annotated to return a tensor: linted as compiled code.
    n = int(k)
    order = scores.argsort(descending=True)
    return scores[order[:n]]


def pad_detections(boxes: Tensor, max_det: int = 100):
    # Listed in `entry-points` in pyproject.toml.
    boxes = torch.from_numpy(np.clip(boxes.numpy(), 0.0, 1.0))
    out = boxes.new_zeros(max_det, 4)
    n = min(boxes.shape[0], max_det)
    out[:n] = boxes[:n]
    return out


def describe(boxes: Tensor, scores: Tensor):
    # Eager reporting: never traced, so conversions to Python are fine.
    return [
        {"box": b.tolist(), "score": float(s)}
        for b, s in zip(boxes, scores)
        if s.item() > SCORE_THRESHOLD
    ]
