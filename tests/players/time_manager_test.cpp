#include "players/time_manager.h"

#include <gtest/gtest.h>

namespace ataxx {
namespace {

// 45 empty cells at the start; two here.
const Position kStart = Position::startpos();
const Position kNearlyFull = Position::from_fen("xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxx2 x 0 30");

GameClock clock_of(int own_ms, int increment_ms = 0, int moves_to_go = 0) {
  return {own_ms, increment_ms, own_ms, increment_ms, moves_to_go};
}

TEST(TimeManager, ExpectsFewerMovesAsTheBoardFills) {
  EXPECT_GT(expected_moves_left(kStart), expected_moves_left(kNearlyFull));
  EXPECT_LE(expected_moves_left(kStart), 50);
  EXPECT_GE(expected_moves_left(kNearlyFull), 1);
}

TEST(TimeManager, LateMovesGetMoreOfTheSameClock) {
  EXPECT_GT(plan_move_time(kNearlyFull, clock_of(30'000)), 2 * plan_move_time(kStart, clock_of(30'000)));
}

TEST(TimeManager, SharesTheClockOverTheMovesLeftPlusMostOfTheIncrement) {
  const int moves = expected_moves_left(kStart);
  EXPECT_EQ(plan_move_time(kStart, clock_of(30'000)), 30'000 / moves);
  EXPECT_EQ(plan_move_time(kStart, clock_of(10'000, 1000)), 10'000 / moves + 750);
  EXPECT_EQ(plan_move_time(kStart, clock_of(5000, 0, 5)), 1000);  // movestogo, when fewer
  EXPECT_EQ(plan_move_time(kStart, clock_of(5000, 0, 500)), 5000 / moves);
}

TEST(TimeManager, KeepsTheMoveOverheadAndAFloorAndDoesNotOverflow) {
  EXPECT_EQ(plan_move_time(kStart, clock_of(100, 1000)), 50);  // never past the time left - 50 ms
  GameClock clock = clock_of(1000, 1000);
  clock.move_overhead_ms = 990;
  EXPECT_EQ(plan_move_time(kStart, clock), 10);
  EXPECT_EQ(plan_move_time(kStart, clock_of(20)), 1);
  EXPECT_EQ(plan_move_time(kStart, clock_of(0)), 1);
  const int moves = expected_moves_left(kStart);
  EXPECT_EQ(plan_move_time(kStart, clock_of(2'000'000'000, 2'000'000'000)), 2'000'000'000 / moves + 1'500'000'000);
}

TEST(TimeManager, MovetimeComesFirstAndAnUntimedGameLeavesThePlayersBudget) {
  MoveLimits limits;
  EXPECT_EQ(move_time_ms(kStart, limits), 0);
  limits.clock = clock_of(30'000);
  EXPECT_EQ(move_time_ms(kStart, limits), plan_move_time(kStart, limits.clock));
  limits.movetime_ms = 7;
  EXPECT_EQ(move_time_ms(kStart, limits), 7);
  limits.infinite = true;  // go infinite, or go ponder before ponderhit: searches until stopped
  EXPECT_EQ(move_time_ms(kStart, limits), 0);
}

}  // namespace
}  // namespace ataxx
