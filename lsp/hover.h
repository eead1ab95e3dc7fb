#pragma once
// Hover: the documentation of the rule under the cursor, in Markdown, for a
// code named in a suppression comment (`# noqa: FX101`) or for the
// diagnostics whose range holds the cursor.
#include <optional>
#include <span>
#include <string_view>

#include "core/diagnostic.h"
#include "lsp/protocol.h"

namespace fxlint::lsp {

struct Hover {
  std::string markdown;
  Range range;  // what the documentation is about
};
void to_json(json& j, const Hover& h);

// `diagnostics` are the document's last lint. nullopt when nothing is there.
std::optional<Hover> rule_hover(std::string_view text, std::span<const Diagnostic> diagnostics, Position position);

}  // namespace fxlint::lsp
