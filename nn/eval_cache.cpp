#include "nn/eval_cache.h"

#include <algorithm>

#include "nn/encoding.h"

namespace ataxx {

EvalCache::EvalCache(int entries) : slots_(static_cast<std::size_t>(std::max(entries, 0))) {}

bool EvalCache::find(const EvalRequest& request, std::uint64_t generation) {
  const std::uint64_t key = encoding_key(*request.position);
  const std::size_t index = key % slots_.size();
  std::lock_guard lock(shards_[index % kShards]);
  const Slot& slot = slots_[index];
  if (slot.key != key || slot.generation != generation || slot.priors.size() != request.moves.size()) return false;
  std::copy(slot.priors.begin(), slot.priors.end(), request.priors.begin());
  *request.value = slot.value;
  return true;
}

void EvalCache::insert(const EvalRequest& request, std::uint64_t generation) {
  const std::uint64_t key = encoding_key(*request.position);
  const std::size_t index = key % slots_.size();
  std::lock_guard lock(shards_[index % kShards]);
  Slot& slot = slots_[index];
  slot.key = key;
  slot.generation = generation;
  slot.value = *request.value;
  slot.priors.assign(request.priors.begin(), request.priors.end());
}

}  // namespace ataxx
