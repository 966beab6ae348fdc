// The symmetries a game's position may be seen under, by number (each game numbers its own; 0 is
// the identity): what training augments with and the evaluator averages over.
#pragma once

#include <array>
#include <cstdint>

namespace ataxx {

inline constexpr int kMaxSymmetries = 12;  // the most of any game's boards: the hexagon's rotations and reflections

struct SymmetryList {
  std::array<std::uint8_t, kMaxSymmetries> symmetries{};
  int count = 0;
};

}  // namespace ataxx
