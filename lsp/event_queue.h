#pragma once
// What the server's loop waits for: messages from the reader thread and
// finished lints from the worker, in arrival order. The loop takes everything
// that is there at once, so a burst of edits is handled as one.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace fxlint::lsp {

template <typename Event>
class EventQueue {
 public:
  void push(Event e) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(e));
    }
    ready_.notify_one();
  }
  // Blocks until there is at least one event; returns all there are.
  std::vector<Event> take_all() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !events_.empty(); });
    std::vector<Event> out(std::make_move_iterator(events_.begin()), std::make_move_iterator(events_.end()));
    events_.clear();
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Event> events_;
};

}  // namespace fxlint::lsp
