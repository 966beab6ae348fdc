#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "stats/elo.h"
#include "stats/ratings.h"

namespace ataxx {
namespace {

TEST(Ratings, TwoPlayersMatchTheLogisticScoreWithThePrior) {
  // 75 - 25: with one virtual draw the fitted score is 75.5 / 101.
  const auto ratings = fit_ratings({{"a", "b", 75, 0, 25}}, {{"b", 0.0}});
  ASSERT_EQ(ratings.size(), 2U);
  EXPECT_EQ(ratings[0].name, "a");
  EXPECT_NEAR(ratings[0].elo, elo_from_score(75.5 / 101), 0.01);
  EXPECT_EQ(ratings[1].elo, 0.0);
  EXPECT_EQ(ratings[1].error95, 0.0);
  EXPECT_GT(ratings[0].error95, 50.0);
  EXPECT_LT(ratings[0].error95, 200.0);
  EXPECT_EQ(ratings[0].games, 100);
}

TEST(Ratings, JointFitOrdersATransitiveChainAndStaysFiniteOnPerfectScores) {
  const auto ratings = fit_ratings({{"strong", "middle", 30, 5, 5}, {"middle", "weak", 30, 5, 5}, {"strong", "weak", 10, 0, 0}},
                                   {{"weak", 0.0}});
  std::map<std::string, double> elo;
  for (const auto& r : ratings) elo[r.name] = r.elo;
  EXPECT_GT(elo["strong"], elo["middle"]);
  EXPECT_GT(elo["middle"], elo["weak"]);
  EXPECT_TRUE(std::isfinite(elo["strong"]));
  // The indirect path informs strong vs weak beyond their 10 direct games.
  EXPECT_GT(elo["strong"] - elo["middle"], 100);
}

TEST(Ratings, AFixedPlayerWhoPlayedNoGameOrNoneFixedIsAnError) {
  EXPECT_THROW(fit_ratings({{"a", "b", 1, 0, 0}}, {{"c", 0.0}}), std::invalid_argument);
  EXPECT_THROW(fit_ratings({{"a", "b", 1, 0, 0}}, {}), std::invalid_argument);
}

// As rating lists rate against fixed references: the references stay where they are given, and a
// player's interval is that of its own games against them, not of the chain that placed them.
TEST(Ratings, PlayersAreRatedAgainstReferencesHeldWhereTheyAreGiven) {
  const std::vector<PairResult> games = {{"level", "low", 60, 0, 40}, {"level", "high", 40, 0, 60}};
  const auto ratings = fit_ratings(games, {{"low", 1000.0}, {"high", 1200.0}});
  ASSERT_EQ(ratings.size(), 3U);
  EXPECT_NEAR(ratings[0].elo, 1100.0, 0.01);  // symmetric scores: halfway
  EXPECT_DOUBLE_EQ(ratings[1].elo, 1000.0);
  EXPECT_DOUBLE_EQ(ratings[2].elo, 1200.0);
  EXPECT_EQ(ratings[1].error95, 0.0);
  // 202 games (with the prior's), each 100 Elo from the level: 1.96 / sqrt(202 p (1 - p)) in natural units.
  const double p = 1 / (1 + std::pow(10.0, -100.0 / 400));
  EXPECT_NEAR(ratings[0].error95, 1.96 / std::sqrt(202 * p * (1 - p)) * 400 / std::log(10.0), 0.5);
}

// Players whom no chain of games links to a fixed one have no rating on its scale: said, not a
// number with an interval of millions.
TEST(Ratings, PlayersLinkedToNoFixedPlayerAreMarked) {
  const auto ratings = fit_ratings({{"a", "b", 6, 0, 4}, {"c", "d", 7, 0, 3}}, {{"a", 0.0}});
  ASSERT_EQ(ratings.size(), 4U);
  EXPECT_TRUE(ratings[1].linked);
  EXPECT_LT(ratings[1].error95, 1000.0);
  for (int i : {2, 3}) {
    EXPECT_FALSE(ratings[i].linked) << ratings[i].name;
    EXPECT_TRUE(std::isinf(ratings[i].error95));
  }
}

}  // namespace
}  // namespace ataxx
