#pragma once
// What the analyzer knows about a Python value at one program point. The lattice
// is deliberately small: precision comes from never guessing "tensor".
#include <cstdint>

namespace fxlint {

enum class ValueKind : uint8_t {
  Unknown,         // nothing known: never flagged
  Tensor,          // a torch.Tensor
  OptionalTensor,  // Tensor or None: a tensor once narrowed by a None check
  TensorSequence,  // list/tuple of tensors (elements are tensors)
  TensorData,      // a Python value computed from tensor *data* (item(), int(t), tolist())
  Static,          // a Python value known at trace time: shapes, dtypes, constants, flags
  Module,          // an nn.Module instance: calling it gives a tensor
  None,            // the None constant
};

enum class TensorDtype : uint8_t { Unknown, Bool, Integer, Floating };

struct Value {
  ValueKind kind = ValueKind::Unknown;
  TensorDtype dtype = TensorDtype::Unknown;  // meaningful for Tensor / TensorSequence
  // A tensor built from trace-time values only (torch.scalar_tensor(x.size(1))):
  // its data is known when tracing, so using it as a size is not data-dependent.
  bool static_data = false;
  // Tensor / TensorSequence: a size depends on tensor data (nonzero, a mask
  // read, nms). Static: a size of such a tensor, or a value a compiled caller
  // drew from tensor data. Dynamo breaks where such a value is made, so after
  // it the value is concrete; torch.export carries it as a data-dependent
  // symbol and fails at the first branch on it.
  bool data_dependent = false;
  // A data-dependent scalar whose truth a condition on every path here already
  // tested: torch.export guarded on it there, so a later test of the same value
  // is decided and fails nowhere.
  bool truth_decided = false;

  static Value unknown() { return {}; }
  static Value tensor(TensorDtype d = TensorDtype::Unknown) { return {ValueKind::Tensor, d}; }
  static Value of(ValueKind k) { return {k, TensorDtype::Unknown}; }

  bool is_tensor() const { return kind == ValueKind::Tensor; }
  bool is_bool_tensor() const { return kind == ValueKind::Tensor && dtype == TensorDtype::Bool; }
  bool is_tensor_data() const { return kind == ValueKind::TensorData; }
  // A Python value torch.export cannot branch on: drawn from tensor data here
  // or in a caller, or the size of a tensor whose shape depends on data.
  bool is_data_dependent_scalar() const { return kind == ValueKind::TensorData || (kind == ValueKind::Static && data_dependent); }
  // A value whose concrete content a tracer does not know: a tensor or data drawn from one.
  bool depends_on_tensor_data() const { return kind == ValueKind::Tensor || kind == ValueKind::TensorData; }

  friend bool operator==(const Value&, const Value&) = default;
};

// The value at a merge point (after if/else, after a loop): what both paths agree on.
inline Value join(const Value& a, const Value& b) {
  if (a == b) return a;
  if (a.kind == b.kind && a.dtype == b.dtype && a.static_data == b.static_data && a.data_dependent == b.data_dependent)
    return Value{a.kind, a.dtype, a.static_data, a.data_dependent, false};  // decided on one path only
  if (a.kind == b.kind && a.dtype == b.dtype) return Value{a.kind, a.dtype, false, false};
  if (a.kind == b.kind) return Value::of(a.kind);  // dtypes differ
  auto tensorish = [](ValueKind k) { return k == ValueKind::Tensor || k == ValueKind::OptionalTensor; };
  if (tensorish(a.kind) && (tensorish(b.kind) || b.kind == ValueKind::None)) return Value::of(ValueKind::OptionalTensor);
  if (a.kind == ValueKind::None && tensorish(b.kind)) return Value::of(ValueKind::OptionalTensor);
  return Value::unknown();
}

// What iterating or unpacking a value yields.
inline Value element_of(const Value& v) {
  switch (v.kind) {
    case ValueKind::Tensor:
    case ValueKind::TensorSequence: {
      Value e = Value::tensor(v.dtype);
      e.data_dependent = v.data_dependent && v.kind == ValueKind::TensorSequence;
      return e;
    }
    case ValueKind::Module:
      return Value::of(ValueKind::Module);  // iterating a ModuleList/Sequential
    case ValueKind::Static:
      return Value::of(ValueKind::Static);
    case ValueKind::TensorData:
      return Value::of(ValueKind::TensorData);
    default:
      return Value::unknown();
  }
}

}  // namespace fxlint
