#pragma once
// Runs fn(i) for i in [0, count) on up to `jobs` threads (0 = all cores). An
// exception thrown by fn never ends the process: the other items still run,
// and the first exception is rethrown to the caller once every thread joined.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fxlint {

inline unsigned effective_jobs(unsigned jobs) {
  if (jobs != 0) return jobs;
  unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : cores;
}

template <typename Fn>
void parallel_for(size_t count, unsigned jobs, Fn fn) {
  std::exception_ptr first;
  std::mutex first_mutex;
  auto run = [&](size_t i) {
    try {
      fn(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(first_mutex);
      if (!first) first = std::current_exception();
    }
  };
  size_t threads = std::min<size_t>(effective_jobs(jobs), count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) run(i);
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        for (size_t i = next++; i < count; i = next++) run(i);
      });
    }
    for (std::thread& th : pool) th.join();
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace fxlint
