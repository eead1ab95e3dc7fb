#pragma once
// What each local name holds at one program point of a walk. Environments are
// copied and joined at every branch, so they are flat vectors indexed by name
// numbers (NameSlots) rather than maps keyed by strings.
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/project_refs.h"
#include "analyzer/value.h"

namespace fxlint {

// Local names of one walk, numbered in order of first binding. The views
// point into the walked file's source.
class NameSlots {
 public:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  size_t intern(std::string_view name) { return ids_.try_emplace(name, ids_.size()).first->second; }
  size_t find(std::string_view name) const {
    auto it = ids_.find(name);
    return it == ids_.end() ? kNone : it->second;
  }

 private:
  std::unordered_map<std::string_view, size_t> ids_;
};

// Unbound names have no value.
class Env {
 public:
  const Value* find(size_t slot) const {
    return slot < slots_.size() && slots_[slot].bound ? &slots_[slot].value : nullptr;
  }
  Value* find(size_t slot) { return slot < slots_.size() && slots_[slot].bound ? &slots_[slot].value : nullptr; }
  void set(size_t slot, const Value& v, ClassRef module_class = {}) {
    if (slot >= slots_.size()) slots_.resize(slot + 1);
    slots_[slot] = {v, true, module_class};
  }
  // The project class of the module a name holds, when known (`for block in self.blocks`).
  ClassRef module_class(size_t slot) const {
    return slot < slots_.size() && slots_[slot].bound ? slots_[slot].module_class : ClassRef{};
  }

  // Names bound on both paths join. A name bound on one path only keeps that
  // path's value: a local read where it is unbound raises, so any read that
  // succeeds sees it (`if s is not None: h = s.shape[2]` ... `if s is not None: f(h)`).
  friend Env join_envs(const Env& a, const Env& b) {
    Env out;
    out.slots_.resize(std::max(a.slots_.size(), b.slots_.size()));
    for (size_t i = 0; i < out.slots_.size(); ++i) {
      const Value* x = a.find(i);
      const Value* y = b.find(i);
      if (x && y) {
        ClassRef same = a.slots_[i].module_class == b.slots_[i].module_class ? a.slots_[i].module_class : ClassRef{};
        out.slots_[i] = {join(*x, *y), true, same};
      } else if (x || y) {
        out.slots_[i] = x ? a.slots_[i] : b.slots_[i];
      }
    }
    return out;
  }

 private:
  struct Slot {
    Value value;
    bool bound = false;
    ClassRef module_class;
  };
  std::vector<Slot> slots_;
};

}  // namespace fxlint
