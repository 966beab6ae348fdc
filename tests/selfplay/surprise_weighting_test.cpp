#include "selfplay/surprise_weighting.h"

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

// A game of full searches with these policy and value surprises (none given: 0).
std::vector<SampleSurprise> full_searches(const std::vector<double>& policy, const std::vector<double>& value = {}) {
  std::vector<SampleSurprise> samples;
  for (std::size_t i = 0; i < policy.size(); ++i)
    samples.push_back({.policy = policy[i], .value = value.empty() ? 0.0 : value[i]});
  return samples;
}

// Copies by policy surprise alone, as 59ba168 wrote them: no value surprise anywhere.
std::vector<int> policy_copies(const std::vector<double>& surprises, double weight, std::mt19937_64& rng) {
  return surprise_copies(full_searches(surprises), {.policy = weight}, rng);
}

TEST(SurpriseCopies, WeightZeroOrNoSurpriseWritesEachSampleOnce) {
  std::mt19937_64 rng(1);
  const std::vector<double> surprises = {0.1, 2.0, 0.0};
  EXPECT_EQ(policy_copies(surprises, 0.0, rng), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(policy_copies(std::vector<double>{0.0, 0.0}, 0.5, rng), (std::vector<int>{1, 1}));
  EXPECT_EQ(policy_copies(std::vector<double>{0.5, 0.5, 0.5}, 0.5, rng), (std::vector<int>{1, 1, 1}));
  EXPECT_TRUE(policy_copies(std::vector<double>{}, 0.5, rng).empty());
  EXPECT_EQ(surprise_copies(full_searches({0.0, 0.0}, {0.0, 0.0}), {.policy = 0.5, .value = 0.5}, rng),
            (std::vector<int>{1, 1}));
}

TEST(SurpriseCopies, WeightOneWritesEachInProportionToItsSurprise) {
  std::mt19937_64 rng(2);
  EXPECT_EQ(policy_copies(std::vector<double>{0.0, 0.0, 3.0, 1.0}, 1.0, rng), (std::vector<int>{0, 0, 3, 1}));
  EXPECT_EQ(surprise_copies(full_searches({0.0, 0.0, 0.0, 0.0}, {0.0, 0.5, 0.25, 0.25}), {.value = 1.0}, rng),
            (std::vector<int>{0, 2, 1, 1}));
}

// Policy and value weights add: here a half by the policy, a half by the value.
TEST(SurpriseCopies, PolicyAndValueSurprisesShareTheWeight) {
  std::mt19937_64 rng(4);
  EXPECT_EQ(
      surprise_copies(full_searches({0.0, 1.0, 1.0, 0.0}, {0.0, 0.0, 0.2, 0.2}), {.policy = 0.5, .value = 0.5}, rng),
      (std::vector<int>{0, 1, 2, 1}));
}

// KataGo's guard: a game whose values the net saw coming (mean surprise below 0.01) weighs its
// value surprise in proportion, here a tenth of the weight, the rest written once each.
TEST(SurpriseCopies, TheValueWeightShrinksWhereTheGameHardlySurprisedTheNet) {
  std::mt19937_64 rng(5);
  constexpr int kDraws = 20000;
  int total[2] = {0, 0};
  for (int draw = 0; draw < kDraws; ++draw) {
    const std::vector<int> copies = surprise_copies(full_searches({0.0, 0.0}, {0.002, 0.0}), {.value = 1.0}, rng);
    total[0] += copies[0];
    total[1] += copies[1];
  }
  // Weight 0.1: 0.9 + 0.1 x 2 and 0.9 + 0.1 x 0.
  EXPECT_NEAR(total[0] / double(kDraws), 1.1, 0.02);
  EXPECT_NEAR(total[1] / double(kDraws), 0.9, 0.02);
}

// Shares of a half and one and a half: each sample's fraction drawn, the game's total kept on average.
TEST(SurpriseCopies, FractionsAreDrawnSoThatTheTotalHoldsOnAverage) {
  std::mt19937_64 rng(3);
  constexpr int kDraws = 20000;
  int low_total = 0, high_total = 0;
  for (int draw = 0; draw < kDraws; ++draw) {
    const std::vector<int> copies = policy_copies(std::vector<double>{0.0, 2.0}, 0.5, rng);
    ASSERT_TRUE(copies[0] == 0 || copies[0] == 1);
    ASSERT_TRUE(copies[1] == 1 || copies[1] == 2);
    low_total += copies[0];
    high_total += copies[1];
  }
  EXPECT_NEAR(low_total / double(kDraws), 0.5, 0.02);
  EXPECT_NEAR(high_total / double(kDraws), 1.5, 0.02);
}

// KataGo's fast searches: written for their policy surprise beyond 1.5 x the full searches' mean
// (1 here: 1.5), on the full searches' scale, and never for their value surprise.
TEST(SurpriseCopies, AFastSearchIsWrittenForItsPolicySurpriseBeyondOneAndAHalfTimesTheFullSearches) {
  std::mt19937_64 rng(6);
  std::vector<SampleSurprise> game = full_searches({2.0, 0.0});
  game.push_back({.policy = 3.5, .value = 0.9, .full_search = false});  // 2 beyond the threshold
  game.push_back({.policy = 1.0, .value = 0.9, .full_search = false});  // below it
  // Policy parts 2, 0, 2 and 0 share the full searches' 2 samples' worth.
  EXPECT_EQ(surprise_copies(game, {.policy = 1.0}, rng), (std::vector<int>{1, 0, 1, 0}));
  EXPECT_EQ(surprise_copies(game, {}, rng), (std::vector<int>{1, 1, 0, 0})) << "no weighting: full searches alone";
  game[0].value = 0.5;
  game[1].value = 0.5;
  EXPECT_EQ(surprise_copies(game, {.value = 1.0}, rng), (std::vector<int>{1, 1, 0, 0}))
      << "no value surprise for fast ones";
}

TEST(ValueSurprise, IsTheTargetsDivergenceFromTheNetsValueCappedAtOne) {
  const Wdl net{.win = 0.5f, .draw = 0.25f, .loss = 0.25f};
  EXPECT_NEAR(value_surprise(net, net), 0.0, 1e-9);
  EXPECT_NEAR(value_surprise(Wdl{.win = 0.0f, .draw = 0.5f, .loss = 0.5f}, net), std::log(2.0), 1e-6);
  EXPECT_NEAR(value_surprise(Wdl{.win = 1.0f, .draw = 0.0f, .loss = 0.0f}, net), std::log(2.0), 1e-6);
  // A loss the net gave 2 %: log 50 nats, capped.
  EXPECT_EQ(
      value_surprise(Wdl{.win = 0.0f, .draw = 0.0f, .loss = 1.0f}, Wdl{.win = 0.98f, .draw = 0.0f, .loss = 0.02f}),
      1.0);
}

// From the result back: each target the next one moved toward this move's search value.
TEST(SmoothedValueTargets, MoveFromTheResultTowardEachSearchsValue) {
  const Wdl result{.win = 1.0f, .draw = 0.0f, .loss = 0.0f};
  const std::vector<Wdl> searches = {{.win = 0.0f, .draw = 1.0f, .loss = 0.0f},
                                     {.win = 0.0f, .draw = 0.0f, .loss = 1.0f}};
  const std::vector<Wdl> targets = smoothed_value_targets(searches, result, 0.5);
  ASSERT_EQ(targets.size(), 2U);
  EXPECT_NEAR(targets[1].win, 0.5, 1e-6);  // halfway from the win to the search's loss
  EXPECT_NEAR(targets[1].loss, 0.5, 1e-6);
  EXPECT_NEAR(targets[0].win, 0.25, 1e-6);  // halfway from there to the first search's draw
  EXPECT_NEAR(targets[0].draw, 0.5, 1e-6);
  EXPECT_NEAR(targets[0].loss, 0.25, 1e-6);
  EXPECT_NEAR(smoothed_value_targets(searches, result, 0.0)[0].win, 1.0, 1e-6);  // the result alone
  EXPECT_TRUE(smoothed_value_targets({}, result, 0.5).empty());
}

}  // namespace
}  // namespace ataxx
