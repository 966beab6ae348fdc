#include "players/level_player.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "match/match.h"
#include "nn/model_info.h"
#include "players/network_player.h"
#include "tests/test_paths.h"

namespace ataxx {
namespace {

TEST(Skill, FromOneVisitAndAWideDrawToTheSearchsOwnMove) {
  EXPECT_EQ(skill_settings(0).visits, 1);
  EXPECT_FLOAT_EQ(skill_settings(0).temperature, 2.0f);
  EXPECT_EQ(skill_settings(50).visits, 32);
  EXPECT_EQ(skill_settings(kMaxSkill).visits, 1024);
  EXPECT_EQ(skill_settings(kMaxSkill).temperature, 0.0f);
  for (int skill = 1; skill <= kMaxSkill; ++skill) {
    EXPECT_GE(skill_settings(skill).visits, skill_settings(skill - 1).visits);
    EXPECT_LT(skill_settings(skill).temperature, skill_settings(skill - 1).temperature);
  }
  EXPECT_THROW(skill_settings(-1), std::invalid_argument);
  EXPECT_THROW(skill_settings(kMaxSkill + 1), std::invalid_argument);
}

TEST(Skill, ForAnEloBetweenTheMeasuredLevels) {
  for (const LevelRating& level : kLevelRatings) EXPECT_EQ(skill_for_elo(level.elo), level.skill);
  EXPECT_EQ(skill_for_elo(0), 0);
  EXPECT_EQ(skill_for_elo(100'000), kMaxSkill);
  EXPECT_EQ(skill_for_elo((kLevelRatings[3].elo + kLevelRatings[4].elo) / 2), 35);
  for (int elo = kLevelRatings.front().elo; elo < kLevelRatings.back().elo; elo += 7)
    EXPECT_LE(skill_for_elo(elo), skill_for_elo(elo + 7));
}

// The moves a level plays from the start in `games` fresh games.
std::set<std::string> first_moves(int skill, int games) {
  std::set<std::string> moves;
  BasicLevelPlayer<AtaxxGame> player(make_player("mcts:visits=2000"), skill);
  const AtaxxGame::Game start(AtaxxGame::start());
  for (int seed = 0; seed < games; ++seed) {
    player.new_game(seed);
    const AtaxxGame::Move move = player.choose_move(start);
    EXPECT_TRUE(start.position().is_legal(move));
    EXPECT_LE(player.last_report().nodes, static_cast<std::uint64_t>(skill_settings(skill).visits) + 8);
    EXPECT_EQ(player.last_report().pv.at(0), move);
    moves.insert(AtaxxGame::move_text(move, start.position()));
  }
  return moves;
}

TEST(LevelPlayer, TheLowestDrawsAmongManyMovesTheHighestPlaysTheSearchsMove) {
  EXPECT_GE(first_moves(0, 40).size(), 6U);  // of 16 from the start
  EXPECT_EQ(first_moves(kMaxSkill, 10).size(), 1U);
}

TEST(LevelPlayer, AHigherLevelBeatsALowerOne) {
  const auto level = [](int skill) {
    return PlayerSource("skill " + std::to_string(skill), [skill] {
      return std::make_unique<BasicLevelPlayer<AtaxxGame>>(make_player("mcts:visits=2000"), skill);
    });
  };
  MatchConfig config;
  config.player1 = level(70);
  config.player2 = level(0);
  config.games = 20;
  config.seed = 5;
  config.openings = {AtaxxGame::start()};
  const MatchScore score = run_match(config).score;
  EXPECT_GE(score.wins, 16) << score.wins << "-" << score.draws << "-" << score.losses;
}

TEST(LevelPlayer, ANetworkPlayerSpecGivesItsLevel) {
  write_random_play_file(temp_path("level.net"), {1, 8}, 3);
  auto player = make_player("nn:model=" + temp_path("level.net") + ",skill=30");
  player->new_game(1);
  player->choose_move(AtaxxGame::Game(AtaxxGame::start()));
  EXPECT_LE(player->last_report().nodes, 8U + 8U);  // 2^3 visits, a round past at most
  EXPECT_THROW(make_player("nn:model=" + temp_path("level.net") + ",skill=101"), std::invalid_argument);
}

}  // namespace
}  // namespace ataxx
