#include "nn/inference_server_impl.h"

#include <atomic>

namespace ataxx {
namespace {

Generation load_generation(const std::string& play_file, const InferenceOptions& options, NetworkIoOf io_of) {
  static std::atomic<std::uint64_t> loads{0};
  std::shared_ptr<LoadedNetwork> network = load_network(play_file, options, io_of);
  return {std::move(network), ++loads};
}

}  // namespace

NetworkDevice::NetworkDevice(const std::string& play_file, const InferenceOptions& options, NetworkIoOf io_of)
    : options_(options), io_of_(io_of), current_(load_generation(play_file, options, io_of)), io_(current_.network->io()) {}

void NetworkDevice::load(const std::string& play_file) {
  Generation loaded = load_generation(play_file, options_, io_of_);
  const ModelInfo now = info(), next = loaded.network->info();
  if (next.game != now.game || next.boards.names() != now.boards.names())
    throw std::invalid_argument("inference: " + play_file + " plays " + next.game + " on " + next.boards.names() +
                                "; the network it would replace plays " + now.game + " on " + now.boards.names());
  std::lock_guard lock(mutex_);
  current_ = std::move(loaded);
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
