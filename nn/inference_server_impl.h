// The template definitions of nn/inference_server.h: included by inference_server.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "nn/inference_server.h"

#include <mutex>
#include <utility>
#include <vector>

#include "nn/game_encoder.h"
#include "nn/network_backend.h"
#include "util/clock.h"

namespace ataxx {

// A loaded network and which network of the process's life it is: cache entries carry the number.
struct Generation {
  std::shared_ptr<LoadedNetwork> network;
  std::uint64_t number = 0;
};

// The network of a play file as a batch device, and the play file that replaces it; io_of says
// which game's networks it loads (inference_server.cpp).
class NetworkDevice final : public BatchDevice {
 public:
  NetworkDevice(const std::string& play_file, const InferenceOptions& options, NetworkIoOf io_of);
  NetworkIo io() const override { return io_; }

  Output run(int thread, const float* inputs, int n) override {
    const Generation generation = current();
    Output output = generation.network->forward(thread, inputs, n);
    output.generation = generation.number;
    return output;
  }
  std::uint64_t generation() const override { return current().number; }
  void ownership(const float* inputs, int n, float* out) const { current().network->ownership(inputs, n, out); }
  std::string model_name() const override { return info().name; }
  ModelInfo info() const { return current().network->info(); }
  void load(const std::string& play_file);

 private:
  Generation current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }

  const InferenceOptions options_;
  const NetworkIoOf io_of_;
  mutable std::mutex mutex_;  // guards current_
  Generation current_;
  const NetworkIo io_;
};

namespace {

BatchingOptions batching(const InferenceOptions& o) {
  return {o.max_batch, o.deadline_us, o.threads, o.cache_entries, o.random_symmetry, o.caller_lanes};
}

}  // namespace

template <typename G>
BasicInferenceServer<G>::BasicInferenceServer(const std::string& play_file, const InferenceOptions& options)
    : network_(std::make_shared<NetworkDevice>(play_file, options, network_io_of<G>)),
      encoder_(make_encoder<G>(network_->info().boards)),
      batcher_(network_, encoder_, batching(options)) {}

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
template <typename G>
void BasicInferenceServer<G>::check_evaluates(const typename G::Position& pos) const {
  encoder_.check(pos, network_->model_name());
}
template <typename G>
std::vector<float> BasicInferenceServer<G>::ownership(const typename G::Position& pos) const {
  encoder_.check(pos, network_->model_name());
  const NetworkIo io = encoder_.io();
  std::vector<float> planes(io.input_size()), canvas(io.area());
  encoder_.encode(pos, planes);
  network_->ownership(planes.data(), 1, canvas.data());
  std::vector<float> cells(G::cells(pos));
  const Bitboard gaps = G::gaps(pos);  // no one's
  for (int cell = 0; cell < static_cast<int>(cells.size()); ++cell)
    cells[cell] = (gaps >> cell & 1) ? 0.0f : canvas[encoder_.canvas_cell(0, pos, cell)];
  return cells;
}

}  // namespace ataxx
