#include "nn/encoding.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace ataxx {
namespace {

// The 16 squares at distance 2, as (file, rank) offsets from the destination to the source.
constexpr std::array<std::array<int, 2>, 16> kJumpOffsets = [] {
  std::array<std::array<int, 2>, 16> offsets{};
  int n = 0;
  for (int dr = -2; dr <= 2; ++dr)
    for (int df = -2; df <= 2; ++df)
      if (std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr) == 2) offsets[n++] = {df, dr};
  return offsets;
}();

constexpr int jump_kind(int df, int dr) {
  for (int i = 0; i < 16; ++i)
    if (kJumpOffsets[i][0] == df && kJumpOffsets[i][1] == dr) return 1 + i;
  return -1;
}

// jump_kind of every (source, destination), looked up per move when priors are filled.
constexpr std::array<std::array<std::int8_t, kNumSquares>, kNumSquares> kJumpKinds = [] {
  std::array<std::array<std::int8_t, kNumSquares>, kNumSquares> table{};
  for (Square from = 0; from < kNumSquares; ++from)
    for (Square to = 0; to < kNumSquares; ++to)
      table[from][to] = static_cast<std::int8_t>(jump_kind(file_of(from) - file_of(to), rank_of(from) - rank_of(to)));
  return table;
}();

constexpr std::array<std::array<Square, kNumSquares>, kNumSymmetries> kSymmetrySquares = [] {
  std::array<std::array<Square, kNumSquares>, kNumSymmetries> table{};
  for (int s = 0; s < kNumSymmetries; ++s)
    for (Square sq = 0; sq < kNumSquares; ++sq) {
      int file = file_of(sq), rank = rank_of(sq);
      if (s & 1) file = kBoardSize - 1 - file;
      if (s & 2) rank = kBoardSize - 1 - rank;
      if (s & 4) std::swap(file, rank);
      table[s][sq] = make_square(file, rank);
    }
  return table;
}();

Bitboard transform_bitboard(int symmetry, Bitboard b) {
  Bitboard out = 0;
  while (b) out |= bit(kSymmetrySquares[symmetry][pop_lsb(b)]);
  return out;
}

}  // namespace

constexpr int kClockCap = 100;  // the clock plane holds min(clock, 100) / 100

void encode_position(const Position& pos, std::span<float, kInputSize> planes) {
  const Color us = pos.side_to_move();
  const Bitboard boards[4] = {pos.pieces(us), pos.pieces(~us), pos.gaps(), pos.empty()};
  for (int plane = 0; plane < 4; ++plane)
    for (Square sq = 0; sq < kNumSquares; ++sq) planes[plane * kNumSquares + sq] = (boards[plane] >> sq) & 1;
  const float clock = static_cast<float>(std::min(pos.halfmove_clock(), kClockCap)) / kClockCap;
  std::fill_n(planes.begin() + 4 * kNumSquares, kNumSquares, clock);
  std::fill_n(planes.begin() + 5 * kNumSquares, kNumSquares, 1.0f);
}

std::uint64_t encoding_key(const Position& pos) {
  std::uint64_t clock = static_cast<std::uint64_t>(std::min(pos.halfmove_clock(), kClockCap));
  return pos.hash() ^ zobrist::splitmix64(clock);
}

int policy_index(Move move) {
  if (move.is_pass()) return kPassIndex;
  if (move.is_single()) return move.to * kMovesPerSquare;
  const int kind = kJumpKinds[move.from][move.to];
  assert(kind > 0);
  return move.to * kMovesPerSquare + kind;
}

Move move_from_policy_index(int index) {
  if (index == kPassIndex) return Move::pass();
  const Square to = index / kMovesPerSquare;
  const int kind = index % kMovesPerSquare;
  if (kind == 0) return Move::single(to);
  const auto [df, dr] = kJumpOffsets[kind - 1];
  // An off-board source is not a move; callers index only legal moves' entries.
  const int file = file_of(to) + df, rank = rank_of(to) + dr;
  return on_board(file, rank) ? Move::jump(make_square(file, rank), to) : Move::pass();
}

Square transform_square(int symmetry, Square sq) { return kSymmetrySquares[symmetry][sq]; }

Move transform_move(int symmetry, Move move) {
  if (move.is_pass()) return move;
  return Move::jump(transform_square(symmetry, move.from), transform_square(symmetry, move.to));
}

Position transform_position(int symmetry, const Position& pos) {
  return Position::from_bitboards(transform_bitboard(symmetry, pos.pieces(Color::kX)),
                                  transform_bitboard(symmetry, pos.pieces(Color::kO)),
                                  transform_bitboard(symmetry, pos.gaps()), pos.side_to_move(), pos.halfmove_clock(),
                                  pos.fullmove_number());
}

int inverse_symmetry(int symmetry) {
  // Every element is its own inverse except the two quarter turns (file mirror + swap, rank mirror + swap).
  if (symmetry == 5) return 6;
  if (symmetry == 6) return 5;
  return symmetry;
}

}  // namespace ataxx
