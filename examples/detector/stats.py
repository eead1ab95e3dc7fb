"""Run statistics kept in module globals: handy in eager code, wrong inside a graph."""
import time

import torch

DEBUG = False
SCALE = 1.0
BATCHES = 0
KEPT = []
TIMINGS = {}


def set_debug(on: bool):
    global DEBUG
    DEBUG = on


def set_scale(value: float):
    global SCALE
    SCALE = value


def record_batch(n: int):
    # Called from Detector.forward, so it is traced too.
    global BATCHES
    BATCHES += n
    TIMINGS["last"] = time.time()


def keep(scores: torch.Tensor):
    KEPT.append(scores)


def log_shapes(images: torch.Tensor):
    print("batch", tuple(images.shape))


def summary():
    # Only called from the training script.
    return {"batches": BATCHES, "kept": len(KEPT), "timings": dict(TIMINGS)}
