// The network behind the search's Evaluator interface: a BatchedEvaluator whose device is the
// network of a play file, on the CPU or a GPU. Plain C++: no torch here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nn/batched_evaluator.h"
#include "nn/model_info.h"

namespace ataxx {

// How the network runs on the CPU: the Eigen forward pass (nn/cpu_network.h) for small batches
// and LibTorch's for large ones (each where it is the faster), or LibTorch's for all.
enum class CpuPath { kEigen, kTorch };

struct InferenceOptions {
  std::string device = "cpu";  // "cpu", "cuda" or "cuda:N"
  bool bf16 = false;           // CUDA only
  bool cuda_graphs = false;    // CUDA only, in a build with ATAXX_CUDA_GRAPHS (nn/graphed_forward.h)
  int max_batch = 256;
  int deadline_us = 1000;
  int threads = 1;             // server threads, each with one intra-op thread on the CPU
  int batch_threads = 1;       // threads that share each batch (the CPU's Eigen path, one server thread)
  int cache_entries = 0;       // 0 = no cache
  CpuPath cpu_path = CpuPath::kEigen;
};

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
                            const BoardSet& boards = {});
// Evaluations per second of the raw forward pass at one batch size, one intra-op thread.
double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds);

}  // namespace ataxx
