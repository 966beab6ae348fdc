#include <gtest/gtest.h>

#include <stdexcept>

#include "games/ataxx/game.h"

namespace ataxx {
namespace {

// x and o jump away and back: the start position recurs every 4 plies.
void shuffle_once(Game& game) {
  for (const char* move : {"a7a5", "g7g5", "a5a7", "g5g7"}) game.play(move);
}

TEST(Game, ThirdRepetitionEndsTheGameWithPiecesCounted) {
  Game game;
  EXPECT_EQ(game.repetitions(), 1);
  shuffle_once(game);
  EXPECT_EQ(game.repetitions(), 2);
  EXPECT_FALSE(game.outcome().is_over());
  shuffle_once(game);
  EXPECT_EQ(game.repetitions(), 3);
  EXPECT_EQ(game.outcome(), (Outcome{Result::kDraw, EndReason::kRepetition}));
  EXPECT_THROW(game.play("b6"), std::invalid_argument);
}

TEST(Game, RecentHashesRestartAtEachSingle) {
  Game game;
  shuffle_once(game);
  EXPECT_EQ(game.recent_hashes().size(), 5U);
  EXPECT_EQ(game.recent_hashes().front(), Position::startpos().hash());
  EXPECT_EQ(game.recent_hashes().back(), game.position().hash());
  game.play("b6");
  EXPECT_EQ(game.recent_hashes().size(), 1U);
}

TEST(Game, RepetitionLimitIsConfigurable) {
  Game two(Position::startpos(), {.halfmove_limit = 100, .repetition_limit = 2});
  shuffle_once(two);
  EXPECT_TRUE(two.outcome().is_over());
  Game off(Position::startpos(), {.halfmove_limit = 100, .repetition_limit = 0});
  for (int i = 0; i < 5; ++i) shuffle_once(off);
  EXPECT_FALSE(off.outcome().is_over());
}

TEST(Game, RepetitionCountsOnlySameSideToMove) {
  Game game(Position::from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x"));
  game.play("0000");  // x must pass; the board recurs with o to move, which is another position
  EXPECT_EQ(game.repetitions(), 1);
}

TEST(Game, RejectsIllegalMoves) {
  Game game;
  EXPECT_THROW(game.play("d4"), std::invalid_argument);    // not reachable
  EXPECT_THROW(game.play("g7e5"), std::invalid_argument);  // o's piece
  EXPECT_THROW(game.play("0000"), std::invalid_argument);  // pass with moves available
  EXPECT_THROW(game.play("zz"), std::invalid_argument);
  EXPECT_TRUE(game.moves().empty());
  game.play("b6");
  EXPECT_EQ(game.position().fen(), "x5o/1x5/7/7/7/7/o5x o 0 1");
}

TEST(Game, HalfmoveClockEndsTheGame) {
  Game game(Position::from_fen("x5o/7/7/7/7/7/o5x x 99 1"));
  game.play("a7c7");
  EXPECT_EQ(game.outcome(), (Outcome{Result::kDraw, EndReason::kHalfmoveClock}));
}

}  // namespace
}  // namespace ataxx
