// The template definitions of nn/batched_evaluator.h: included by batched_evaluator.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

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

#include <fmt/format.h>

#include "nn/eval_cache.h"

namespace ataxx {
namespace {

using Clock = std::chrono::steady_clock;

// One caller's cache misses, encoded, and where the device's answer to them is.
template <typename G>
struct Job {
  std::vector<const BasicEvalRequest<G>*> requests;
  std::vector<std::uint8_t> symmetries;  // each request's position is seen under (0: identity)
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

// Priors over the request's moves: a softmax of their logits, the position seen under `symmetry`.
template <typename G>
void fill_request(const GameEncoder<G>& encoder, const BasicEvalRequest<G>& r, int symmetry, const float* logits,
                  const float* wdl, float lead) {
  const auto& pos = *r.position;
  // The logits come from a device's copy, in no cache: the indices first, each logit's line
  // fetched as its index is known, so that the loads wait on memory together, not one by one.
  thread_local std::vector<int> indices;
  indices.resize(r.moves.size());
  for (std::size_t m = 0; m < r.moves.size(); ++m) {
    indices[m] = encoder.policy_index(pos, symmetry == 0 ? r.moves[m] : encoder.transformed(symmetry, pos, r.moves[m]));
    __builtin_prefetch(logits + indices[m]);
  }
  float max_logit = -1e30f;
  for (std::size_t m = 0; m < r.moves.size(); ++m) {
    r.priors[m] = logits[indices[m]];
    max_logit = std::max(max_logit, r.priors[m]);
  }
  float total = 0.0f;
  for (float& p : r.priors) total += p = std::exp(p - max_logit);
  for (float& p : r.priors) p /= total;
  *r.value = Wdl{wdl[0], wdl[1], wdl[2], lead};
}

}  // namespace

template <typename G>
struct BasicBatchedEvaluator<G>::Impl {
  using Request = BasicEvalRequest<G>;
  using Job = ataxx::Job<G>;
  std::shared_ptr<BatchDevice> device;
  const GameEncoder<G> encoder;
  const NetworkIo io;
  BatchingOptions options;
  EvalCache cache;
  const Clock::time_point start = Clock::now();
  mutable std::atomic<std::uint64_t> symmetry_draws{0};  // positions given a random symmetry so far

  // With no server threads: the lanes no caller is running a batch in.
  std::mutex lanes_mutex;
  std::condition_variable lane_freed;
  std::vector<int> free_lanes;

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

  Impl(std::shared_ptr<BatchDevice> d, GameEncoder<G> e, const BatchingOptions& o)
      : device(std::move(d)), encoder(std::move(e)), io(device->io()), options(o), cache(o.cache_entries) {
    for (int lane = o.caller_lanes - 1; lane >= 0; --lane) free_lanes.push_back(lane);
  }

  struct Batch {
    BatchDevice::Output output;
    std::exception_ptr error;
  };

  Batch run_batch(int thread, const float* inputs, int n);
  void serve(int thread);
  void run_here(Job& job);
  std::vector<std::shared_ptr<Job>> take_batch(std::unique_lock<std::mutex>& lock);
  std::vector<const Request*> cache_misses(std::span<const Request> batch);
  std::shared_ptr<Job> encode_job(std::span<const Request* const> requests) const;
  std::uint8_t draw_symmetry(const typename G::Position& pos) const;
  void finish(Job& job);
};

template <typename G>
std::vector<const BasicEvalRequest<G>*> BasicBatchedEvaluator<G>::Impl::cache_misses(std::span<const Request> batch) {
  std::vector<const Request*> misses;
  if (!cache.enabled()) {
    for (const Request& r : batch) misses.push_back(&r);
    return misses;
  }
  const std::uint64_t generation = device->generation();
  for (const Request& r : batch)
    if (!cache.find(encoder.key(*r.position), generation, r.priors, r.value)) misses.push_back(&r);
  std::lock_guard lock(mutex);
  stats.cache_lookups += batch.size();
  stats.cache_hits += batch.size() - misses.size();
  return misses;
}

template <typename G>
auto BasicBatchedEvaluator<G>::Impl::encode_job(std::span<const Request* const> requests) const -> std::shared_ptr<Job> {
  auto job = std::make_shared<Job>();
  job->requests.assign(requests.begin(), requests.end());
  const std::size_t size = io.input_size();
  job->inputs.resize(requests.size() * size);
  job->symmetries.resize(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& pos = *requests[i]->position;
    encoder.check(pos, device->model_name());
    const std::span<float> planes{job->inputs.data() + i * size, size};
    const std::uint8_t symmetry = job->symmetries[i] = options.random_symmetry ? draw_symmetry(pos) : 0;
    if (symmetry == 0)
      encoder.encode(pos, planes);
    else
      encoder.encode(encoder.transformed(symmetry, pos), planes);
  }
  return job;
}

template <typename G>
std::uint8_t BasicBatchedEvaluator<G>::Impl::draw_symmetry(const typename G::Position& pos) const {
  const SymmetryList list = encoder.augmentations(pos);
  std::uint64_t state = symmetry_draws.fetch_add(1, std::memory_order_relaxed);
  return list.symmetries[zobrist::splitmix64(state) % list.count];
}

// Waits for the job's rows, then turns them into its requests' priors and values.
template <typename G>
void BasicBatchedEvaluator<G>::Impl::finish(Job& job) {
  job.done.wait(0, std::memory_order_acquire);
  if (job.error) std::rethrow_exception(job.error);
  const BatchDevice::Output& out = job.output;
  for (std::size_t i = 0; i < job.requests.size(); ++i) {
    const std::size_t row = job.first_row + i;
    const Request& request = *job.requests[i];
    fill_request(encoder, request, job.symmetries[i], out.policy_logits + row * io.policy_size(), out.wdl + row * 3,
                 out.lead ? out.lead[row] : 0.0f);
    if (cache.enabled()) cache.insert(encoder.key(*request.position), out.generation, request.priors, *request.value);
  }
}

template <typename G>
auto BasicBatchedEvaluator<G>::Impl::take_batch(std::unique_lock<std::mutex>& lock) -> std::vector<std::shared_ptr<Job>> {
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

// Runs n encoded positions on the device, counting the batch and the time the device is busy
// (batches of several server threads may overlap).
template <typename G>
auto BasicBatchedEvaluator<G>::Impl::run_batch(int thread, const float* inputs, int n) -> Batch {
  {
    std::lock_guard lock(mutex);
    if (running++ == 0) busy_since = Clock::now();
  }
  Batch batch;
  try {
    batch.output = device->run(thread, inputs, n);
  } catch (...) {
    batch.error = std::current_exception();
  }
  std::lock_guard lock(mutex);
  if (--running == 0) stats.busy_seconds += std::chrono::duration<double>(Clock::now() - busy_since).count();
  stats.positions += n;
  ++stats.batches;
  return batch;
}

template <typename G>
void BasicBatchedEvaluator<G>::Impl::serve(int thread) {
  std::vector<float> inputs;
  while (true) {
    std::vector<std::shared_ptr<Job>> jobs;
    {
      std::unique_lock lock(mutex);
      jobs = take_batch(lock);
      if (jobs.empty()) return;
    }
    inputs.clear();
    for (const auto& job : jobs) inputs.insert(inputs.end(), job->inputs.begin(), job->inputs.end());
    const Batch batch = run_batch(thread, inputs.data(), static_cast<int>(inputs.size() / io.input_size()));
    std::size_t row = 0;
    for (const auto& job : jobs) {
      job->complete(batch.output, row, batch.error);
      row += job->requests.size();
    }
  }
}

// With no server threads: the caller's job on the device, on the caller's thread.
template <typename G>
void BasicBatchedEvaluator<G>::Impl::run_here(Job& job) {
  std::unique_lock lock(lanes_mutex);
  lane_freed.wait(lock, [&] { return !free_lanes.empty(); });
  const int lane = free_lanes.back();
  free_lanes.pop_back();
  lock.unlock();
  const Batch batch = run_batch(lane, job.inputs.data(), static_cast<int>(job.requests.size()));
  lock.lock();
  free_lanes.push_back(lane);
  lock.unlock();
  lane_freed.notify_one();
  job.complete(batch.output, 0, batch.error);
}

template <typename G>
BasicBatchedEvaluator<G>::BasicBatchedEvaluator(std::shared_ptr<BatchDevice> device, GameEncoder<G> encoder,
                                                const BatchingOptions& options) {
  if (options.max_batch < 1 || options.threads < 0 || options.deadline_us < 0 || options.cache_entries < 0 ||
      options.caller_lanes < 1)
    throw std::invalid_argument(
        "inference: max_batch and caller_lanes must be at least 1, threads, deadline_us and cache at least 0");
  const NetworkIo device_io = device->io(), game_io = encoder.io();
  if (device_io.input_size() != game_io.input_size() || device_io.policy_size() != game_io.policy_size())
    throw std::invalid_argument(fmt::format(
        "inference: {} takes {} inputs and gives {} policy entries; the game's encoding has {} and {}",
        device->model_name(), device_io.input_size(), device_io.policy_size(), game_io.input_size(), game_io.policy_size()));
  impl_ = std::make_unique<Impl>(std::move(device), std::move(encoder), options);
  for (int i = 0; i < options.threads; ++i) impl_->threads.emplace_back([this, i] { impl_->serve(i); });
}

template <typename G>
BasicBatchedEvaluator<G>::~BasicBatchedEvaluator() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->work_ready.notify_all();
  impl_->job_arrived.notify_all();
  for (auto& thread : impl_->threads) thread.join();
}

template <typename G>
void BasicBatchedEvaluator<G>::evaluate(std::span<const BasicEvalRequest<G>> batch) {
  const std::vector<const BasicEvalRequest<G>*> misses = impl_->cache_misses(batch);
  // A batch never holds more than max_batch positions (the device's buffers are sized for that):
  // a larger call goes as several jobs.
  const std::size_t max_batch = impl_->options.max_batch;
  std::vector<std::shared_ptr<typename Impl::Job>> jobs;
  for (std::size_t first = 0; first < misses.size(); first += max_batch) {
    const std::size_t count = std::min(max_batch, misses.size() - first);
    jobs.push_back(impl_->encode_job({misses.data() + first, count}));
  }
  if (jobs.empty()) return;
  if (impl_->threads.empty()) {
    for (const auto& job : jobs) {
      impl_->run_here(*job);
      impl_->finish(*job);
    }
    return;
  }
  bool forming = false;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->queue.insert(impl_->queue.end(), jobs.begin(), jobs.end());
    forming = impl_->forming;
  }
  (forming ? impl_->job_arrived : impl_->work_ready).notify_one();
  for (const auto& job : jobs) impl_->finish(*job);
}

template <typename G>
std::string BasicBatchedEvaluator<G>::model_name() const { return impl_->device->model_name(); }

template <typename G>
InferenceStats BasicBatchedEvaluator<G>::stats() const {
  std::lock_guard lock(impl_->mutex);
  InferenceStats stats = impl_->stats;
  stats.seconds = std::chrono::duration<double>(Clock::now() - impl_->start).count();
  if (impl_->running > 0) stats.busy_seconds += std::chrono::duration<double>(Clock::now() - impl_->busy_since).count();
  return stats;
}

}  // namespace ataxx
