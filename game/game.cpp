#include "game/game.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ataxx {

Game::Game(const Position& start, RuleSettings rules)
    : start_(start), position_(start), rules_(rules), hashes_{start.hash()} {}

void Game::play(Move move) {
  if (outcome().is_over())
    throw std::invalid_argument("move " + to_string(move) + " played after the end of the game");
  if (!position_.is_legal(move))
    throw std::invalid_argument("illegal move " + to_string(move) + " in " + position_.fen());
  position_.make_move(move);
  moves_.push_back(move);
  hashes_.push_back(position_.hash());
}

int Game::repetitions() const {
  // Only positions since the last single can repeat: a single adds a piece for good. The
  // halfmove clock counts exactly those plies.
  const std::size_t window = std::min<std::size_t>(hashes_.size(), position_.halfmove_clock() + 1);
  return static_cast<int>(std::count(hashes_.end() - window, hashes_.end(), position_.hash()));
}

Outcome Game::outcome() const {
  const Outcome by_position = position_.outcome(rules_);
  if (by_position.is_over()) return by_position;
  if (rules_.repetition_limit > 0 && repetitions() >= rules_.repetition_limit)
    return {position_.result_by_count(), EndReason::kRepetition};
  return {};
}

}  // namespace ataxx
