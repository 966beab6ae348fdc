#include "selfplay/surprise_weighting.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace ataxx {
namespace {

constexpr double kFloor = 1e-6;
constexpr double kLeastMeanValueSurprise = 0.01;

// p log(p / q) with q floored; 0 where p is 0.
double divergence_term(double p, double q) { return p > 0.0 ? p * std::log(p / std::max(q, kFloor)) : 0.0; }

double mean(std::span<const double> values) {
  return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

}  // namespace

double policy_surprise(std::span<const int> target, std::span<const float> priors) {
  const double total = std::accumulate(target.begin(), target.end(), 0.0);
  if (total <= 0.0) return 0.0;
  double divergence = 0.0;
  for (std::size_t i = 0; i < target.size(); ++i) divergence += divergence_term(target[i] / total, priors[i]);
  return std::max(divergence, 0.0);
}

double value_surprise(const Wdl& target, const Wdl& network) {
  const double divergence = divergence_term(target.win, network.win) + divergence_term(target.draw, network.draw) +
                            divergence_term(target.loss, network.loss);
  return std::clamp(divergence, 0.0, 1.0);
}

std::vector<Wdl> smoothed_value_targets(std::span<const Wdl> search_values, const Wdl& result, double now_weight) {
  std::vector<Wdl> targets(search_values.size());
  Wdl target = result;
  const auto toward = [now_weight](float from, float to) {
    return static_cast<float>(from + now_weight * (to - from));
  };
  for (std::size_t i = search_values.size(); i-- > 0;) {
    const Wdl& now = search_values[i];
    target = {.win = toward(target.win, now.win),
              .draw = toward(target.draw, now.draw),
              .loss = toward(target.loss, now.loss),
              .lead = toward(target.lead, now.lead)};
    targets[i] = target;
  }
  return targets;
}

std::vector<int> surprise_copies(std::span<const double> policy_surprises, std::span<const double> value_surprises,
                                 SurpriseWeights weights, std::mt19937_64& rng) {
  assert(policy_surprises.size() == value_surprises.size());
  const double policy_mean = mean(policy_surprises), value_mean = mean(value_surprises);
  const double value_weight =
      value_mean < kLeastMeanValueSurprise ? weights.value * value_mean / kLeastMeanValueSurprise : weights.value;
  // A share of 1 where no sample showed the kind of surprise: all alike, as no weighting at all.
  const auto share_of = [](double surprise, double mean) { return mean > 0.0 ? surprise / mean : 1.0; };
  std::vector<int> copies(policy_surprises.size(), 1);
  if (weights.policy <= 0.0 && value_weight <= 0.0) return copies;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const double share = (1.0 - weights.policy - value_weight) +
                         weights.policy * share_of(policy_surprises[i], policy_mean) +
                         value_weight * share_of(value_surprises[i], value_mean);
    const double whole = std::floor(share);
    copies[i] = static_cast<int>(whole) + (uniform(rng) < share - whole);
  }
  return copies;
}

}  // namespace ataxx
