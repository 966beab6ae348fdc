#include "mcts/subtree_bias.h"

namespace ataxx {

SubtreeBiasTable::SubtreeBiasTable(int log2_slots)
    : slots_(std::size_t{1} << log2_slots), mask_((std::uint64_t{1} << log2_slots) - 1) {
  used_.reserve(slots_.size());
}

SubtreeBiasTable SubtreeBiasTable::for_tree_bytes(std::size_t max_tree_bytes) {
  int log2_slots = 10;
  while (log2_slots < 24 && bytes_for(std::size_t{2} << log2_slots) <= max_tree_bytes / 20) ++log2_slots;
  return SubtreeBiasTable(log2_slots);
}

std::uint32_t SubtreeBiasTable::slot_of(std::uint64_t key) {
  if (key == 0) key = 1;  // 0 marks a free slot
  for (int probe = 0; probe < kProbes; ++probe) {
    const auto index = static_cast<std::uint32_t>((key + probe) & mask_);
    Slot& slot = slots_[index];
    if (slot.key == key) return index;
    if (slot.key == 0) {
      slot.key = key;
      used_.push_back(index);
      return index;
    }
  }
  return kNoSlot;
}

float SubtreeBiasTable::replace(std::uint32_t index, float old_error_weight, float old_weight, float error_weight,
                                float weight) {
  Slot& slot = slots_[index];
  slot.error_weight += static_cast<double>(error_weight) - old_error_weight;
  slot.weight += static_cast<double>(weight) - old_weight;
  return mean_error(index);
}

float SubtreeBiasTable::mean_error(std::uint32_t index) const {
  const Slot& slot = slots_[index];
  // Below a tenth of one child visit's weight, what is left is rounding.
  return slot.weight > 0.1 ? static_cast<float>(slot.error_weight / slot.weight) : 0.0f;
}

void SubtreeBiasTable::clear() {
  for (const std::uint32_t index : used_) slots_[index] = Slot{};
  used_.clear();
}

}  // namespace ataxx
