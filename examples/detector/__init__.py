"""A toy two-stage detector used to demonstrate fxlint."""
from detector.model import Detector

__all__ = ["Detector"]
