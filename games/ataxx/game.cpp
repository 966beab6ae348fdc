#include "games/ataxx/game.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ataxx {

Game::Game(const Position& start, RuleSettings rules)
    : start_(start), position_(start), rules_(rules), hashes_{start.hash()} {}

void Game::play(Move move) {
  if (outcome().is_over())
    throw std::invalid_argument("move " + to_string(move, position_.board()) + " played after the end of the game");
  if (!position_.is_legal(move))
    throw std::invalid_argument("illegal move " + to_string(move, position_.board()) + " in " + position_.fen());
  position_.make_move(move);
  moves_.push_back(move);
  hashes_.push_back(position_.hash());
}

std::span<const std::uint64_t> Game::recent_hashes() const {
  // The halfmove clock counts exactly the plies since the last single.
  const std::size_t window = std::min<std::size_t>(hashes_.size(), position_.halfmove_clock() + 1);
  return std::span<const std::uint64_t>(hashes_).last(window);
}

int Game::repetitions() const {
  const auto recent = recent_hashes();
  return static_cast<int>(std::count(recent.begin(), recent.end(), position_.hash()));
}

Outcome Game::outcome() const {
  const Outcome by_position = position_.outcome(rules_);
  if (by_position.is_over()) return by_position;
  if (rules_.repetition_limit > 0 && repetitions() >= rules_.repetition_limit)
    return {position_.result_by_count(), EndReason::kRepetition};
  return {};
}

}  // namespace ataxx
