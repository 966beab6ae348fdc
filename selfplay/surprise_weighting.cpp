#include "selfplay/surprise_weighting.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ataxx {
namespace {

constexpr double kFloor = 1e-6;
constexpr double kLeastMeanValueSurprise = 0.01;
constexpr double kFastSearchThreshold = 1.5;  // KataGo's thresholdToIncludeReduced, times the full searches' mean

// p log(p / q) with q floored; 0 where p is 0.
double divergence_term(double p, double q) { return p > 0.0 ? p * std::log(p / std::max(q, kFloor)) : 0.0; }

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

std::vector<int> surprise_copies(std::span<const SampleSurprise> samples, SurpriseWeights weights,
                                 std::mt19937_64& rng) {
  double full_searches = 0.0, policy_sum = 0.0, value_sum = 0.0;
  for (const SampleSurprise& sample : samples) {
    if (!sample.full_search) continue;
    full_searches += 1.0;
    policy_sum += sample.policy;
    value_sum += sample.value;
  }
  const double value_mean = full_searches > 0.0 ? value_sum / full_searches : 0.0;
  const double value_weight =
      value_mean < kLeastMeanValueSurprise ? weights.value * value_mean / kLeastMeanValueSurprise : weights.value;
  std::vector<int> copies(samples.size());
  if (weights.policy <= 0.0 && value_weight <= 0.0) {  // no weighting: each full search's sample once
    std::ranges::transform(samples, copies.begin(),
                           [](const SampleSurprise& sample) { return sample.full_search ? 1 : 0; });
    return copies;
  }
  const double fast_threshold = kFastSearchThreshold * (full_searches > 0.0 ? policy_sum / full_searches : 0.0);
  const auto policy_part = [&](const SampleSurprise& sample) {
    return sample.full_search ? sample.policy : std::max(sample.policy - fast_threshold, 0.0);
  };
  double policy_parts = 0.0;
  for (const SampleSurprise& sample : samples) policy_parts += policy_part(sample);
  // A sample's part of the full searches' weight: 1 each where no sample showed the kind of surprise.
  const auto share_of = [&](double part, double parts, bool full_search) {
    return parts > 0.0 ? part * full_searches / parts : full_search ? 1.0 : 0.0;
  };
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const SampleSurprise& sample = samples[i];
    const double share =
        (sample.full_search ? 1.0 - weights.policy - value_weight : 0.0) +
        weights.policy * share_of(policy_part(sample), policy_parts, sample.full_search) +
        value_weight * share_of(sample.full_search ? sample.value : 0.0, value_sum, sample.full_search);
    const double whole = std::floor(share);
    copies[i] = static_cast<int>(whole) + (uniform(rng) < share - whole);
  }
  return copies;
}

}  // namespace ataxx
