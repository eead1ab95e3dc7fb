"""The real compilers `fxlint verify --backend` runs a target through, beside the
bundled capture: TorchDynamo's explain (`dynamo`), torch.export strict and
non-strict (`export`), and the ONNX exporter with ONNX Runtime (`onnx`).

Each backend returns a JSON-ready report: `backend`, `ok`, and either Dynamo's
graphs and `break_reasons` or the `stages` it ran (each ok, or its `failure`),
with every break or failure mapped to a rule code (codes.py) at the user's
innermost frame.
"""

from .runner import BACKENDS, TargetRaised, run_backend

__all__ = ["BACKENDS", "TargetRaised", "run_backend"]
