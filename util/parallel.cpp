#include "util/parallel.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <stop_token>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ataxx {

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

WorkerTeam::WorkerTeam(int threads) {
  for (int i = 1; i < threads; ++i) helpers_.emplace_back([this, i] { help(i); });
}

WorkerTeam::~WorkerTeam() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  start_.notify_all();
  for (auto& helper : helpers_) helper.join();
}

void WorkerTeam::help(int index) {
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  while (true) {
    start_.wait(lock, [&] { return closing_ || job_ != seen; });
    if (closing_) return;
    seen = job_;
    if (index >= parts_) continue;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*part_)(index);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && !error_) error_ = error;
    if (--running_ == 0) done_.notify_one();
  }
}

void WorkerTeam::run(int parts, const std::function<void(int)>& part) {
  if (parts < 1 || parts > size()) throw std::invalid_argument("worker team: " + std::to_string(parts) + " parts for " +
                                                               std::to_string(size()) + " threads");
  {
    std::lock_guard lock(mutex_);
    part_ = &part;
    parts_ = parts;
    running_ = parts - 1;
    error_ = nullptr;
    ++job_;
  }
  if (parts > 1) start_.notify_all();
  std::exception_ptr error;
  try {
    part(0);
  } catch (...) {
    error = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return running_ == 0; });
  if (!error) error = error_;
  if (error) std::rethrow_exception(error);
}

}  // namespace ataxx
