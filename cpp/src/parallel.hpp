// Internal: optional threads. The threads build (POSENC_THREADS=1: em++ -pthread, a pool of worker_threads in Node,
// of Web Workers in cross-origin-isolated pages) splits some compute-bound kernels over up to kMaxThreads threads; every other build runs them serially. Each part
// computes whole rows with the serial code, so results are identical with and without threads.
#pragma once
#include <algorithm>
#include <cstddef>
#ifndef POSENC_THREADS
#define POSENC_THREADS 0
#endif
#if POSENC_THREADS
#include <exception>
#include <thread>
#include <vector>
#endif

namespace posenc::detail {
constexpr unsigned kMaxThreads = 4;  // the pool the threads build starts (CMakeLists.txt: PTHREAD_POOL_SIZE)

/// Threads parallel_for uses: min(hardware threads, kMaxThreads); 1 without POSENC_THREADS.
inline unsigned thread_count() {
#if POSENC_THREADS
  return std::max(1u, std::min(std::thread::hardware_concurrency(), kMaxThreads));
#else
  return 1;
#endif
}

/// f(begin, end) over [0, n) in contiguous parts whose boundaries are multiples of `grain`, one per thread, when
/// the build has threads and n ≥ min_n (smaller calls do not pay for the threads' start); else f(0, n).
/// An exception thrown by a part is rethrown here after every part has finished.
template <class F>
void parallel_for(std::size_t n, std::size_t grain, std::size_t min_n, F&& f) {
#if POSENC_THREADS
  const std::size_t t = std::min<std::size_t>(thread_count(), (n + grain - 1) / grain);
  if (t > 1 && n >= min_n) {
    const std::size_t per = ((n + t - 1) / t + grain - 1) / grain * grain;
    std::vector<std::exception_ptr> errors(t);
    std::vector<std::thread> threads;
    for (std::size_t k = 1; k < t && k * per < n; ++k)
      threads.emplace_back([&, k] {
        try {
          f(k * per, std::min(n, (k + 1) * per));
        } catch (...) {
          errors[k] = std::current_exception();
        }
      });
    try {
      f(std::size_t(0), std::min(n, per));
    } catch (...) {
      errors[0] = std::current_exception();
    }
    for (auto& th : threads) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    return;
  }
#else
  (void)grain, (void)min_n;
#endif
  f(std::size_t(0), n);
}
}  // namespace posenc::detail
