// The fixed baselines every checkpoint is judged against, in every game: random, greedy,
// alpha-beta, and MCTS with the game's heuristic evaluator.
#pragma once

#include <map>
#include <random>
#include <string>

#include "players/player.h"

namespace ataxx {

template <typename G>
class BasicRandomPlayer final : public BasicPlayer<G> {
 public:
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  typename G::Move choose_move(const typename G::Game& game) override;

 private:
  std::mt19937_64 rng_;
};
using RandomPlayer = BasicRandomPlayer<DefaultGame>;

// The move the game's greedy_value likes best (Ataxx: the most men gained); ties broken at random.
// With a random share, that share of its moves is a legal move at random instead: fixed references
// between random and greedy, for rating the levels a person can beat.
template <typename G>
class BasicGreedyPlayer final : public BasicPlayer<G> {
 public:
  explicit BasicGreedyPlayer(double random_share = 0.0) : random_share_(random_share) {}
  void new_game(std::uint64_t seed) override { rng_.seed(seed); }
  typename G::Move choose_move(const typename G::Game& game) override;

 private:
  double random_share_;
  std::mt19937_64 rng_;
};
using GreedyPlayer = BasicGreedyPlayer<DefaultGame>;

// Every kind a game's players come in: the baselines above, alphabeta, mcts, nn
// (network_player.h) and uai (uai_player.h).
template <typename G>
void register_builtin_players(std::map<std::string, BasicPlayerFactory<G>>& factories);

}  // namespace ataxx
