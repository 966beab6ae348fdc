// The seam between search and whatever judges positions (a network, a heuristic, a fake).
// Search hands over a batch of leaves and waits; it never owns a device.
#pragma once

#include <span>
#include <string>

#include "game/position.h"

namespace ataxx {

// Win/draw/loss probabilities from the view of the side to move.
struct Wdl {
  float win = 0.0f;
  float draw = 1.0f;
  float loss = 0.0f;
  float expectation() const { return win - loss; }
};

struct EvalRequest {
  const Position* position = nullptr;
  std::span<const Move> moves;  // the legal moves (the pass, when it is the only one)
  std::span<float> priors;      // out: one per move, summing to 1
  Wdl* value = nullptr;         // out
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Fills the priors and value of every request. Must be safe to call from several threads.
  virtual void evaluate(std::span<const EvalRequest> batch) = 0;
  // The name of the model answering now ("" where there is none); it may change between batches.
  virtual std::string model_name() const { return {}; }
};

}  // namespace ataxx
