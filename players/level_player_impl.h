// The template definitions of players/level_player.h: included by level_player.cpp, which compiles
// them for every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/level_player.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace ataxx {

template <typename G>
BasicLevelPlayer<G>::BasicLevelPlayer(std::unique_ptr<BasicPlayer<G>> searcher, int skill)
    : searcher_(std::move(searcher)), settings_(skill_settings(skill)) {}

template <typename G>
void BasicLevelPlayer<G>::new_game(std::uint64_t seed) {
  searcher_->new_game(seed);
  rng_.seed(seed ^ 0x9e3779b97f4a7c15ULL);
}

template <typename G>
typename G::Move BasicLevelPlayer<G>::choose_move(const Game& game) {
  MoveLimits limits = this->limits_;
  limits.infinite = false;
  limits.nodes = limits.nodes > 0 ? std::min(limits.nodes, settings_.visits) : settings_.visits;
  searcher_->set_limits(limits);
  searcher_->on_progress(this->progress_);
  const Move searched = searcher_->choose_move(game);
  report_ = searcher_->last_report();
  if (settings_.temperature <= 0 || report_.candidates.empty()) return searched;
  // Each move's share of the visits, a visit's worth of it from the policy (so that the policy
  // alone decides where the search made no visit), at the level's temperature.
  // In logarithms, relative to the largest share: near the top level the power 1/T is in the
  // thousands, and the shares themselves would underflow to zero.
  constexpr double kPriorVisits = 2.0;
  std::vector<double> logs;
  for (const auto& candidate : report_.candidates)
    logs.push_back(std::log(candidate.visits + kPriorVisits * candidate.prior + 1e-12));
  const double largest = *std::max_element(logs.begin(), logs.end());
  std::vector<double> weights;
  for (const double log_share : logs) weights.push_back(std::exp((log_share - largest) / settings_.temperature));
  const std::size_t chosen = std::discrete_distribution<std::size_t>(weights.begin(), weights.end())(rng_);
  report_.pv = report_.candidates[chosen].pv;
  return report_.candidates[chosen].move;
}

}  // namespace ataxx
