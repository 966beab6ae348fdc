// A game of tic-tac-toe in progress. No position can recur, so it keeps no hashes.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
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
    if (!position_.is_legal(move)) throw std::invalid_argument("illegal move " + to_string(move) + " in " + position_.fen());
    position_.make_move(move);
    moves_.push_back(move);
  }
  void play(std::string_view move_text) { play(parse_move(move_text)); }

 private:
  Position start_;
  Position position_;
  Rules rules_;
  std::vector<Move> moves_;
};

}  // namespace ataxx::tictactoe
