#pragma once
// What every check is: a CodeVisitor that reports into a DiagnosticSink. One
// check per file in rules/checks/, named by the rows of rule_table.def it
// reports (its check column); check_factories.cpp is generated from them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "analyzer/code_visitor.h"
#include "core/diagnostic.h"
#include "rules/registry.h"

namespace fxlint {

// Collects one file's findings; severities are filled in by the checker.
class DiagnosticSink {
 public:
  void report(RuleId rule, TextRange range, std::string message, std::optional<Fix> fix = std::nullopt);
  // A finding kept from an earlier analysis, added as report() added it then.
  void replay(Diagnostic d);
  // The walk whose events the checks now handle. A function where TorchDynamo's NumPy
  // arrays were taken for tensors gets no fixes: in eager they are arrays, which
  // `torch.where` and the tensor methods the fixes write do not take.
  // Null between walks.
  void walking(const SemanticModel* model) { model_ = model; }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

 private:
  // One finding per rule and place; a set, so a file's cost stays linear in
  // its number of findings.
  struct Place {
    RuleId rule;
    TextRange range;
    friend bool operator==(const Place&, const Place&) = default;
  };
  struct PlaceHash {
    size_t operator()(const Place& p) const {
      uint64_t h = (uint64_t{p.range.start} << 32) ^ p.range.end;
      return std::hash<uint64_t>()(h * 31 + static_cast<uint64_t>(p.rule));
    }
  };
  std::vector<Diagnostic> diagnostics_;
  std::unordered_set<Place, PlaceHash> seen_;
  const SemanticModel* model_ = nullptr;
};

struct CheckSettings {
  std::string torch_version;  // "2.14"; empty when unknown
  Target target = Target::Fx2Onnx;  // the file's: decides which tracer a compile guard must skip
};

class Check : public CodeVisitor {
 public:
  Check(DiagnosticSink& sink, const CheckSettings& settings) : sink_(sink), settings_(settings) {}

 protected:
  DiagnosticSink& sink_;
  const CheckSettings& settings_;
};

using CheckFactory = std::unique_ptr<Check> (*)(DiagnosticSink&, const CheckSettings&);

struct CheckEntry {
  std::vector<RuleId> rules;  // codes the check reports
  CheckFactory make;
};

// Every check that runs on compiled code.
const std::vector<CheckEntry>& check_factories();

}  // namespace fxlint
