// The template definitions of trainer/trainer.h: included by trainer.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "trainer/trainer.h"

#include "trainer/batch.h"

namespace ataxx {

template <typename G>
Losses Trainer::train(const BasicReplayBuffer<G>& buffer, int steps, double run_share, std::mt19937_64& rng) {
  return train_batches(G::kName, steps, run_share, [&](int batch_size, float search_value_share) {
    return sample_batch<G>(buffer.encoder(), buffer, batch_size, search_value_share, rng);
  });
}

}  // namespace ataxx
