#include "selfplay/policy_surprise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace ataxx {
namespace {

TEST(PolicySurprise, IsTheTargetsDivergenceFromThePriors) {
  const std::vector<float> priors = {0.5f, 0.25f, 0.25f};
  EXPECT_NEAR(policy_surprise(std::vector<int>{20, 10, 10}, priors), 0.0, 1e-9);  // as the net expected
  EXPECT_NEAR(policy_surprise(std::vector<int>{0, 7, 0}, priors), std::log(4.0), 1e-6);
  EXPECT_NEAR(policy_surprise(std::vector<int>{1, 1, 0}, priors), 0.5 * std::log(1.0) + 0.5 * std::log(2.0), 1e-6);
  EXPECT_EQ(policy_surprise(std::vector<int>{0, 0, 0}, priors), 0.0);
}

TEST(PolicySurprise, AMoveTheNetGaveNothingCountsAsAMillionth) {
  const double surprise = policy_surprise(std::vector<int>{0, 5}, std::vector<float>{1.0f, 0.0f});
  EXPECT_NEAR(surprise, std::log(1e6), 1e-6);
}

TEST(SurpriseCopies, WeightZeroOrNoSurpriseWritesEachSampleOnce) {
  std::mt19937_64 rng(1);
  const std::vector<double> surprises = {0.1, 2.0, 0.0};
  EXPECT_EQ(surprise_copies(surprises, 0.0, rng), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(surprise_copies(std::vector<double>{0.0, 0.0}, 0.5, rng), (std::vector<int>{1, 1}));
  EXPECT_EQ(surprise_copies(std::vector<double>{0.7, 0.7, 0.7}, 0.5, rng), (std::vector<int>{1, 1, 1}));
  EXPECT_TRUE(surprise_copies(std::vector<double>{}, 0.5, rng).empty());
}

TEST(SurpriseCopies, WeightOneWritesEachInProportionToItsSurprise) {
  std::mt19937_64 rng(2);
  EXPECT_EQ(surprise_copies(std::vector<double>{0.0, 0.0, 3.0, 1.0}, 1.0, rng), (std::vector<int>{0, 0, 3, 1}));
}

// Shares of a half and one and a half: each sample's fraction drawn, the game's total kept on average.
TEST(SurpriseCopies, FractionsAreDrawnSoThatTheTotalHoldsOnAverage) {
  std::mt19937_64 rng(3);
  constexpr int kDraws = 20000;
  int low_total = 0, high_total = 0;
  for (int draw = 0; draw < kDraws; ++draw) {
    const std::vector<int> copies = surprise_copies(std::vector<double>{0.0, 2.0}, 0.5, rng);
    ASSERT_TRUE(copies[0] == 0 || copies[0] == 1);
    ASSERT_TRUE(copies[1] == 1 || copies[1] == 2);
    low_total += copies[0];
    high_total += copies[1];
  }
  EXPECT_NEAR(low_total / double(kDraws), 0.5, 0.02);
  EXPECT_NEAR(high_total / double(kDraws), 1.5, 0.02);
}

}  // namespace
}  // namespace ataxx
