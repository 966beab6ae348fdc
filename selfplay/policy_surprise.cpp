#include "selfplay/policy_surprise.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ataxx {

double policy_surprise(std::span<const int> target, std::span<const float> priors) {
  const double total = std::accumulate(target.begin(), target.end(), 0.0);
  if (total <= 0.0) return 0.0;
  double divergence = 0.0;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] <= 0) continue;
    const double share = target[i] / total;
    divergence += share * std::log(share / std::max(static_cast<double>(priors[i]), 1e-6));
  }
  return std::max(divergence, 0.0);
}

std::vector<int> surprise_copies(std::span<const double> surprises, double weight, std::mt19937_64& rng) {
  std::vector<int> copies(surprises.size(), 1);
  const double mean =
      surprises.empty() ? 0.0 : std::accumulate(surprises.begin(), surprises.end(), 0.0) / surprises.size();
  if (weight <= 0.0 || mean <= 0.0) return copies;
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t i = 0; i < surprises.size(); ++i) {
    const double share = (1.0 - weight) + weight * surprises[i] / mean;
    const double whole = std::floor(share);
    copies[i] = static_cast<int>(whole) + (uniform(rng) < share - whole);
  }
  return copies;
}

}  // namespace ataxx
