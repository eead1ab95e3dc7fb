#pragma once
// What the rewrites of several checks share: indentation as the file spells
// it, how fixed code names torch, and the syntax a rewrite must not duplicate
// or reorder. Each rewrite itself sits beside the check that offers it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/semantic_model.h"
#include "core/fix.h"

namespace fxlint::fixes {

// Whitespace before `offset` on its line, when only whitespace precedes it.
std::optional<std::string> indentation_at(std::string_view src, uint32_t offset);
// One level of indentation as the code around `statement` (indented `current`)
// spells it: the step from the block's header to it. Read from the enclosing
// statements only, so that a fix does not change with edits elsewhere in the file.
std::string indent_unit(Node statement, std::string_view src, std::string_view current);
// Text of a node with every continuation line indented one more level.
std::string indented_more(std::string_view text, std::string_view unit);
bool contains_multiline_string(Node n, std::string_view src);

// How the fixed code names torch where the fix goes: the module's own import
// of it, or `torch` with an `import torch` the fix adds to the module.
struct TorchRef {
  std::string name;
  std::optional<Edit> import;

  std::string spell(std::string_view qualified) const {
    if (qualified.starts_with("torch.")) return name + std::string(qualified.substr(5));
    return std::string(qualified);
  }
  // `edits` plus the import, if the fix adds one, in order.
  std::vector<Edit> with_import(std::vector<Edit> edits) const;
};
// nullopt when torch cannot be named there: a local (a parameter, say) or a
// module-level name other than the import shadows it.
std::optional<TorchRef> torch_ref(Node at, const SemanticModel& ctx);

// A walrus, yield, await or lambda: evaluating it twice or out of order changes what runs.
bool has_side_effect_syntax(Node n);
Node next_named(Node n);
// The method of `value.method(...)`; empty for a call of a module's function
// (`torch.isnan(x)` resolves to a qualified name instead).
std::string_view tensor_method(Node call, const SemanticModel& ctx);
// `3`, `-2.5`.
bool is_number_literal(Node e);
// The expression's text, parenthesized where an argument list would split it.
std::string as_operand(Node n, std::string_view src);
// A fix of several edits, sorted by position.
Fix sorted_fix(std::string title, Applicability applicability, std::vector<Edit> edits);

// `if not <guard_function>():` + the statement (safe): FX104's assert, FX501's print.
std::optional<Fix> guard_statement(Node statement, const SemanticModel& ctx, std::string_view guard_function,
                                   std::string title);

}  // namespace fxlint::fixes
