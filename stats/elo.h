// Match statistics: Elo difference with a 95% interval, and the sequential probability ratio
// test on win/draw/loss counts (fishtest's exact log-likelihood ratio of the trinomial).
#pragma once

#include <string>

namespace ataxx {

struct MatchScore {
  int wins = 0;  // from the first player's view
  int losses = 0;
  int draws = 0;
  int games() const { return wins + losses + draws; }
  void add(double points) { (points == 1.0 ? wins : points == 0.0 ? losses : draws) += 1; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
};

struct EloEstimate {
  double elo = 0.0;
  double error95 = 0.0;  // half-width of the 95% interval
  // Every game won (lost): elo is +infinity (-infinity), error95 NaN, and this the exact 95% bound
  // (Clopper-Pearson) the difference lies above (below).
  double bound95 = 0.0;
};

double elo_from_score(double score);  // logistic; clamped for scores of 0 and 1
double score_from_elo(double elo);
// Infinite (with a NaN error and a one-sided bound) when every game was won, or every game lost.
EloEstimate estimate_elo(const MatchScore& score);
// "+49.0 +/- 69.8"; a match won or lost in every game, "above +570.0 (95 %)" / "below -570.0 (95 %)".
std::string to_string(const EloEstimate& elo);

struct SprtParams {
  double elo0 = 0.0;
  double elo1 = 10.0;
  double alpha = 0.05;
  double beta = 0.05;
};
enum class SprtVerdict { kContinue, kAcceptH0, kAcceptH1 };

double sprt_llr(const MatchScore& score, double elo0, double elo1);
double sprt_lower_bound(const SprtParams& params);
double sprt_upper_bound(const SprtParams& params);
SprtVerdict sprt_verdict(const MatchScore& score, const SprtParams& params);
// Parses "elo0,elo1,alpha,beta"; throws std::invalid_argument.
SprtParams parse_sprt(const std::string& text);

}  // namespace ataxx
