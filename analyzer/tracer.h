#pragma once
// The two ways compiled code is traced: torch.fx's symbolic tracer (fx2onnx),
// and TorchDynamo (torch.compile, torch.export). Some decorators hide a
// function from one of them only: @torch.fx.wrap makes it a leaf for FX while
// Dynamo traces through it. Some predicates answer differently under each:
// `torch.onnx.is_in_onnx_export()` is true only under the ONNX exporter.
#include <cstdint>
#include <optional>

namespace fxlint {

enum class Tracer : uint8_t { Fx = 1, Dynamo = 2 };
inline constexpr uint8_t kAllTracers = 3;

// What a walk that checks findings knows of the compiler it checks for. The walks that
// record argument types know none of it: they serve every target.
struct TraceTarget {
  // Predicates whose answer depends on the tracer decide nothing without one.
  std::optional<Tracer> tracer;
  // With the Dynamo tracer: whether torch.export (not torch.compile) runs the code, which
  // `torch.compiler.is_exporting()` tells.
  std::optional<bool> exporting;
  // TorchDynamo traces NumPy through torch._numpy (torch 2.1 on): `t.numpy()` is an array
  // in the graph, so a branch or a read of its data breaks there, as a tensor's does.
  bool numpy_as_tensors = false;
};

}  // namespace fxlint
