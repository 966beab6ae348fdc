#include "mcts/simple_evaluators.h"

#include <algorithm>
#include <cmath>

namespace ataxx {

int move_gain(const Position& pos, Move move) {
  if (move.is_pass()) return 0;
  return popcount(pos.board().clone_targets[move.to] & pos.pieces(~pos.side_to_move())) + (move.is_single() ? 1 : 0);
}

void MaterialEvaluator::evaluate(std::span<const EvalRequest> batch) {
  constexpr float kGainTemperature = 1.0f;  // prior ratio e per piece gained
  constexpr float kValueScale = 0.15f;      // tanh slope per piece of difference
  for (const EvalRequest& request : batch) {
    const Position& pos = *request.position;
    float total = 0.0f;
    for (std::size_t i = 0; i < request.moves.size(); ++i) {
      request.priors[i] = std::exp(move_gain(pos, request.moves[i]) / kGainTemperature);
      total += request.priors[i];
    }
    for (float& p : request.priors) p /= total;
    const Color us = pos.side_to_move();
    const float expectation =
        std::tanh(kValueScale * (popcount(pos.pieces(us)) - popcount(pos.pieces(~us))));
    *request.value = Wdl{.win = std::max(expectation, 0.0f), .draw = 1.0f - std::abs(expectation),
                         .loss = std::max(-expectation, 0.0f)};
  }
}

}  // namespace ataxx
