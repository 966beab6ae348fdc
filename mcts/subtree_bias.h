// KataGo's subtree value bias correction (KataGoMethods.md): the network's error at a node, its
// value less the mean value of the subtree searched under it, tends to recur wherever the same
// local play recurs in the tree. Nodes are bucketed by a key (the mover, the last two moves, the
// cells around the last move); each bucket keeps its nodes' errors weighted by (child visits)^0.8,
// and a node's own value in the search is the network's less a share of its bucket's mean error.
//
// This is the table of buckets: open addressing over a fixed number of slots, so that its memory
// is known in advance; a key that finds no free slot within a few probes gets none (its nodes go
// uncorrected).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ataxx {

class SubtreeBiasTable {
 public:
  static constexpr std::uint32_t kNoSlot = ~std::uint32_t{0};
  static constexpr float kWeightExponent = 0.8f;  // KataGo's alpha

  explicit SubtreeBiasTable(int log2_slots);
  // The table for a tree of at most max_tree_bytes: the most slots (a power of two) that a twentieth
  // of it holds, a slot for every third node or so (about 360 bytes each with their edges).
  static SubtreeBiasTable for_tree_bytes(std::size_t max_tree_bytes);

  // The slot of key, taken for it where it has none yet; kNoSlot when its probes are all taken.
  std::uint32_t slot_of(std::uint64_t key);
  // A node's share of its slot changes from (old_error x old_weight, old_weight) to (error x weight,
  // weight); returns the slot's mean error after it.
  float replace(std::uint32_t slot, float old_error_weight, float old_weight, float error_weight, float weight);
  float mean_error(std::uint32_t slot) const;
  std::uint64_t key_of(std::uint32_t slot) const { return slots_[slot].key; }
  void clear();  // every slot free again
  std::size_t bytes() const { return bytes_for(slots_.size()); }
  static std::size_t bytes_for(std::size_t slots) { return slots * (sizeof(Slot) + sizeof(std::uint32_t)); }

 private:
  struct Slot {
    std::uint64_t key = 0;  // 0: free (key 0 is taken as 1)
    double error_weight = 0.0;
    double weight = 0.0;
  };
  static constexpr int kProbes = 8;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_;  // the slots taken, to clear them alone
  std::uint64_t mask_ = 0;
};

}  // namespace ataxx
