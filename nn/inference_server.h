// Batched network evaluation behind the search's Evaluator interface. Plain C++: no torch here.
//
// Callers (search threads) hand in their leaves and block; server threads merge the queued
// requests into batches of up to max_batch positions (closing a batch deadline_us after its
// first request), run the network, and answer each caller with priors over its legal moves
// and a win/draw/loss value.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "nn/model_info.h"

namespace ataxx {

struct InferenceOptions {
  std::string device = "cpu";  // "cpu", "cuda" or "cuda:N"
  bool bf16 = false;           // CUDA only
  int max_batch = 256;
  int deadline_us = 1000;
  int threads = 1;             // server threads, each with one intra-op thread on the CPU
  int cache_entries = 0;       // 0 = no cache
};

struct InferenceStats {
  std::uint64_t positions = 0;  // evaluated by the network
  std::uint64_t batches = 0;
  std::uint64_t cache_lookups = 0;
  std::uint64_t cache_hits = 0;
  double mean_batch() const { return batches ? double(positions) / batches : 0.0; }
  double cache_hit_rate() const { return cache_lookups ? double(cache_hits) / cache_lookups : 0.0; }
};

class InferenceServer final : public Evaluator {
 public:
  // Throws ModelFileError for a bad file, std::invalid_argument for bad options.
  InferenceServer(const std::string& play_file, const InferenceOptions& options);
  ~InferenceServer() override;

  void evaluate(std::span<const EvalRequest> batch) override;
  // Loads another play file; batches already running finish on the old network, the next
  // batch runs on the new one.
  void load(const std::string& play_file);
  ModelInfo info() const;
  std::string model_name() const override;
  InferenceStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Plain-C++ entry points for the benchmark (`ataxx-zero bench nn`).
// A fresh network of the given shape, saved as a play file (untrained weights).
void write_random_play_file(const std::string& path, const ModelShape& shape, std::uint64_t seed);
// Evaluations per second of the raw forward pass at one batch size, one intra-op thread.
double measure_raw_forward(const std::string& play_file, const InferenceOptions& options, int batch_size,
                           double seconds);

}  // namespace ataxx
