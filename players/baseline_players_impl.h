// The template definitions of players/baseline_players.h: included by baseline_players.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/baseline_players.h"

#include <memory>
#include <stdexcept>

#include "mcts/simple_evaluators.h"
#include "players/alphabeta.h"
#include "players/mcts_player.h"
#include "players/network_player.h"
#include "players/uai_player.h"

namespace ataxx {

template <typename G>
typename G::Move BasicRandomPlayer<G>::choose_move(const typename G::Game& game) {
  const typename G::MoveList moves = moves_to_search<G>(game, this->limits_);
  return moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_)];
}

template <typename G>
typename G::Move BasicGreedyPlayer<G>::choose_move(const typename G::Game& game) {
  const typename G::MoveList moves = moves_to_search<G>(game, this->limits_);
  if (random_share_ > 0 && std::bernoulli_distribution(random_share_)(rng_))
    return moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_)];
  int best_value = 0;
  int ties = 0;
  typename G::Move best = moves[0];
  for (const typename G::Move move : moves) {
    const int value = G::Play::greedy_value(game.position(), move);
    if (ties == 0 || value > best_value) {
      best_value = value;
      best = move;
      ties = 1;
    } else if (value == best_value && std::uniform_int_distribution<int>(0, ties++)(rng_) == 0) {
      best = move;  // reservoir sampling: each tied move is kept with equal probability
    }
  }
  return best;
}

template <typename G>
void register_builtin_players(std::map<std::string, BasicPlayerFactory<G>>& factories) {
  factories["random"] = [](PlayerSpec&) { return std::make_unique<BasicRandomPlayer<G>>(); };
  factories["greedy"] = [](PlayerSpec& spec) {
    return std::make_unique<BasicGreedyPlayer<G>>(spec.get_double("random", 0.0, 0.0, 1.0));
  };
  factories["alphabeta"] = [](PlayerSpec& spec) {
    return std::make_unique<BasicAlphaBetaPlayer<G>>(read_alphabeta_limits(spec, G::Play::kAlphaBetaDepth));
  };
  factories["mcts"] = [](PlayerSpec& spec) {
    const BasicSearchParams<G> params = read_search_params<G>(spec);
    const std::string heuristic(G::Play::kHeuristicName);
    const std::string eval = spec.get_string("eval", heuristic);
    std::shared_ptr<BasicEvaluator<G>> evaluator;
    if (eval == heuristic)
      evaluator = std::make_shared<BasicHeuristicEvaluator<G>>();
    else if (eval == "uniform")
      evaluator = std::make_shared<BasicUniformEvaluator<G>>();
    else
      throw std::invalid_argument("player '" + spec.text() + "': eval must be " + heuristic + " or uniform");
    return std::make_unique<BasicMctsPlayer<G>>(params, std::move(evaluator));
  };
  factories["nn"] = [](PlayerSpec& spec) { return make_network_player(read_network_player_options<G>(spec)); };
  factories["uai"] = [](PlayerSpec& spec) { return make_uai_player<G>(spec); };
}

}  // namespace ataxx
