#pragma once
// Stopping a long computation from another thread: the language server sets
// the flag of a running lint when a newer text arrives, and the lint stops at
// its next look with CheckCancelled.
#include <atomic>
#include <cstddef>

namespace fxlint {

// Set once by one thread, polled by others. The word is a plain size_t that
// C++ touches only through std::atomic_ref because tree-sitter's parser polls
// the very same word (ts_parser_set_cancellation_flag, which loads it
// atomically): a parse stops mid-way, not only between the steps of a check.
class CancelFlag {
 public:
  CancelFlag() = default;
  CancelFlag(const CancelFlag&) = delete;
  CancelFlag& operator=(const CancelFlag&) = delete;

  void set() { ref().store(1, std::memory_order_relaxed); }
  bool is_set() const { return ref().load(std::memory_order_relaxed) != 0; }
  // The word for tree-sitter.
  const size_t* word() const { return &word_; }

 private:
  std::atomic_ref<size_t> ref() const { return std::atomic_ref<size_t>(word_); }
  alignas(std::atomic_ref<size_t>::required_alignment) mutable size_t word_ = 0;
};

// Thrown where a set flag is seen. Not a std::exception, so that no per-file
// handler reports it as that file's failure.
struct CheckCancelled {};

inline void throw_if_cancelled(const CancelFlag* cancel) {
  if (cancel && cancel->is_set()) throw CheckCancelled{};
}

}  // namespace fxlint
