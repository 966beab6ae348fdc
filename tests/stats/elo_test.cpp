#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/elo.h"

namespace ataxx {
namespace {

TEST(Elo, LogisticScoreConversions) {
  EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-9);
  EXPECT_NEAR(elo_from_score(0.75), 400 * std::log10(3.0), 1e-9);  // 190.85
  EXPECT_NEAR(elo_from_score(0.25), -190.848501887865, 1e-9);
  EXPECT_NEAR(score_from_elo(400), 10.0 / 11.0, 1e-12);
  EXPECT_NEAR(score_from_elo(elo_from_score(0.6)), 0.6, 1e-12);
}

TEST(Elo, IntervalMatchesHandComputation) {
  // 60 wins, 20 losses, 20 draws: score 0.7, per-game variance 0.16 -> stderr 0.04.
  const EloEstimate e = estimate_elo({.wins = 60, .losses = 20, .draws = 20});
  EXPECT_NEAR(e.elo, elo_from_score(0.7), 1e-9);
  const double z = 1.959963984540054;
  EXPECT_NEAR(e.error95, (elo_from_score(0.7 + z * 0.04) - elo_from_score(0.7 - z * 0.04)) / 2, 1e-9);
  EXPECT_NEAR(e.error95, 66.0, 0.05);
}

TEST(Elo, AllGamesWonIsAnInfiniteDifference) {
  EXPECT_EQ(estimate_elo({.wins = 5, .losses = 0, .draws = 0}).elo, std::numeric_limits<double>::infinity());
  EXPECT_EQ(estimate_elo({.wins = 0, .losses = 5, .draws = 0}).elo, -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(estimate_elo({.wins = 5, .losses = 0, .draws = 0}).error95));
}

TEST(Elo, AMatchWonInEveryGameIsReportedWithItsExactBound) {
  // 100 straight wins are a 2.5 % event at a score of 0.025^(1/100) = 0.96378: Elo +570.0.
  const EloEstimate won = estimate_elo({.wins = 100, .losses = 0, .draws = 0});
  EXPECT_NEAR(won.bound95, 570.0, 0.05);
  EXPECT_EQ(to_string(won), "above +570.0 (95 %)");
  EXPECT_EQ(to_string(estimate_elo({.wins = 0, .losses = 100, .draws = 0})), "below -570.0 (95 %)");
  EXPECT_LT(estimate_elo({.wins = 10, .losses = 0, .draws = 0}).bound95, 300.0);  // fewer games, a weaker bound
  EXPECT_EQ(to_string(estimate_elo({.wins = 60, .losses = 20, .draws = 20})), "+147.2 +/- 66.0");
  EXPECT_EQ(to_string(estimate_elo({.wins = 1, .losses = 1, .draws = 0})).substr(0, 8), "+0.0 +/-");  // had been -0.0
}

TEST(Sprt, LogLikelihoodRatioMatchesHandComputation) {
  // Without draws the trinomial is a binomial: LLR = W log(s1 / s0) + L log((1 - s1) / (1 - s0)),
  // here s0 = 0.5 and s1 = score_from_elo(10) = 0.514387 (the floor of 0.001 draws moves it by less
  // than 1e-4).
  const double s1 = score_from_elo(10);
  const double expected = 60 * std::log(s1 / 0.5) + 40 * std::log((1 - s1) / 0.5);
  EXPECT_NEAR(sprt_llr({.wins = 60, .losses = 40, .draws = 0}, 0, 10), expected, 1e-4);
  EXPECT_NEAR(expected, 0.5342, 1e-3);
  EXPECT_EQ(sprt_llr({}, 0, 10), 0.0);
}

TEST(Sprt, OneWonGameProvesNothing) {
  // The normal approximation's variance of a 1-0-0 score is about zero: its LLR was 11 and the
  // gate promoted a candidate on its first game. One win is worth log(s1 / s0) = 0.056 here.
  const SprtParams p{.elo0 = 0, .elo1 = 20, .alpha = 0.05, .beta = 0.05};
  EXPECT_NEAR(sprt_llr({.wins = 1, .losses = 0, .draws = 0}, 0, 20), std::log(score_from_elo(20) / 0.5), 1e-3);
  EXPECT_EQ(sprt_verdict({.wins = 1, .losses = 0, .draws = 0}, p), SprtVerdict::kContinue);
  EXPECT_EQ(sprt_verdict({.wins = 0, .losses = 1, .draws = 0}, p), SprtVerdict::kContinue);
  EXPECT_EQ(sprt_verdict({.wins = 11, .losses = 5, .draws = 0}, p), SprtVerdict::kContinue);
}

TEST(Sprt, DecidesWhenEveryGameEndedAlikeOnceEnoughHave) {
  // At 0,10 each won game adds log(s1 / s0) = 0.0284 and each lost one log((1 - s1) / (1 - s0)) =
  // -0.0292: 104 wins or 101 losses reach the bounds of +-2.944.
  const SprtParams p{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
  EXPECT_EQ(sprt_verdict({.wins = 100, .losses = 0, .draws = 0}, p), SprtVerdict::kContinue);
  EXPECT_EQ(sprt_verdict({.wins = 110, .losses = 0, .draws = 0}, p), SprtVerdict::kAcceptH1);
  EXPECT_EQ(sprt_verdict({.wins = 0, .losses = 95, .draws = 0}, p), SprtVerdict::kContinue);
  EXPECT_EQ(sprt_verdict({.wins = 0, .losses = 110, .draws = 0}, p), SprtVerdict::kAcceptH0);
  EXPECT_LT(sprt_llr({.wins = 0, .losses = 0, .draws = 20}, 0, 10), 0.0);  // all draws: elo 0 is likelier
}

TEST(Sprt, BoundsAndVerdicts) {
  const SprtParams p{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
  EXPECT_NEAR(sprt_upper_bound(p), std::log(19.0), 1e-12);  // 2.944
  EXPECT_NEAR(sprt_lower_bound(p), -std::log(19.0), 1e-12);
  EXPECT_EQ(sprt_verdict({.wins = 60, .losses = 40, .draws = 0}, p), SprtVerdict::kContinue);
  EXPECT_EQ(sprt_verdict({.wins = 700, .losses = 300, .draws = 0}, p), SprtVerdict::kAcceptH1);
  EXPECT_EQ(sprt_verdict({.wins = 300, .losses = 700, .draws = 0}, p), SprtVerdict::kAcceptH0);
}

TEST(Sprt, ParsesAndRejects) {
  const SprtParams p = parse_sprt("0,5,0.05,0.1");
  EXPECT_EQ(p.elo1, 5);
  EXPECT_EQ(p.beta, 0.1);
  for (const char* bad : {"", "0,5", "0,5,0.05", "5,0,0.05,0.05", "0,5,0.6,0.05", "0;5;0.05;0.05", "0,5,0.05,0.05,1"})
    EXPECT_THROW(parse_sprt(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace ataxx
