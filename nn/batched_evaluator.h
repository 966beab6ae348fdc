// Batched evaluation behind the search's Evaluator interface, for any device that runs encoded
// positions in batches (the network on a CPU or GPU, or a simulated device). Plain C++.
//
// Callers (search threads) look their leaves up in the cache, encode the misses, queue them and
// sleep; one server thread at a time forms a batch of whole jobs (up to max_batch positions,
// closed deadline_us after its first job), copies their inputs into one buffer and runs the
// device; each caller is woken on its own and turns its rows of logits into priors itself, so
// encoding and softmax run on the callers' threads, never in the server's way. With no server
// threads, each caller runs its own jobs on the device, as many at once as there are lanes: a
// search then never waits for another thread to be scheduled (twice a round with a server thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mcts/evaluator.h"
#include "nn/game_encoder.h"
#include "nn/model_info.h"

namespace ataxx {

// A device that evaluates encoded positions (io().input_size() floats each) in batches.
class BatchDevice {
 public:
  struct Output {
    const float* policy_logits = nullptr;  // n rows of io().policy_size()
    const float* wdl = nullptr;            // n rows of win, draw, loss probabilities
    const float* lead = nullptr;           // n expected final piece leads (Wdl::lead); null: no such head
    std::shared_ptr<const void> owner;     // keeps them alive
    std::uint64_t generation = 0;          // the network that answered (cache entries carry it)
  };
  virtual ~BatchDevice() = default;
  // Called by one thread at a time per `thread`: a server thread (0 .. threads - 1), or with none
  // a caller in its lane (0 .. caller_lanes - 1).
  virtual Output run(int thread, const float* inputs, int n) = 0;
  virtual std::uint64_t generation() const = 0;  // the network that will answer the next batch
  virtual std::string model_name() const = 0;
  virtual NetworkIo io() const = 0;  // the same for the device's lifetime
};

struct BatchingOptions {
  int max_batch = 256;
  int deadline_us = 1000;
  int threads = 1;        // server threads (0: the callers run their own batches)
  int cache_entries = 0;  // 0 = no cache
  // Each position goes to the device under a random one of its symmetries (KataGo's
  // nnRandomize): the net's errors under one orientation do not repeat through a whole search.
  bool random_symmetry = false;
  // With no server threads: callers that may run their batches on the device at once, each in a
  // lane of its own (the device's `thread` 0 .. caller_lanes - 1); the others wait for a lane.
  int caller_lanes = 1;
};

struct InferenceStats {
  std::uint64_t positions = 0;  // evaluated by the device
  std::uint64_t batches = 0;
  std::uint64_t cache_lookups = 0;
  std::uint64_t cache_hits = 0;
  double busy_seconds = 0;      // wall time with at least one batch on the device
  double seconds = 0;           // since the evaluator started
  double mean_batch() const { return batches ? double(positions) / batches : 0.0; }
  double cache_hit_rate() const { return cache_lookups ? double(cache_hits) / cache_lookups : 0.0; }
  double busy_share() const { return seconds > 0 ? busy_seconds / seconds : 0.0; }
};

// The positions of game G, encoded by `encoder` for a device of the same planes.
template <typename G>
class BasicBatchedEvaluator final : public BasicEvaluator<G> {
 public:
  // Throws std::invalid_argument for bad options, or a device whose planes are not the encoder's.
  BasicBatchedEvaluator(std::shared_ptr<BatchDevice> device, GameEncoder<G> encoder, const BatchingOptions& options);
  ~BasicBatchedEvaluator() override;

  void evaluate(std::span<const BasicEvalRequest<G>> batch) override;
  std::string model_name() const override;
  InferenceStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

using BatchedEvaluator = BasicBatchedEvaluator<DefaultGame>;

}  // namespace ataxx
