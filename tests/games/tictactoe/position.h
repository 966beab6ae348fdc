// Tic-tac-toe, the tests' own game: the smallest game the whole contract (games/game_type.h) holds
// for, to show that a game is a folder. x moves first; three in a row wins; a full board is a draw.
// Cells are numbered row by row from a1 (0) to c3 (8); the FEN is the rows from the top, then the
// side to move: "x.o/.x./o.. o".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "games/core/bitboard.h"
#include "games/core/move_list.h"
#include "games/core/outcome.h"

namespace ataxx::tictactoe {

inline constexpr int kCells = 9;
inline constexpr Bitboard kBoard = (Bitboard{1} << kCells) - 1;

struct Move {
  std::int8_t cell = -1;
  // No side ever passes: the pass is the move no position allows.
  static constexpr Move pass() { return {}; }
  constexpr bool is_pass() const { return cell < 0; }
  friend bool operator==(const Move&, const Move&) = default;
};

inline constexpr int kMaxMoves = kCells;
using MoveList = BasicMoveList<Move, kMaxMoves>;

// No end-of-game numbers: nine moves end every game.
struct Rules {};

// Whether the men hold three in a row.
bool has_line(Bitboard men);

class Position {
 public:
  static Position start() { return {}; }
  // Throws std::invalid_argument for a malformed FEN or an impossible count of men.
  static Position from_fen(std::string_view fen);
  // Throws std::invalid_argument for men off the board or on one cell, or counts x cannot have.
  static Position from_men(Bitboard x, Bitboard o, Color side);

  Color side_to_move() const { return side_; }
  Bitboard men(Color side) const { return men_[index(side)]; }
  Bitboard empty() const { return kBoard & ~(men_[0] | men_[1]); }
  std::uint64_t hash() const;
  std::string fen() const;
  // Every empty cell, none once the game is over.
  void generate_moves(MoveList& moves) const;
  Outcome outcome(const Rules& = {}) const;
  bool has_line(Color side) const { return tictactoe::has_line(men(side)); }
  bool is_legal(Move move) const {
    return !move.is_pass() && move.cell < kCells && (empty() & Bitboard{1} << move.cell) && !outcome().is_over();
  }
  void make_move(Move move);
  friend bool operator==(const Position&, const Position&) = default;

 private:
  std::array<Bitboard, 2> men_{};
  Color side_ = Color::kX;
};

std::string to_string(Move move);
Move parse_move(std::string_view text);  // "a1".."c3", "0000" the pass; throws std::invalid_argument

// The eight symmetries of the square, 0 the identity: where a cell goes under each.
int transform_cell(int symmetry, int cell);

}  // namespace ataxx::tictactoe
