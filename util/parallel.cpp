#include "util/parallel.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "util/cpu_limit.h"

namespace ataxx {

int usable_cores() {
  cpu_set_t affinity;
  const int cores = sched_getaffinity(0, sizeof affinity, &affinity) == 0
                        ? CPU_COUNT(&affinity)
                        : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(cores, cgroup_cpu_limit().value_or(cores)));
}

void run_for(double seconds, std::atomic<bool>& stop, const std::function<void()>& task) {
  std::jthread timer([&](std::stop_token cancelled) {
    std::mutex mutex;
    std::condition_variable_any never_notified;
    std::unique_lock lock(mutex);
    never_notified.wait_for(lock, cancelled, std::chrono::duration<double>(seconds), [] { return false; });
    stop = true;
  });
  task();
}

void run_in_parallel(int threads, const std::function<void(int)>& body, const std::function<void()>& on_error) {
  std::mutex mutex;  // guards first_error
  std::exception_ptr first_error;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      try {
        body(i);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (first_error) return;
        first_error = std::current_exception();
        if (on_error) on_error();
      }
    });
  }
  for (auto& thread : pool) thread.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace ataxx
