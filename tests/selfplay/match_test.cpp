#include <gtest/gtest.h>

#include <stdexcept>

#include "selfplay/match.h"
#include "selfplay/openings.h"

namespace ataxx {
namespace {

class ThrowingPlayer final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game&) override { throw std::runtime_error("out of order"); }
};

class IllegalPlayer final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game&) override { return parse_move("d4"); }
};

MatchConfig config(const std::string& p1, const std::string& p2, int games, int concurrency) {
  MatchConfig c;
  c.player1 = p1;
  c.player2 = p2;
  c.games = games;
  c.concurrency = concurrency;
  c.openings = default_openings();
  c.seed = 99;
  return c;
}

TEST(Match, FixedSeedIsReproducibleWhateverTheConcurrency) {
  const MatchResult a = run_match(config("greedy", "random", 12, 1));
  const MatchResult b = run_match(config("greedy", "random", 12, 3));
  ASSERT_EQ(a.games.size(), 12U);
  ASSERT_EQ(b.games.size(), 12U);
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(a.games[i].moves, b.games[i].moves) << i;
    EXPECT_EQ(a.games[i].outcome, b.games[i].outcome) << i;
  }
  EXPECT_EQ(a.score.wins, b.score.wins);
  MatchConfig other_seed = config("greedy", "random", 12, 1);
  other_seed.seed = 100;
  const MatchResult c = run_match(other_seed);
  bool any_different = false;
  for (int i = 0; i < 12; ++i) any_different |= a.games[i].moves != c.games[i].moves;
  EXPECT_TRUE(any_different);
}

TEST(Match, ColoursAlternateOnEachOpening) {
  const MatchResult result = run_match(config("random", "random", 4, 1));
  EXPECT_TRUE(result.games[0].player1_is_x);
  EXPECT_FALSE(result.games[1].player1_is_x);
  EXPECT_EQ(result.games[0].start, result.games[1].start);
  EXPECT_NE(result.games[1].start, result.games[2].start);
}

TEST(Match, AFailingPlayerLosesAndTheMatchGoesOn) {
  register_player_kind("test-throws", [](PlayerSpec&) { return std::make_unique<ThrowingPlayer>(); });
  register_player_kind("test-illegal", [](PlayerSpec&) { return std::make_unique<IllegalPlayer>(); });
  for (const char* bad : {"test-throws", "test-illegal"}) {
    const MatchResult result = run_match(config("random", bad, 6, 2));
    EXPECT_EQ(result.score.wins, 6) << bad;
    for (const GameRecord& game : result.games) EXPECT_FALSE(game.failure.empty());
  }
}

TEST(Match, SprtStopsEarly) {
  MatchConfig c = config("greedy", "random", 400, 1);
  c.sprt = SprtParams{.elo0 = 0, .elo1 = 50, .alpha = 0.05, .beta = 0.05};  // every field given
  const MatchResult result = run_match(c);
  EXPECT_EQ(result.verdict, SprtVerdict::kAcceptH1);
  EXPECT_LT(result.score.games(), 400);
  EXPECT_EQ(static_cast<int>(result.games.size()), result.score.games());
}

TEST(Match, PlayedGamesEndByTheRules) {
  const MatchResult result = run_match(config("greedy", "random", 6, 2));
  for (const GameRecord& game : result.games) {
    Game replay(game.start);
    for (const Move m : game.moves) replay.play(m);
    EXPECT_EQ(replay.outcome(), game.outcome);
  }
}

TEST(Pgn, WritesTagsMovesAndResult) {
  GameRecord game;
  game.index = 4;
  game.player1_is_x = false;
  game.start = Position::startpos();
  for (const char* m : {"g2", "a2", "a7c5"}) game.moves.push_back(parse_move(m));
  game.outcome = {Result::kDraw, EndReason::kHalfmoveClock};
  const std::string pgn = to_pgn(game, "alpha", "beta", "test");
  EXPECT_NE(pgn.find("[Round \"5\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[Black \"beta\"]"), std::string::npos);  // x is Black; player 2 had x
  EXPECT_NE(pgn.find("[White \"alpha\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]"), std::string::npos);
  EXPECT_NE(pgn.find("\n1. g2 a2 2. a7c5 1/2-1/2\n"), std::string::npos) << pgn;
}

}  // namespace
}  // namespace ataxx
