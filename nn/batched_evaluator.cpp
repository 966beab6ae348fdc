#include "nn/batched_evaluator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "nn/encoding.h"
#include "nn/eval_cache.h"

namespace ataxx {
namespace {

using Clock = std::chrono::steady_clock;

// One caller's cache misses, encoded, and where the device's answer to them is.
struct Job {
  std::vector<const EvalRequest*> requests;
  std::vector<float> inputs;  // requests.size() x the encoding's input size
  BatchDevice::Output output;
  std::size_t first_row = 0;  // this job's rows in output
  std::exception_ptr error;
  std::atomic<int> done{0};   // 1 once output or error is set; the caller waits on it alone

  void complete(const BatchDevice::Output& out, std::size_t row, std::exception_ptr failure) {
    output = out;
    first_row = row;
    error = std::move(failure);
    done.store(1, std::memory_order_release);
    done.notify_one();
  }
};

// Priors over the request's moves: a softmax of their logits.
void fill_request(const Encoding& encoding, const EvalRequest& r, const float* logits, const float* wdl) {
  float max_logit = -1e30f;
  const Board& board = r.position->board();
  for (std::size_t m = 0; m < r.moves.size(); ++m) {
    r.priors[m] = logits[encoding.policy_index(board, r.moves[m])];
    max_logit = std::max(max_logit, r.priors[m]);
  }
  float total = 0.0f;
  for (float& p : r.priors) total += p = std::exp(p - max_logit);
  for (float& p : r.priors) p /= total;
  *r.value = Wdl{wdl[0], wdl[1], wdl[2]};
}

}  // namespace

struct BatchedEvaluator::Impl {
  std::shared_ptr<BatchDevice> device;
  const Encoding encoding;
  BatchingOptions options;
  EvalCache cache;
  const Clock::time_point start = Clock::now();

  mutable std::mutex mutex;  // guards everything below
  std::condition_variable work_ready;   // for a thread to start forming a batch
  std::condition_variable job_arrived;  // for the thread forming one
  std::deque<std::shared_ptr<Job>> queue;
  bool forming = false;  // a server thread is forming a batch: the others wait their turn
  bool stopping = false;
  int running = 0;  // batches on the device
  Clock::time_point busy_since;
  InferenceStats stats;
  std::vector<std::thread> threads;

  Impl(std::shared_ptr<BatchDevice> d, const BatchingOptions& o)
      : device(std::move(d)), encoding(device->encoding()), options(o), cache(o.cache_entries) {}

  void serve(int thread);
  std::vector<std::shared_ptr<Job>> take_batch(std::unique_lock<std::mutex>& lock);
  std::vector<const EvalRequest*> cache_misses(std::span<const EvalRequest> batch);
  std::shared_ptr<Job> encode_job(std::span<const EvalRequest* const> requests) const;
  void finish(Job& job);
};

std::vector<const EvalRequest*> BatchedEvaluator::Impl::cache_misses(std::span<const EvalRequest> batch) {
  std::vector<const EvalRequest*> misses;
  if (!cache.enabled()) {
    for (const EvalRequest& r : batch) misses.push_back(&r);
    return misses;
  }
  const std::uint64_t generation = device->generation();
  for (const EvalRequest& r : batch)
    if (!cache.find(r, generation)) misses.push_back(&r);
  std::lock_guard lock(mutex);
  stats.cache_lookups += batch.size();
  stats.cache_hits += batch.size() - misses.size();
  return misses;
}

std::shared_ptr<Job> BatchedEvaluator::Impl::encode_job(std::span<const EvalRequest* const> requests) const {
  auto job = std::make_shared<Job>();
  job->requests.assign(requests.begin(), requests.end());
  const std::size_t size = encoding.input_size();
  job->inputs.resize(requests.size() * size);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const Position& pos = *requests[i]->position;
    if (!encoding.fits(pos.board()))
      throw std::invalid_argument("the " + std::string(pos.board().name) + " board does not fit the network's canvas of " +
                                  std::to_string(encoding.canvas()));
    encoding.encode(pos, {job->inputs.data() + i * size, size});
  }
  return job;
}

// Waits for the job's rows, then turns them into its requests' priors and values.
void BatchedEvaluator::Impl::finish(Job& job) {
  job.done.wait(0, std::memory_order_acquire);
  if (job.error) std::rethrow_exception(job.error);
  const BatchDevice::Output& out = job.output;
  for (std::size_t i = 0; i < job.requests.size(); ++i) {
    const std::size_t row = job.first_row + i;
    fill_request(encoding, *job.requests[i], out.policy_logits + row * encoding.policy_size(), out.wdl + row * 3);
    if (cache.enabled()) cache.insert(*job.requests[i], out.generation);
  }
}

std::vector<std::shared_ptr<Job>> BatchedEvaluator::Impl::take_batch(std::unique_lock<std::mutex>& lock) {
  work_ready.wait(lock, [&] { return stopping || (!queue.empty() && !forming); });
  std::vector<std::shared_ptr<Job>> jobs;
  if (queue.empty()) return jobs;
  forming = true;
  const auto deadline = Clock::now() + std::chrono::microseconds(options.deadline_us);
  std::size_t positions = 0;
  const std::size_t max_batch = options.max_batch;
  while (true) {
    while (!queue.empty() && (jobs.empty() || positions + queue.front()->requests.size() <= max_batch)) {
      positions += queue.front()->requests.size();
      jobs.push_back(std::move(queue.front()));
      queue.pop_front();
    }
    if (positions >= max_batch || !queue.empty() || stopping) break;
    if (!job_arrived.wait_until(lock, deadline, [&] { return stopping || !queue.empty(); })) break;
  }
  forming = false;
  if (!queue.empty()) work_ready.notify_one();  // the next batch is another thread's to form
  return jobs;
}

void BatchedEvaluator::Impl::serve(int thread) {
  std::vector<float> inputs;
  while (true) {
    std::vector<std::shared_ptr<Job>> jobs;
    {
      std::unique_lock lock(mutex);
      jobs = take_batch(lock);
      if (jobs.empty()) return;
      if (running++ == 0) busy_since = Clock::now();
    }
    inputs.clear();
    for (const auto& job : jobs) inputs.insert(inputs.end(), job->inputs.begin(), job->inputs.end());
    const int n = static_cast<int>(inputs.size() / encoding.input_size());
    BatchDevice::Output output;
    std::exception_ptr error;
    try {
      output = device->run(thread, inputs.data(), n);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex);
      if (--running == 0) stats.busy_seconds += std::chrono::duration<double>(Clock::now() - busy_since).count();
      stats.positions += n;
      ++stats.batches;
    }
    std::size_t row = 0;
    for (const auto& job : jobs) {
      job->complete(output, row, error);
      row += job->requests.size();
    }
  }
}

BatchedEvaluator::BatchedEvaluator(std::shared_ptr<BatchDevice> device, const BatchingOptions& options) {
  if (options.max_batch < 1 || options.threads < 1 || options.deadline_us < 0 || options.cache_entries < 0)
    throw std::invalid_argument("inference: max_batch and threads must be at least 1, deadline_us and cache at least 0");
  impl_ = std::make_unique<Impl>(std::move(device), options);
  for (int i = 0; i < options.threads; ++i) impl_->threads.emplace_back([this, i] { impl_->serve(i); });
}

BatchedEvaluator::~BatchedEvaluator() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->work_ready.notify_all();
  impl_->job_arrived.notify_all();
  for (auto& thread : impl_->threads) thread.join();
}

void BatchedEvaluator::evaluate(std::span<const EvalRequest> batch) {
  const std::vector<const EvalRequest*> misses = impl_->cache_misses(batch);
  // A batch never holds more than max_batch positions (the device's buffers are sized for that):
  // a larger call goes as several jobs.
  const std::size_t max_batch = impl_->options.max_batch;
  std::vector<std::shared_ptr<Job>> jobs;
  for (std::size_t first = 0; first < misses.size(); first += max_batch) {
    const std::size_t count = std::min(max_batch, misses.size() - first);
    jobs.push_back(impl_->encode_job({misses.data() + first, count}));
  }
  if (jobs.empty()) return;
  bool forming = false;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->queue.insert(impl_->queue.end(), jobs.begin(), jobs.end());
    forming = impl_->forming;
  }
  (forming ? impl_->job_arrived : impl_->work_ready).notify_one();
  for (const auto& job : jobs) impl_->finish(*job);
}

std::string BatchedEvaluator::model_name() const { return impl_->device->model_name(); }

InferenceStats BatchedEvaluator::stats() const {
  std::lock_guard lock(impl_->mutex);
  InferenceStats stats = impl_->stats;
  stats.seconds = std::chrono::duration<double>(Clock::now() - impl_->start).count();
  if (impl_->running > 0) stats.busy_seconds += std::chrono::duration<double>(Clock::now() - impl_->busy_since).count();
  return stats;
}

}  // namespace ataxx
