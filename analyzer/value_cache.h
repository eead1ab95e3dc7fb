#pragma once
// Values by node id. Every expression a walk visits is stored, so this is an
// open-addressing table rather than a node-based map.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/value.h"

namespace fxlint {

template <typename Entry>
class NodeTableMap {
 public:
  const Entry* find(const void* id) const {
    if (slots_.empty()) return nullptr;
    for (size_t i = index(id);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].id == id) return &slots_[i].entry;
      if (!slots_[i].id) return nullptr;
    }
  }
  void set(const void* id, const Entry& e) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = index(id);
    while (slots_[i].id && slots_[i].id != id) i = (i + 1) & (slots_.size() - 1);
    if (!slots_[i].id) ++size_;
    slots_[i] = {id, e};
  }

 private:
  struct Slot {
    const void* id = nullptr;
    Entry entry;
  };
  size_t index(const void* id) const {
    auto h = reinterpret_cast<uintptr_t>(id) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 32) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot& s : old) {
      if (s.id) set(s.id, s.entry);
    }
  }
  std::vector<Slot> slots_;  // size is a power of two
  size_t size_ = 0;
};

// What each walked expression held when the walk passed it.
using ValueCache = NodeTableMap<Value>;

}  // namespace fxlint
