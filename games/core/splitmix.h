// SplitMix64: the generator every game's Zobrist keys are drawn from, and the mixer of the search's
// transposition keys.
#pragma once

#include <cstdint>

namespace ataxx::zobrist {

inline constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace ataxx::zobrist
