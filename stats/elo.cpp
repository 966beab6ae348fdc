#include "stats/elo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "util/text.h"

namespace ataxx {
namespace {

double per_game_variance(const MatchScore& s) {
  const double n = s.games();
  const double mean = s.score();
  return (s.wins * std::pow(1.0 - mean, 2) + s.draws * std::pow(0.5 - mean, 2) + s.losses * std::pow(mean, 2)) / n;
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
  if (mean == 0.0 || mean == 1.0) {
    const double infinity = std::numeric_limits<double>::infinity();
    return {mean == 1.0 ? infinity : -infinity, std::numeric_limits<double>::quiet_NaN()};
  }
  const double deviation = std::sqrt(per_game_variance(score) / score.games());
  constexpr double kZ95 = 1.959963984540054;
  const double low = elo_from_score(mean - kZ95 * deviation);
  const double high = elo_from_score(mean + kZ95 * deviation);
  return {elo_from_score(mean), (high - low) / 2.0};
}

double sprt_llr(const MatchScore& score, double elo0, double elo1) {
  if (score.games() == 0) return 0.0;
  // As fishtest does: a floor under each count keeps the variance positive when every game so
  // far ended alike (all wins, say), where the test should decide rather than stall.
  constexpr double kFloor = 1e-3;
  const double wins = std::max<double>(score.wins, kFloor);
  const double draws = std::max<double>(score.draws, kFloor);
  const double losses = std::max<double>(score.losses, kFloor);
  const double n = wins + draws + losses;
  const double mean = (wins + 0.5 * draws) / n;
  const double variance = (wins * std::pow(1 - mean, 2) + draws * std::pow(0.5 - mean, 2) + losses * mean * mean) / n;
  const double s0 = score_from_elo(elo0);
  const double s1 = score_from_elo(elo1);
  return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance);
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
