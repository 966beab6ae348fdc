// The network behind the search's Evaluator interface, for the game its play file names: a
// BasicBatchedEvaluator whose device is the network, on the CPU or a GPU. Plain C++: no torch here.
// What a play file says about itself without loading it: read_model_info (nn/play_file.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nn/batched_evaluator.h"
#include "nn/game_encoder.h"
#include "nn/inference_options.h"
#include "nn/model_info.h"
#include "nn/play_file.h"

namespace ataxx {

// The network of a play file as a batch device, run by the program's backend (nn/network_backend.h).
class NetworkDevice;

template <typename G>
class BasicInferenceServer final : public BasicEvaluator<G> {
 public:
  // Throws ModelFileError for a bad file or a model of another game, std::invalid_argument for
  // bad options.
  BasicInferenceServer(const std::string& play_file, const InferenceOptions& options);
  ~BasicInferenceServer() override;

  // Throws std::invalid_argument for a position on a board the network was not trained on.
  void evaluate(std::span<const BasicEvalRequest<G>> batch) override;
  void check_evaluates(const typename G::Position& pos) const override;
  // Loads another play file of the same game and boards; batches already running finish on the
  // old network, the next batch runs on the new one.
  void load(const std::string& play_file);
  ModelInfo info() const;
  std::string model_name() const override;
  InferenceStats stats() const;
  // The network's ownership head at pos, one value per cell of its board (G::cells, in the cells'
  // order): the cell's final owner from the view of the side to move, from -1 to 1 (a gap: 0). Throws
  // std::invalid_argument for a board the network was not trained on.
  std::vector<float> ownership(const typename G::Position& pos) const;

 private:
  std::shared_ptr<NetworkDevice> network_;
  GameEncoder<G> encoder_;  // of the boards of every network load() may bring: the same
  BasicBatchedEvaluator<G> batcher_;
};

using InferenceServer = BasicInferenceServer<DefaultGame>;

// Evaluations per second of the raw forward pass at one batch size, one intra-op thread.
double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds);

}  // namespace ataxx
