// Worker threads whose failures end the work instead of the process.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ataxx {

// Runs body(0), ..., body(threads - 1) on their own threads and joins them all. When a body
// throws, on_error runs (once, so that the others can stop early) and the first exception is
// rethrown here after every thread has ended.
void run_in_parallel(int threads, const std::function<void(int)>& body, const std::function<void()>& on_error = {});

// Runs task on the calling thread and sets `stop` once `seconds` have passed (the task is to
// return soon after). If the task throws first, the timer ends at once and the exception reaches
// the caller.
void run_for(double seconds, std::atomic<bool>& stop, const std::function<void()>& task);


// A team of threads kept for one job at a time split in parts, for jobs too short to pay for
// starting threads each time (a batch of a few positions on the CPU).
class WorkerTeam {
 public:
  explicit WorkerTeam(int threads);  // the caller of run() is one of them: threads - 1 helpers
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;
  int size() const { return static_cast<int>(helpers_.size()) + 1; }
  // Runs part(0) .. part(parts - 1) (parts <= size()), part 0 on the caller's thread, and returns
  // when all have ended, rethrowing the first exception. One run at a time.
  void run(int parts, const std::function<void(int)>& part);

 private:
  void help(int index);

  std::mutex mutex_;  // guards everything below but helpers_
  std::condition_variable start_, done_;
  const std::function<void(int)>* part_ = nullptr;
  int parts_ = 0;
  int running_ = 0;  // helpers' parts not yet ended
  std::uint64_t job_ = 0;
  bool closing_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> helpers_;
};

}  // namespace ataxx
