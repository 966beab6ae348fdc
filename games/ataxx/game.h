// A game in progress: the current position plus the hashes since the last irreversible move,
// so that the repetition rule can be applied.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "games/ataxx/position.h"

namespace ataxx {

class Game {
 public:
  explicit Game(const Position& start = Position::startpos(), RuleSettings rules = {});

  const Position& position() const { return position_; }
  const RuleSettings& rules() const { return rules_; }
  const std::vector<Move>& moves() const { return moves_; }
  const Position& start() const { return start_; }

  // Throws std::invalid_argument when the move is not legal here.
  void play(Move move);
  void play(std::string_view move_text) { play(parse_move(move_text, position_.board())); }
  // How many times the current board and side to move have occurred, this time included.
  int repetitions() const;
  // The hashes of the positions that can still recur, oldest first, the current one last: those
  // since the last single (a single adds a piece for good).
  std::span<const std::uint64_t> recent_hashes() const;
  Outcome outcome() const;

 private:
  Position start_;
  Position position_;
  RuleSettings rules_;
  std::vector<Move> moves_;
  std::vector<std::uint64_t> hashes_;  // every position's hash, the current one last
};

}  // namespace ataxx
