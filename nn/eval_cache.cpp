#include "nn/eval_cache.h"

#include <algorithm>

namespace ataxx {

EvalCache::EvalCache(int entries) : slots_(static_cast<std::size_t>(std::max(entries, 0))) {}

bool EvalCache::find(std::uint64_t key, std::uint64_t generation, std::span<float> priors, Wdl* value) {
  const std::size_t index = key % slots_.size();
  std::lock_guard lock(shards_[index % kShards]);
  const Slot& slot = slots_[index];
  if (slot.key != key || slot.generation != generation || slot.priors.size() != priors.size()) return false;
  std::copy(slot.priors.begin(), slot.priors.end(), priors.begin());
  *value = slot.value;
  return true;
}

void EvalCache::insert(std::uint64_t key, std::uint64_t generation, std::span<const float> priors, const Wdl& value) {
  const std::size_t index = key % slots_.size();
  std::lock_guard lock(shards_[index % kShards]);
  Slot& slot = slots_[index];
  slot.key = key;
  slot.generation = generation;
  slot.value = value;
  slot.priors.assign(priors.begin(), priors.end());
}

}  // namespace ataxx
