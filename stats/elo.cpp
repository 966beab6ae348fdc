#include "stats/elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "util/text.h"

namespace ataxx {
namespace {

double per_game_variance(const MatchScore& s) {
  const double n = s.games();
  const double mean = s.score();
  return (s.wins * std::pow(1.0 - mean, 2) + s.draws * std::pow(0.5 - mean, 2) + s.losses * std::pow(mean, 2)) / n;
}

// The log-likelihood of counts[i] outcomes worth points[i] under the maximum-likelihood trinomial
// whose mean score is s (fishtest's MLE: p_i = f_i / (1 + x (a_i - s)), x solving
// sum f_i (a_i - s) / (1 + x (a_i - s)) = 0, which falls monotonically over the x that keep every
// p_i positive), less the same sum for the empirical frequencies f_i: only differences matter.
double constrained_log_likelihood(const double (&counts)[3], double s) {
  constexpr double kPoints[3] = {1.0, 0.5, 0.0};
  const double n = counts[0] + counts[1] + counts[2];
  auto slope = [&](double x) {
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += counts[i] / n * (kPoints[i] - s) / (1 + x * (kPoints[i] - s));
    return sum;
  };
  double low = -1 / (1 - s), high = 1 / s;
  for (int i = 0; i < 200; ++i) {
    const double middle = (low + high) / 2;
    (slope(middle) > 0 ? low : high) = middle;
  }
  const double x = (low + high) / 2;
  double sum = 0;
  for (int i = 0; i < 3; ++i) sum -= counts[i] * std::log1p(x * (kPoints[i] - s));
  return sum;
}

}  // namespace

double elo_from_score(double score) {
  const double clamped = std::clamp(score, 1e-6, 1.0 - 1e-6);
  return -400.0 * std::log10(1.0 / clamped - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

EloEstimate estimate_elo(const MatchScore& score) {
  if (score.games() == 0) return {};
  const double mean = score.score();
  // Every game won or every game lost: the data bound the difference from one side only.
  // Clopper-Pearson: the score s at which n straight wins have probability 2.5 %, s^n = 0.025.
  if (mean == 0.0 || mean == 1.0) {
    const double infinity = std::numeric_limits<double>::infinity();
    const double bound = elo_from_score(std::pow(0.025, 1.0 / score.games()));
    return {mean == 1.0 ? infinity : -infinity, std::numeric_limits<double>::quiet_NaN(), mean == 1.0 ? bound : -bound};
  }
  const double deviation = std::sqrt(per_game_variance(score) / score.games());
  constexpr double kZ95 = 1.959963984540054;
  const double low = elo_from_score(mean - kZ95 * deviation);
  const double high = elo_from_score(mean + kZ95 * deviation);
  return {elo_from_score(mean), (high - low) / 2.0};
}

std::string to_string(const EloEstimate& elo) {
  if (std::isinf(elo.elo)) return fmt::format("{} {:+.1f} (95 %)", elo.elo > 0 ? "above" : "below", elo.bound95);
  const double shown = std::abs(elo.elo) < 0.05 ? 0.0 : elo.elo;  // an even score is +0.0, never -0.0
  return fmt::format("{:+.1f} +/- {:.1f}", shown, elo.error95);
}

double sprt_llr(const MatchScore& score, double elo0, double elo1) {
  if (score.games() == 0) return 0.0;
  // As fishtest does: an outcome not seen yet counts 0.001 games, so that the MLE's support spans
  // both scores. The normal approximation used before (variance from the counts) took one won
  // game for proof of any elo1 (LLR 11 after 1-0-0 at 0,20): gating promoted on its first game.
  constexpr double kFloor = 1e-3;
  const double counts[3] = {std::max<double>(score.wins, kFloor), std::max<double>(score.draws, kFloor),
                            std::max<double>(score.losses, kFloor)};
  return constrained_log_likelihood(counts, score_from_elo(elo1)) -
         constrained_log_likelihood(counts, score_from_elo(elo0));
}

double sprt_lower_bound(const SprtParams& p) { return std::log(p.beta / (1.0 - p.alpha)); }
double sprt_upper_bound(const SprtParams& p) { return std::log((1.0 - p.beta) / p.alpha); }

SprtVerdict sprt_verdict(const MatchScore& score, const SprtParams& params) {
  const double llr = sprt_llr(score, params.elo0, params.elo1);
  if (llr >= sprt_upper_bound(params)) return SprtVerdict::kAcceptH1;
  if (llr <= sprt_lower_bound(params)) return SprtVerdict::kAcceptH0;
  return SprtVerdict::kContinue;
}

SprtParams parse_sprt(const std::string& text) {
  const auto fields = split(text, ',');
  std::optional<double> values[4];
  for (std::size_t i = 0; i < fields.size() && i < 4; ++i) values[i] = parse_number(trim(fields[i]));
  if (fields.size() != 4 || !values[0] || !values[1] || !values[2] || !values[3])
    throw std::invalid_argument("sprt '" + text + "': expected elo0,elo1,alpha,beta");
  const SprtParams p{*values[0], *values[1], *values[2], *values[3]};
  if (p.elo1 <= p.elo0 || p.alpha <= 0 || p.alpha >= 0.5 || p.beta <= 0 || p.beta >= 0.5)
    throw std::invalid_argument("sprt '" + text + "': need elo0 < elo1 and 0 < alpha, beta < 0.5");
  return p;
}

}  // namespace ataxx
