// The network behind the search's Evaluator interface: a BatchedEvaluator whose device is the
// network of a play file, on the CPU or a GPU. Plain C++: no torch here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nn/batched_evaluator.h"
#include "nn/inference_options.h"
#include "nn/model_info.h"

namespace ataxx {

class InferenceServer final : public Evaluator {
 public:
  // Throws ModelFileError for a bad file, std::invalid_argument for bad options.
  InferenceServer(const std::string& play_file, const InferenceOptions& options);
  ~InferenceServer() override;

  // Throws std::invalid_argument for a position on a board the network was not trained on.
  void evaluate(std::span<const EvalRequest> batch) override;
  // Loads another play file of the same boards; batches already running finish on the old
  // network, the next batch runs on the new one.
  void load(const std::string& play_file);
  ModelInfo info() const;
  std::string model_name() const override;
  InferenceStats stats() const;

 private:
  class Network;
  std::shared_ptr<Network> network_;
  BoardSet boards_;
  BatchedEvaluator batcher_;
};

// Plain-C++ entry points for the benchmarks (`ataxx-zero bench nn`, `bench selfplay`).
// A fresh network of the given shape, saved as a play file (untrained weights).
void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed,
                            const BoardSet& boards = {}, const RuleSettings& rules = {});
// Evaluations per second of the raw forward pass at one batch size, one intra-op thread.
double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds);

}  // namespace ataxx
