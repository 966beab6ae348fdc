// A game of tic-tac-toe in progress. No position can recur, so it keeps no hashes.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "tests/games/tictactoe/position.h"

namespace ataxx::tictactoe {

class Game {
 public:
  explicit Game(const Position& start = Position::start(), Rules rules = {})
      : start_(start), position_(start), rules_(rules) {}
  const Position& position() const { return position_; }
  const Position& start() const { return start_; }
  const Rules& rules() const { return rules_; }
  const std::vector<Move>& moves() const { return moves_; }
  Outcome outcome() const { return position_.outcome(); }
  std::span<const std::uint64_t> recent_hashes() const { return {}; }
  // Throws std::invalid_argument when the move is not legal here (or the game is over).
  void play(Move move) {
    MoveList legal;
    position_.generate_moves(legal);
    bool found = false;
    for (const Move m : legal) found = found || m == move;
    if (!found) throw std::invalid_argument("illegal move " + to_string(move) + " in " + position_.fen());
    position_.make_move(move);
    moves_.push_back(move);
  }

 private:
  Position start_;
  Position position_;
  Rules rules_;
  std::vector<Move> moves_;
};

}  // namespace ataxx::tictactoe
