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
  EmptyList,       // `[]`: what is appended to it decides what it holds
  TensorDict,      // a dict whose entries are tensors: `{"boxes": b, "scores": s}`
  TensorDictList,  // a list/tuple of such dicts (a detector's per-image results)
};

enum class TensorDtype : uint8_t { Unknown, Bool, Integer, Floating };

struct Value {
  ValueKind kind = ValueKind::Unknown;
  TensorDtype dtype = TensorDtype::Unknown;  // meaningful for Tensor / TensorSequence / TensorDict(List)
  // A tensor built from trace-time values only (torch.scalar_tensor(x.size(1))):
  // its data is known when tracing, so using it as a size is not data-dependent.
  bool static_data = false;
  // Tensor / TensorSequence: a size depends on tensor data (nonzero, a mask
  // read, nms); TensorDict(List): every entry's does. Static: a size of such
  // a tensor, or a value a compiled caller drew from tensor data. Dynamo breaks where such a value is made, so after
  // it the value is concrete; torch.export carries it as a data-dependent
  // symbol and fails at the first branch on it.
  bool data_dependent = false;
  // A data-dependent scalar whose truth a condition on every path here already
  // tested: torch.export guarded on it there, so a later test of the same value
  // is decided and fails nowhere.
  bool truth_decided = false;
  // Static, data-dependent: the comparison of it with a literal (`box_sum > 0`,
  // by its text's hash) that a condition on every path here already tested;
  // torch.export guarded on it there. 0 when none.
  uint32_t decided_comparison = 0;
  // Tensor: a parameter of a function no compiled code calls, as it came in: an
  // input of the compiled frame. TorchDynamo and torch.export take its value as a
  // symbolic size (`torch.zeros(n)`); a tensor computed from it they do not.
  bool frame_input = false;
  // Tensor / TensorSequence: only presumed so, as a module's unannotated input is (or a
  // tuple of such): what a parameter's own annotation says outweighs it.
  bool presumed = false;

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

// The value at a merge point (after if/else, after a loop): what both paths
// agree on, and data-dependent where either path is.
inline Value join(const Value& a, const Value& b) {
  if (a == b) return a;
  // A list built in a loop: empty before it, tensors (or dicts of them) appended in it.
  auto filled = [](ValueKind k) { return k == ValueKind::TensorSequence || k == ValueKind::TensorDictList; };
  if (a.kind == ValueKind::EmptyList && filled(b.kind)) return b;
  if (b.kind == ValueKind::EmptyList && filled(a.kind)) return a;
  bool same_facts = a.static_data == b.static_data && a.data_dependent == b.data_dependent;
  bool presumed = a.presumed || b.presumed;
  if (a.kind == b.kind && a.dtype == b.dtype && same_facts) {
    // Decided on one path only is not decided.
    Value r{a.kind, a.dtype, a.static_data, a.data_dependent, a.truth_decided && b.truth_decided,
            a.decided_comparison == b.decided_comparison ? a.decided_comparison : 0};
    r.presumed = presumed;
    return r;
  }
  // Data-dependent on one path is data-dependent after the merge: a compiler
  // that takes that path fails where the value is tested.
  bool data_dependent = a.data_dependent || b.data_dependent;
  if (a.kind == b.kind) {
    // Where the dtypes differ, neither is known.
    Value r{a.kind, a.dtype == b.dtype ? a.dtype : TensorDtype::Unknown, false, data_dependent};
    r.presumed = presumed;
    return r;
  }
  // A tensor on one path and None (or an optional tensor) on the other: an optional tensor,
  // of the dtype the tensors agree on (a mask passed by one caller, None by the others).
  auto tensorish = [](ValueKind k) { return k == ValueKind::Tensor || k == ValueKind::OptionalTensor; };
  auto optional = [&](TensorDtype d) {
    Value r = Value::of(ValueKind::OptionalTensor);
    r.dtype = d;
    r.presumed = presumed;
    return r;
  };
  if (tensorish(a.kind) && tensorish(b.kind)) return optional(a.dtype == b.dtype ? a.dtype : TensorDtype::Unknown);
  if (tensorish(a.kind) && b.kind == ValueKind::None) return optional(a.dtype);
  if (a.kind == ValueKind::None && tensorish(b.kind)) return optional(b.dtype);
  return Value::unknown();
}

// A container of tensors that also holds `item`: its element kind, the
// dtype they share, and data-dependent rows only when every element has them.
inline Value holding(ValueKind kind, const Value& held, const Value& item, bool was_empty) {
  Value r = Value::of(kind);
  r.dtype = was_empty || held.dtype == item.dtype ? item.dtype : TensorDtype::Unknown;
  r.data_dependent = item.data_dependent && (was_empty || held.data_dependent);
  r.presumed = item.presumed || (!was_empty && held.presumed);
  return r;
}

// A list holding `list` (a TensorSequence, TensorDictList or EmptyList) after `.append(item)`.
inline Value appended(const Value& list, const Value& item) {
  bool empty = list.kind == ValueKind::EmptyList;
  if (item.is_tensor() && (empty || list.kind == ValueKind::TensorSequence)) {
    return holding(ValueKind::TensorSequence, list, item, empty);
  }
  if (item.kind == ValueKind::TensorDict && (empty || list.kind == ValueKind::TensorDictList)) {
    return holding(ValueKind::TensorDictList, list, item, empty);
  }
  return Value::unknown();
}

// A dict of tensors after `d[key] = item`.
inline Value with_entry(const Value& dict, const Value& item) {
  if (dict.kind != ValueKind::TensorDict || !item.is_tensor()) return Value::unknown();
  return holding(ValueKind::TensorDict, dict, item, false);
}

// What reading any entry of a dict of tensors gives: the dict does not keep
// which key holds what, so every entry is what all of them are.
inline Value entry_of(const Value& dict) {
  Value e = Value::tensor(dict.dtype);
  e.data_dependent = dict.data_dependent;
  e.presumed = dict.presumed;
  return e;
}

// What iterating or unpacking a value yields.
inline Value element_of(const Value& v) {
  switch (v.kind) {
    case ValueKind::Tensor:
    case ValueKind::TensorSequence: {
      Value e = Value::tensor(v.dtype);
      e.data_dependent = v.data_dependent && v.kind == ValueKind::TensorSequence;
      e.presumed = v.presumed;
      return e;
    }
    case ValueKind::TensorDictList: {
      Value e = Value::of(ValueKind::TensorDict);
      e.dtype = v.dtype;
      e.data_dependent = v.data_dependent;
      e.presumed = v.presumed;
      return e;
    }
    case ValueKind::Module:
      return Value::of(ValueKind::Module);  // iterating a ModuleList/Sequential
    case ValueKind::Static: {
      Value e = Value::of(ValueKind::Static);
      e.data_dependent = v.data_dependent;  // `[b.size(0) for b in boxes]`: each is
      return e;
    }
    case ValueKind::TensorData:
      return Value::of(ValueKind::TensorData);
    default:
      return Value::unknown();
  }
}

}  // namespace fxlint
