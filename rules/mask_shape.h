#pragma once
// Whether a boolean mask has the shape of the tensor it indexes: `z[m]`
// applies a mask to z's leading dimensions, while masked_fill_ and
// torch.where broadcast it against the trailing ones, so the mask rewrites
// are exact only for a mask of z's own shape.
#include "analyzer/semantic_model.h"
#include "core/fix.h"

namespace fxlint::fixes {

// Safe when `mask` is computed elementwise from tensors of z's shape and
// numbers only (`z > 0`, `torch.isnan(z)`, a local assigned once from one).
Applicability mask_applicability(Node mask, Node z, const SemanticModel& ctx);

}  // namespace fxlint::fixes
