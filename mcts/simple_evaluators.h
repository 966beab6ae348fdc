// Evaluators that need no network: for tests, benchmarks and the `mcts` baseline player.
#pragma once

#include <algorithm>

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
using UniformEvaluator = BasicUniformEvaluator<AtaxxGame>;

// Priors favour moves that gain more pieces (softmax of the gain); the value grows with the
// piece difference. A fair opponent for early networks.
class MaterialEvaluator final : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> batch) override;
};

// Pieces the side to move gains by the move (captures, plus one for a single).
int move_gain(const Position& pos, Move move);

}  // namespace ataxx
