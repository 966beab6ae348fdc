// A Schataxx game in progress: the position, the moves and the hashes since the last drop (a
// drop changes a stock for good, so no earlier position can recur), for the repetition rule.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "games/schataxx/position.h"

namespace ataxx::schataxx {

class Game {
 public:
  explicit Game(const Position& start = Position::startpos(), Rules rules = {});

  const Position& position() const { return position_; }
  const Position& start() const { return start_; }
  const Rules& rules() const { return rules_; }
  const std::vector<Move>& moves() const { return moves_; }

  // Throws std::invalid_argument when the move is not legal here (or the game is over).
  void play(Move move);
  void play(std::string_view move_text) { play(parse_move(move_text)); }
  // How many times the current board, stocks and side have occurred, this time included.
  int repetitions() const;
  // The hashes of the positions that can still recur (those since the last drop), the current last.
  std::span<const std::uint64_t> recent_hashes() const { return hashes_; }
  Outcome outcome() const;

 private:
  Position start_;
  Position position_;
  Rules rules_;
  std::vector<Move> moves_;
  std::vector<std::uint64_t> hashes_;  // since the last drop, the current one last
};

// Every distinct position (board, stocks, side) `plies` plies after root that is not over, in the
// order of move generation: an opening suite.
std::vector<Position> positions_after(const Position& root, int plies);

// The variant's opening suite: positions_after its start, 2 plies, but those where the side to
// move wins at once (a king or half the board within one move: a game of one ply, whoever plays),
// in an order shuffled by a seed of its own, so that any stretch of it (a match plays the first
// games / 2) spreads over different first moves. The same suite everywhere: self-play, gating,
// the ladder, `match`.
std::vector<Position> opening_suite(Variant variant);

// The leaves of the legal move tree `depth` plies deep; a finished position has no children
// (repetition, which needs the game's history, is not applied, as in Ataxx's perft).
std::uint64_t perft(const Position& pos, int depth, int ply_limit = Rules{}.ply_limit);
// The perft of each legal move's child, in move generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth,
                                                        int ply_limit = Rules{}.ply_limit);

}  // namespace ataxx::schataxx
