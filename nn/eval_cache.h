// Network evaluations by position, for positions that recur (transpositions inside a tree, the
// same openings in many games). Direct mapped; a slot is guarded by the lock of its shard, and
// the shard is a function of the slot, so one slot is never written under two locks. Entries
// carry the generation of the network that made them: after a new network is loaded, old
// entries miss. Plain C++: no torch.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "mcts/evaluator.h"

namespace ataxx {

class EvalCache {
 public:
  explicit EvalCache(int entries);
  bool enabled() const { return !slots_.empty(); }
  // key: a hash of the encoded position (GameEncoder::key). Fills priors and value from the
  // entry of a network of this generation with as many priors, if any.
  bool find(std::uint64_t key, std::uint64_t generation, std::span<float> priors, Wdl* value);
  void insert(std::uint64_t key, std::uint64_t generation, std::span<const float> priors, const Wdl& value);

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint64_t generation = 0;
    Wdl value;
    std::vector<float> priors;
  };
  static constexpr std::size_t kShards = 64;

  std::vector<Slot> slots_;  // slot i is guarded by shards_[i % kShards]
  std::array<std::mutex, kShards> shards_;
};

}  // namespace ataxx
