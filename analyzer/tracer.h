#pragma once
// The two ways compiled code is traced: torch.fx's symbolic tracer (fx2onnx),
// and TorchDynamo (torch.compile, torch.export). Some decorators hide a
// function from one of them only: @torch.fx.wrap makes it a leaf for FX while
// Dynamo traces through it. Some predicates answer differently under each:
// `torch.onnx.is_in_onnx_export()` is true only under the ONNX exporter.
#include <cstdint>

namespace fxlint {

enum class Tracer : uint8_t { Fx = 1, Dynamo = 2 };
inline constexpr uint8_t kAllTracers = 3;

}  // namespace fxlint
