// A move: a single (clone) is written as its destination "g2", a jump as from-to "a7c5",
// a pass as "0000". Cells are named by column letter and row digit on every board.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "games/ataxx/board.h"
#include "games/core/move_list.h"

namespace ataxx {

struct Move {
  static constexpr std::uint8_t kPassSquare = kMaxCells;

  // Trivially constructible so that move lists cost nothing to create; Move::pass() and the
  // other factories give a value.
  std::uint8_t from;  // equal to `to` for a single
  std::uint8_t to;

  static constexpr Move single(Square to) { return {static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(to)}; }
  static constexpr Move jump(Square from, Square to) {
    return {static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
  }
  static constexpr Move pass() { return {kPassSquare, kPassSquare}; }

  constexpr bool is_pass() const { return to == kPassSquare; }
  constexpr bool is_single() const { return from == to && !is_pass(); }
  constexpr bool is_jump() const { return from != to; }
  friend constexpr bool operator==(Move, Move) = default;
};

// Parses "g2", "a7c5" or "0000" on a board; throws std::invalid_argument naming the text and the
// fault. Checks the notation only (cells on the board, a jump spans distance 2), not legality.
Move parse_move(std::string_view text, const Board& board);
std::string to_string(Move move, const Board& board);
std::string square_name(Square sq, const Board& board);

// Enough for every legal move list: each destination by each of its (at most 16) jump sources,
// plus singles and the pass.
inline constexpr int kMaxMoves = kMaxCells * 17 + 1;

using MoveList = BasicMoveList<Move, kMaxMoves>;

}  // namespace ataxx
