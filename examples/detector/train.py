"""Training script: eager Python around the model. Nothing here is traced."""
import torch
import torch.nn.functional as F

from detector import stats
from detector.model import Detector


def make_batch(n: int = 4):
    images = torch.randn(n, 3, 32, 32)
    targets = torch.rand(n, 32)
    return images, targets


def train(steps: int = 5):
    model = Detector()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    stats.set_debug(False)
    for step in range(steps):
        images, targets = make_batch()
        _, scores = model.head(model.backbone(images))
        loss = F.binary_cross_entropy(scores, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        # A Python number from a tensor is fine in the training loop.
        print(f"step {step}: loss {loss.item():.4f}")  # noqa: FX101
    # Compiling makes Detector.forward (and what it calls) a compile region.
    compiled = torch.compile(model)
    return compiled, stats.summary()


if __name__ == "__main__":
    train()
