#pragma once
// The rewrites of `fxlint fix`, built where the rules see the code. Each
// returns nullopt when the pattern is not one it can rewrite without changing
// what the code computes (the diagnostic then carries no fix).
#include <optional>
#include <string_view>

#include "analyzer/code_visitor.h"
#include "core/fix.h"

namespace fxlint::fixes {

// FX104: `assert t` -> `if not <is_compiling>():` + the assert (safe).
std::optional<Fix> guard_statement(Node statement, const WalkContext& ctx, std::string_view guard_function,
                                   std::string title);
// FX501: the same guard around a statement that is just this call (safe).
std::optional<Fix> guard_call_statement(Node call, const WalkContext& ctx, std::string_view guard_function);
// FX103: `if c: y = a else: y = b` -> `y = torch.where(c, a, b)` (unsafe).
std::optional<Fix> if_to_where(Node if_statement, const WalkContext& ctx);
// FX103: `a if c else b` -> `torch.where(c, a, b)` (unsafe).
std::optional<Fix> ternary_to_where(Node conditional, const WalkContext& ctx);
// FX302: `z[m] = v[m]` -> torch.where; `z[m] = s` -> masked_fill_.
std::optional<Fix> mask_assignment(Node target, Node mask, Node value, Node statement, const WalkContext& ctx);
// FX301: `x[m].sum()` -> `torch.where(m, x, 0).sum()`.
std::optional<Fix> masked_reduction(Node subscript, Node mask, const WalkContext& ctx);
// FX401: `global a; a = t` -> `a.copy_(t)` when `a` is a module-level tensor (unsafe).
std::optional<Fix> outer_tensor_copy(Node target, Node value, Node statement, const WalkContext& ctx);
// FX203: `global g; g += v` with `g = 0` at module level -> a 0-d tensor updated in place (unsafe).
std::optional<Fix> global_scalar_to_tensor(Node statement, const WalkContext& ctx);
// FX203: `self.n += v` with `self.n = 0` in __init__ -> a non-persistent buffer (unsafe).
std::optional<Fix> attribute_scalar_to_buffer(Node statement, const WalkContext& ctx);

}  // namespace fxlint::fixes
