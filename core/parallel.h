#pragma once
// Runs fn(i) for i in [0, count) on up to `jobs` threads (0 = all cores).
// fn must not throw.
#include <algorithm>
#include <atomic>
#include <cstddef>
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
  size_t threads = std::min<size_t>(effective_jobs(jobs), count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) fn(i);
    });
  }
  for (std::thread& th : pool) th.join();
}

}  // namespace fxlint
