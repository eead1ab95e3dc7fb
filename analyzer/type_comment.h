#pragma once
// PEP 484's function type comment, for code that predates annotations:
//
//   def forward(self, x, mask):
//       # type: (Tensor, Optional[Tensor]) -> Tensor
//
// Its types are read as Python expressions and classified like annotations.
#include <optional>
#include <vector>

#include "analyzer/file_model.h"
#include "analyzer/import_map.h"
#include "analyzer/syntax_tree.h"

namespace fxlint {

struct FunctionTypeComment {
  std::vector<AnnotationKind> parameters;  // as written (a method's `self` is usually left out)
  AnnotationKind returns = AnnotationKind::Other;
};

// The type comment of `def` (a function_definition), if it has one; `aliases`: the module-level
// type aliases its names may be.
std::optional<FunctionTypeComment> function_type_comment(Node def, std::string_view source,
                                                         const ImportMap& imports,
                                                         const TypeAliases* aliases = nullptr);

}  // namespace fxlint
