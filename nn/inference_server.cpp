#include "nn/inference_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "nn/eval_cache.h"
#include "nn/model_file.h"
#include "nn/torch_compat.h"

namespace ataxx {
namespace {

using Clock = std::chrono::steady_clock;

// One caller's requests. The server answers each job on its own: no wake-up reaches a caller
// whose job is not done.
struct Job {
  std::span<const EvalRequest> requests;
  std::mutex mutex;  // held by the server while it marks the job done and wakes its caller
  std::condition_variable finished;
  std::atomic<bool> done{false};  // set under `mutex`; a spinning caller reads it without
  std::exception_ptr error;       // written before `done`

  void complete(std::exception_ptr failure) {
    std::lock_guard lock(mutex);
    error = std::move(failure);
    done.store(true, std::memory_order_release);
    finished.notify_one();  // under the lock: the caller cannot return, and end the job, before this
  }
  void wait() {
    // A short yielding spin first: a wake-up through the condition variable costs a good share
    // of a small batch's forward pass on a virtual machine.
    for (int spin = 0; spin < 2000 && !done.load(std::memory_order_acquire); ++spin) std::this_thread::yield();
    std::unique_lock lock(mutex);  // also waits until complete() has let go of the job
    finished.wait(lock, [&] { return done.load(std::memory_order_acquire); });
  }
};

struct LoadedNet {
  AtaxxNet net{nullptr};
  ModelInfo info;
  std::uint64_t generation = 0;  // which network of the server's life: cache entries carry it
};

std::shared_ptr<LoadedNet> load_for(const std::string& path, torch::Device device, bool bf16) {
  static std::atomic<std::uint64_t> loads{0};
  auto loaded = std::make_shared<LoadedNet>();
  loaded->generation = ++loads;
  loaded->net = load_play_file(path, &loaded->info);
  loaded->net->fold_batch_norms();  // in fp32, before any conversion
  loaded->net->to(device, bf16 ? torch::kBFloat16 : torch::kFloat32);
  loaded->net->eval();
  return loaded;
}

// Runs the network on positions and fills the requests' priors and values.
void run_network(LoadedNet& loaded, torch::Device device, bool bf16, std::span<const EvalRequest* const> requests) {
  std::vector<const Position*> positions(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) positions[i] = requests[i]->position;
  const auto input = to_inference_input(encode_batch(positions), device, bf16 ? torch::kBFloat16 : torch::kFloat32);
  const NetworkOutput out = loaded.net->forward(input);
  const auto policy = out.policy_logits.to(torch::kCPU, torch::kFloat32).contiguous();
  const auto wdl = torch::softmax(out.wdl_logits.to(torch::kCPU, torch::kFloat32), 1).contiguous();
  const float* policy_data = policy.data_ptr<float>();
  const float* wdl_data = wdl.data_ptr<float>();
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const EvalRequest& r = *requests[i];
    const float* logits = policy_data + i * kPolicySize;
    float max_logit = -1e30f;
    for (std::size_t m = 0; m < r.moves.size(); ++m) {
      r.priors[m] = logits[policy_index(r.moves[m])];
      max_logit = std::max(max_logit, r.priors[m]);
    }
    float total = 0.0f;
    for (float& p : r.priors) total += p = std::exp(p - max_logit);
    for (float& p : r.priors) p /= total;
    *r.value = Wdl{wdl_data[i * 3], wdl_data[i * 3 + 1], wdl_data[i * 3 + 2]};
  }
}

}  // namespace

struct InferenceServer::Impl {
  InferenceOptions options;
  torch::Device device{torch::kCPU};
  EvalCache cache;

  mutable std::mutex mutex;  // guards everything below
  std::condition_variable work_ready;
  std::deque<Job*> queue;
  std::shared_ptr<LoadedNet> net;
  InferenceStats stats;
  bool stopping = false;
  std::vector<std::thread> threads;

  explicit Impl(const InferenceOptions& o) : options(o), cache(o.cache_entries) {}

  void serve();
  // Takes whole jobs, up to max_batch positions, waiting at most deadline_us after the first.
  std::vector<Job*> take_batch(std::unique_lock<std::mutex>& lock);
};

std::vector<Job*> InferenceServer::Impl::take_batch(std::unique_lock<std::mutex>& lock) {
  work_ready.wait(lock, [&] { return stopping || !queue.empty(); });
  std::vector<Job*> jobs;
  if (queue.empty()) return jobs;
  const auto deadline = Clock::now() + std::chrono::microseconds(options.deadline_us);
  std::size_t positions = 0;
  while (true) {
    while (!queue.empty() && (jobs.empty() || positions + queue.front()->requests.size() <= std::size_t(options.max_batch))) {
      positions += queue.front()->requests.size();
      jobs.push_back(queue.front());
      queue.pop_front();
    }
    if (positions >= std::size_t(options.max_batch) || !queue.empty() || stopping) break;
    if (!work_ready.wait_until(lock, deadline, [&] { return stopping || !queue.empty(); })) break;
  }
  return jobs;
}

void InferenceServer::Impl::serve() {
  torch_compat::use_one_intra_op_thread();
  c10::InferenceMode inference_mode;
  std::vector<const EvalRequest*> pending;
  while (true) {
    std::vector<Job*> jobs;
    std::shared_ptr<LoadedNet> current;
    {
      std::unique_lock lock(mutex);
      jobs = take_batch(lock);
      if (jobs.empty()) return;
      current = net;
    }
    pending.clear();
    std::uint64_t hits = 0, lookups = 0;
    for (Job* job : jobs)
      for (const EvalRequest& r : job->requests) {
        if (cache.enabled()) {
          ++lookups;
          if (cache.find(r, current->generation)) {
            ++hits;
            continue;
          }
        }
        pending.push_back(&r);
      }
    std::exception_ptr error;
    try {
      if (!pending.empty()) run_network(*current, device, options.bf16, pending);
      if (cache.enabled())
        for (const EvalRequest* r : pending) cache.insert(*r, current->generation);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex);
      stats.positions += pending.size();
      stats.batches += pending.empty() ? 0 : 1;
      stats.cache_lookups += lookups;
      stats.cache_hits += hits;
    }
    for (Job* job : jobs) job->complete(error);
  }
}

InferenceServer::InferenceServer(const std::string& play_file, const InferenceOptions& options)
    : impl_(std::make_unique<Impl>(options)) {
  if (options.max_batch < 1 || options.threads < 1 || options.deadline_us < 0)
    throw std::invalid_argument("inference: max_batch and threads must be at least 1, deadline_us at least 0");
  impl_->device = torch_compat::parse_device(options.device);
  if (options.bf16 && !impl_->device.is_cuda()) throw std::invalid_argument("inference: bf16 needs a CUDA device");
  impl_->net = load_for(play_file, impl_->device, options.bf16);
  for (int i = 0; i < options.threads; ++i) impl_->threads.emplace_back([this] { impl_->serve(); });
}

InferenceServer::~InferenceServer() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->work_ready.notify_all();
  for (auto& thread : impl_->threads) thread.join();
}

void InferenceServer::evaluate(std::span<const EvalRequest> batch) {
  if (batch.empty()) return;
  Job job;
  job.requests = batch;
  {
    std::lock_guard lock(impl_->mutex);
    impl_->queue.push_back(&job);
  }
  impl_->work_ready.notify_one();
  job.wait();
  if (job.error) std::rethrow_exception(job.error);
}

void InferenceServer::load(const std::string& play_file) {
  auto loaded = load_for(play_file, impl_->device, impl_->options.bf16);
  std::lock_guard lock(impl_->mutex);
  impl_->net = std::move(loaded);
}

ModelInfo InferenceServer::info() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->net->info;
}

std::string InferenceServer::model_name() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->net->info.name;
}

InferenceStats InferenceServer::stats() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->stats;
}

void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed) {
  torch::manual_seed(seed);
  AtaxxNet net(shape);
  ModelInfo info;
  info.shape = shape;
  info.name = "random-init";
  save_play_file(path, net, info);
}

double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds) {
  torch_compat::use_one_intra_op_thread();
  c10::InferenceMode inference_mode;
  const torch::Device device = torch_compat::parse_device(options.device);
  auto loaded = load_for(play_file, device, options.bf16);
  std::vector<Position> positions;
  for (int i = 0; i < batch_size; ++i) positions.push_back(Position::startpos());
  std::vector<const Position*> pointers;
  for (const auto& p : positions) pointers.push_back(&p);
  const auto dtype = options.bf16 ? torch::kBFloat16 : torch::kFloat32;
  auto run_once = [&] {
    // As the server does it: encode on the host, one copy in, forward, one copy of each output out.
    const auto input = to_inference_input(encode_batch(pointers), device, dtype);
    const NetworkOutput out = loaded->net->forward(input);
    (void)out.policy_logits.to(torch::kCPU, torch::kFloat32);
    (void)out.wdl_logits.to(torch::kCPU, torch::kFloat32);
  };
  for (int i = 0; i < 3; ++i) run_once();  // warm-up
  torch_compat::synchronize(device);
  const auto begin = Clock::now();
  long long evaluated = 0;
  while (std::chrono::duration<double>(Clock::now() - begin).count() < seconds) {
    run_once();
    evaluated += batch_size;
  }
  torch_compat::synchronize(device);
  return evaluated / std::chrono::duration<double>(Clock::now() - begin).count();
}

}  // namespace ataxx
