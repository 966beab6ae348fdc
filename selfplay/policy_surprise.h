// KataGo's policy surprise weighting: a game's full-search samples are written more often where
// the search's policy target strayed far from what the network expected, less often elsewhere,
// as many in all on average. The net then trains more on what it does not know yet.
#pragma once

#include <random>
#include <span>
#include <vector>

namespace ataxx {

// The Kullback-Leibler divergence of the policy target (visit counts) from the network's priors
// of the same moves, in nats; each prior taken as at least 1e-6. 0 for a target with no visits.
double policy_surprise(std::span<const int> target, std::span<const float> priors);

// How many times to write each of a game's samples: (1 - weight) + weight x its surprise / the
// game's mean surprise, its fraction written once more with that probability. All once where
// weight is 0 or no sample surprised.
std::vector<int> surprise_copies(std::span<const double> surprises, double weight, std::mt19937_64& rng);

}  // namespace ataxx
