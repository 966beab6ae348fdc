// Evaluators that need no network: for tests, benchmarks and the `mcts` baseline player.
#pragma once

#include <algorithm>
#include <cmath>

#include "mcts/evaluator.h"

namespace ataxx {

// Uniform priors, value a draw: measures search alone, for any game.
template <typename G>
class BasicUniformEvaluator final : public BasicEvaluator<G> {
 public:
  void evaluate(std::span<const BasicEvalRequest<G>> batch) override {
    for (const BasicEvalRequest<G>& request : batch) {
      std::fill(request.priors.begin(), request.priors.end(), 1.0f / request.moves.size());
      *request.value = Wdl{};
    }
  }
};
using UniformEvaluator = BasicUniformEvaluator<DefaultGame>;

// The game's heuristic (G::Play): priors the softmax of its logits, the value its expectation. A
// fair opponent for early networks.
template <typename G>
class BasicHeuristicEvaluator final : public BasicEvaluator<G> {
 public:
  void evaluate(std::span<const BasicEvalRequest<G>> batch) override {
    for (const BasicEvalRequest<G>& request : batch) {
      const typename G::Position& pos = *request.position;
      float total = 0.0f;
      for (std::size_t i = 0; i < request.moves.size(); ++i) {
        request.priors[i] = std::exp(G::Play::heuristic_prior_logit(pos, request.moves[i]));
        total += request.priors[i];
      }
      for (float& p : request.priors) p /= total;
      const float expectation = G::Play::heuristic_expectation(pos);
      *request.value = Wdl{.win = std::max(expectation, 0.0f), .draw = 1.0f - std::abs(expectation),
                           .loss = std::max(-expectation, 0.0f)};
    }
  }
};
using MaterialEvaluator = BasicHeuristicEvaluator<DefaultGame>;

}  // namespace ataxx
