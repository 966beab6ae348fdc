// Bitboards: a set of up to 64 cells in one word, the cells numbered by each game's board.
#pragma once

#include <bit>
#include <cstdint>

namespace ataxx {

using Bitboard = std::uint64_t;
using Square = int;

constexpr Bitboard bit(Square sq) { return Bitboard{1} << sq; }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return std::countr_zero(b); }
// Returns the lowest set square and clears it from b.
constexpr Square pop_lsb(Bitboard& b) {
  const Square sq = lsb(b);
  b &= b - 1;
  return sq;
}

}  // namespace ataxx
