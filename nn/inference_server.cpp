#include "nn/inference_server.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "nn/game_encoder.h"
#include "nn/network_backend.h"
#include "util/clock.h"

namespace ataxx {
namespace {

// A loaded network and which network of the process's life it is: cache entries carry the number.
struct Generation {
  std::shared_ptr<LoadedNetwork> network;
  std::uint64_t number = 0;
};

Generation load_generation(const std::string& play_file, const InferenceOptions& options) {
  static std::atomic<std::uint64_t> loads{0};
  std::shared_ptr<LoadedNetwork> network = load_network(play_file, options);
  return {std::move(network), ++loads};
}

}  // namespace

// The network of a play file as a batch device, and the play file that replaces it.
class NetworkDevice final : public BatchDevice {
 public:
  NetworkDevice(const std::string& play_file, const InferenceOptions& options)
      : options_(options), current_(load_generation(play_file, options)), io_(info().io()) {}
  NetworkIo io() const override { return io_; }

  Output run(int thread, const float* inputs, int n) override {
    const Generation generation = current();
    Output output = generation.network->forward(thread, inputs, n);
    output.generation = generation.number;
    return output;
  }
  std::uint64_t generation() const override { return current().number; }
  std::string model_name() const override { return info().name; }
  ModelInfo info() const { return current().network->info(); }

  void load(const std::string& play_file) {
    Generation loaded = load_generation(play_file, options_);
    const ModelInfo now = info(), next = loaded.network->info();
    if (next.game != now.game || next.boards.names() != now.boards.names())
      throw std::invalid_argument("inference: " + play_file + " plays " + next.game + " on " + next.boards.names() +
                                  "; the network it would replace plays " + now.game + " on " + now.boards.names());
    std::lock_guard lock(mutex_);
    current_ = std::move(loaded);
  }

 private:
  Generation current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }

  const InferenceOptions options_;
  mutable std::mutex mutex_;  // guards current_
  Generation current_;
  const NetworkIo io_;
};

namespace {

BatchingOptions batching(const InferenceOptions& o) {
  return {o.max_batch, o.deadline_us, o.threads, o.cache_entries, o.random_symmetry, o.caller_lanes};
}

template <typename G>
std::shared_ptr<NetworkDevice> network_of_game(const std::string& play_file, const InferenceOptions& options) {
  auto network = std::make_shared<NetworkDevice>(play_file, options);
  const ModelInfo info = network->info();
  if (info.game != G::kName)
    throw ModelFileError("model file '" + play_file + "' is a network of " + info.game + ", not of " +
                         std::string(G::kName));
  return network;
}

}  // namespace

template <typename G>
BasicInferenceServer<G>::BasicInferenceServer(const std::string& play_file, const InferenceOptions& options)
    : network_(network_of_game<G>(play_file, options)),
      batcher_(network_, make_encoder<G>(network_->info().boards), batching(options)) {}

template <typename G>
BasicInferenceServer<G>::~BasicInferenceServer() = default;

template <typename G>
void BasicInferenceServer<G>::evaluate(std::span<const BasicEvalRequest<G>> batch) {
  batcher_.evaluate(batch);
}
template <typename G>
void BasicInferenceServer<G>::load(const std::string& play_file) {
  network_->load(play_file);
}
template <typename G>
ModelInfo BasicInferenceServer<G>::info() const {
  return network_->info();
}
template <typename G>
std::string BasicInferenceServer<G>::model_name() const {
  return network_->model_name();
}
template <typename G>
InferenceStats BasicInferenceServer<G>::stats() const {
  return batcher_.stats();
}

#define ATAXX_INSTANTIATE(G) template class BasicInferenceServer<G>;
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds) {
  const std::unique_ptr<LoadedNetwork> network = load_network(play_file, options);
  const ModelInfo& info = network->info();
  const NetworkIo& io = network->io();
  const std::size_t size = io.input_size();
  std::vector<float> inputs(batch_size * size);
  for (int i = 0; i < batch_size; ++i) {
    const std::span<float> planes{inputs.data() + i * size, size};
    Games::with_game_named(info.game, [&]<typename G>() {
      make_encoder<G>(info.boards).encode(start_for<G>(info.boards), planes);
    });
  }
  // As the server runs a batch, the inputs already encoded by the callers; each pass's outputs
  // are on the host when it returns.
  auto run_once = [&] { network->forward(/*thread=*/0, inputs.data(), batch_size); };
  for (int i = 0; i < 3; ++i) run_once();  // warm-up
  const SteadyClock::time_point begin = SteadyClock::now();
  long long evaluated = 0;
  while (seconds_since(begin) < seconds) {
    run_once();
    evaluated += batch_size;
  }
  return evaluated / seconds_since(begin);
}

}  // namespace ataxx
