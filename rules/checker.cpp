#include "rules/checker.h"

#include "analyzer/syntax_tree.h"

namespace fxlint {

std::vector<std::vector<Diagnostic>> check_sources(std::span<const SourceInput> inputs,
                                                   const CheckOptions&) {
  std::vector<std::vector<Diagnostic>> out(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    SyntaxTree tree = SyntaxTree::parse(inputs[i].text);
    if (Node err = tree.first_error()) {
      out[i].push_back({"FX900", "syntax error", err.range(), Severity::Error, std::nullopt});
    }
  }
  return out;
}

}  // namespace fxlint
