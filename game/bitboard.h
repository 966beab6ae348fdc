// Bitboards for the 7x7 Ataxx board: bit i is square i = rank * 7 + file (a1 = 0, g7 = 48).
// The 7-wide layout makes a square's bit index also its index in the network's planes.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace ataxx {

using Bitboard = std::uint64_t;
using Square = int;

inline constexpr int kBoardSize = 7;
inline constexpr int kNumSquares = kBoardSize * kBoardSize;
inline constexpr Bitboard kAllSquares = (Bitboard{1} << kNumSquares) - 1;

constexpr int file_of(Square sq) { return sq % kBoardSize; }
constexpr int rank_of(Square sq) { return sq / kBoardSize; }
constexpr Square make_square(int file, int rank) { return rank * kBoardSize + file; }
constexpr bool on_board(int file, int rank) {
  return file >= 0 && file < kBoardSize && rank >= 0 && rank < kBoardSize;
}
constexpr Bitboard bit(Square sq) { return Bitboard{1} << sq; }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return std::countr_zero(b); }
// Returns the lowest set square and clears it from b.
constexpr Square pop_lsb(Bitboard& b) {
  const Square sq = lsb(b);
  b &= b - 1;
  return sq;
}

namespace detail {
constexpr Bitboard file_mask(int file) {
  Bitboard b = 0;
  for (int rank = 0; rank < kBoardSize; ++rank) b |= bit(make_square(file, rank));
  return b;
}
constexpr int chebyshev(Square a, Square b) {
  const int df = file_of(a) > file_of(b) ? file_of(a) - file_of(b) : file_of(b) - file_of(a);
  const int dr = rank_of(a) > rank_of(b) ? rank_of(a) - rank_of(b) : rank_of(b) - rank_of(a);
  return df > dr ? df : dr;
}
constexpr std::array<Bitboard, kNumSquares> ring(int distance) {
  std::array<Bitboard, kNumSquares> rings{};
  for (Square from = 0; from < kNumSquares; ++from)
    for (Square to = 0; to < kNumSquares; ++to)
      if (chebyshev(from, to) == distance) rings[from] |= bit(to);
  return rings;
}
}  // namespace detail

inline constexpr Bitboard kFileA = detail::file_mask(0);
inline constexpr Bitboard kFileG = detail::file_mask(kBoardSize - 1);
// Squares a piece on sq can clone to (distance 1) and jump to (distance 2).
inline constexpr std::array<Bitboard, kNumSquares> kCloneTargets = detail::ring(1);
inline constexpr std::array<Bitboard, kNumSquares> kJumpTargets = detail::ring(2);

// Every square within distance 1 of a square of b, b itself included.
constexpr Bitboard dilate(Bitboard b) {
  const Bitboard row = (b | ((b << 1) & ~kFileA) | ((b >> 1) & ~kFileG)) & kAllSquares;
  return (row | (row << kBoardSize) | (row >> kBoardSize)) & kAllSquares;
}

}  // namespace ataxx
