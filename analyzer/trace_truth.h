#pragma once
// Whether a condition holds whenever a tracer runs it, from what is known of
// its leaves (escape-hatch calls, None checks): `not`, `and` and `or` combine
// them as Python does, including what a decided left operand settles alone.
#include <optional>
#include <string_view>

#include "analyzer/syntax_tree.h"
#include "analyzer/torch_api.h"
#include "analyzer/tracer.h"

namespace fxlint {

// `leaf(node)` answers for anything but a literal, `not`, `and` or `or`.
template <typename Leaf>
std::optional<bool> truth_when_traced(Node cond, std::string_view src, Leaf&& leaf) {
  cond = cond.unparenthesized();
  switch (cond.kind()) {
    case NodeKind::True: return true;
    case NodeKind::False: return false;
    case NodeKind::NotOperator: {
      std::optional<bool> t = truth_when_traced(cond.field("argument"), src, leaf);
      return t ? std::optional<bool>(!*t) : std::nullopt;
    }
    case NodeKind::BooleanOperator: {
      Node op = cond.field("operator");
      bool is_or = op && op.text(src) == "or";
      std::optional<bool> l = truth_when_traced(cond.field("left"), src, leaf);
      if (l && *l == is_or) return is_or;  // decided by the left operand
      std::optional<bool> r = truth_when_traced(cond.field("right"), src, leaf);
      if (r && *r == is_or) return is_or;
      if (l && r) return !is_or;
      return std::nullopt;
    }
    default:
      return leaf(cond);
  }
}

// What an escape-hatch predicate answers under a tracer (Dynamo, torch.fx); unknown
// where it depends on the tracer and that is not given. The ONNX exporter, which the
// FX target models, reports itself: torch.compile and torch.export do not.
// `exporting`: under Dynamo, whether torch.export runs it (torch.compiler.is_exporting());
// unknown when not given (the compile regions, shared by both).
inline std::optional<bool> truth_of_hatch(torch_api::HatchPredicate k, std::optional<Tracer> tracer,
                                          std::optional<bool> exporting = std::nullopt) {
  switch (k) {
    case torch_api::HatchPredicate::IsExporting:
      return tracer == Tracer::Dynamo ? exporting : std::nullopt;
    case torch_api::HatchPredicate::IsCompiling:
      return true;
    case torch_api::HatchPredicate::IsInOnnxExport:
      return tracer ? std::optional<bool>(*tracer == Tracer::Fx) : std::nullopt;
    case torch_api::HatchPredicate::IsScriptingOrTracing:
      return false;
    default:
      return std::nullopt;
  }
}

}  // namespace fxlint
