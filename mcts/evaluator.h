// The seam between search and whatever judges positions (a network, a heuristic, a fake), for
// each game (games/registry.h). Search hands over a batch of leaves and waits; it never owns a device.
#pragma once

#include <span>
#include <string>

#include "games/registry.h"

namespace ataxx {

// A position's value from the view of the side to move: win/draw/loss probabilities, and the
// expected final piece lead, (own - opponent) pieces / cells, where the evaluator has a head for it
// (0 where not).
struct Wdl {
  float win = 0.0f;
  float draw = 1.0f;
  float loss = 0.0f;
  float lead = 0.0f;
  float expectation() const { return win - loss; }
  Wdl flipped() const { return {.win = loss, .draw = draw, .loss = win, .lead = -lead}; }  // the other side's view
  // A known result for the side whose view it is: -1, 0 or 1, with its lead.
  static Wdl of_result(int result, float lead = 0.0f) {
    return {.win = result > 0 ? 1.0f : 0.0f,
            .draw = result == 0 ? 1.0f : 0.0f,
            .loss = result < 0 ? 1.0f : 0.0f,
            .lead = lead};
  }
};

template <typename G>
struct BasicEvalRequest {
  const typename G::Position* position = nullptr;
  std::span<const typename G::Move> moves;  // the legal moves (the pass, when it is the only one)
  std::span<float> priors;                  // out: one per move, summing to 1
  Wdl* value = nullptr;                     // out
};

template <typename G>
class BasicEvaluator {
 public:
  virtual ~BasicEvaluator() = default;
  // Fills the priors and value of every request. Must be safe to call from several threads.
  virtual void evaluate(std::span<const BasicEvalRequest<G>> batch) = 0;
  // The name of the model answering now ("" where there is none); it may change between batches.
  virtual std::string model_name() const { return {}; }
  // Throws std::invalid_argument where it cannot evaluate pos (a board its network was not trained on).
  virtual void check_evaluates(const typename G::Position& /*pos*/) const {}
};

using EvalRequest = BasicEvalRequest<DefaultGame>;
using Evaluator = BasicEvaluator<DefaultGame>;

}  // namespace ataxx
