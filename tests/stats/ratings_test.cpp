#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "stats/elo.h"
#include "stats/ratings.h"

namespace ataxx {
namespace {

TEST(Ratings, TwoPlayersMatchTheLogisticScoreWithThePrior) {
  // 75 - 25: with one virtual draw the fitted score is 75.5 / 101.
  const auto ratings = fit_ratings({{"a", "b", 75, 0, 25}}, "b");
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
                                   "weak");
  std::map<std::string, double> elo;
  for (const auto& r : ratings) elo[r.name] = r.elo;
  EXPECT_GT(elo["strong"], elo["middle"]);
  EXPECT_GT(elo["middle"], elo["weak"]);
  EXPECT_TRUE(std::isfinite(elo["strong"]));
  // The indirect path informs strong vs weak beyond their 10 direct games.
  EXPECT_GT(elo["strong"] - elo["middle"], 100);
}

TEST(Ratings, UnknownAnchorIsAnError) { EXPECT_THROW(fit_ratings({{"a", "b", 1, 0, 0}}, "c"), std::invalid_argument); }

}  // namespace
}  // namespace ataxx
