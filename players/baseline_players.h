// The fixed baselines every checkpoint is judged against: random, greedy, alpha-beta, and MCTS
// with a built-in evaluator.
#pragma once

#include <map>
#include <random>
#include <string>

#include "players/player.h"

namespace ataxx {

class RandomPlayer final : public Player {
 public:
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  Move choose_move(const Game& game) override;

 private:
  std::mt19937_64 rng_;
};

// The move that leaves the most own pieces; ties broken at random.
class GreedyPlayer final : public Player {
 public:
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  Move choose_move(const Game& game) override;

 private:
  std::mt19937_64 rng_;
};

// Every kind this module knows: the baselines above, mcts, nn (network_player.h) and uai (uai_player.h).
void register_builtin_players(std::map<std::string, PlayerFactory>& factories);

}  // namespace ataxx
