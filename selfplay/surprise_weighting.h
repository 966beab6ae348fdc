// KataGo's surprise weighting: a game's full-search samples are written more often where the
// search or the game surprised the network, less often elsewhere, as many in all on average. The
// net then trains more on what it does not know yet.
#pragma once

#include <random>
#include <span>
#include <vector>

#include "mcts/evaluator.h"

namespace ataxx {

// The Kullback-Leibler divergence of the policy target (visit counts) from the network's priors
// of the same moves, in nats; each prior taken as at least 1e-6. 0 for a target with no visits.
double policy_surprise(std::span<const int> target, std::span<const float> priors);

// The divergence of a value target's win/draw/loss from the network's, in nats, each of the
// network's taken as at least 1e-6, capped at 1 (as KataGo, so that one wild sample cannot
// take a game's whole weight).
double value_surprise(const Wdl& target, const Wdl& network);

// KataGo's value targets for the surprise: from the game's result back to its first move, each
// move's target is the next one's moved toward this move's search value by now_weight (KataGo's
// 1 / (1 + 0.016 x cells): 0.56 on 7x7). All from one side's view; one target per search value.
std::vector<Wdl> smoothed_value_targets(std::span<const Wdl> search_values, const Wdl& result, double now_weight);

struct SurpriseWeights {
  double policy = 0;  // KataGo's policySurpriseDataWeight (0.5 there)
  double value = 0;   // KataGo's valueSurpriseDataWeight (0.1 there)
};

// One of a game's samples: its surprises, and whether a full search made it (KataGo's target
// weight 1) or a fast one (0: written only for a policy surprise far above the full searches').
struct SampleSurprise {
  double policy = 0;
  double value = 0;
  bool full_search = true;
};

// How many times to write each of a game's samples, as KataGo: a full search's (1 - policy - value)
// + policy x its policy surprise / the full searches' mean + value x its value surprise / their
// mean; a fast search's policy x its policy surprise beyond 1.5 x the full searches' mean, on the
// same scale (the policy's share then spread over both kinds, as many samples written in all on
// average). Each share's fraction is written once more with that probability. A kind of surprise
// that no sample showed counts as the same for every full search's; the value's weight shrinks in
// proportion where its mean is below 0.01 (KataGo's guard against dividing by almost nothing, in
// games the expected side won from the start).
std::vector<int> surprise_copies(std::span<const SampleSurprise> samples, SurpriseWeights weights,
                                 std::mt19937_64& rng);

}  // namespace ataxx
