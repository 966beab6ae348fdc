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
  EXPECT_GT(AtaxxGame::Play::expected_moves_left(kStart), AtaxxGame::Play::expected_moves_left(kNearlyFull));
  EXPECT_LE(AtaxxGame::Play::expected_moves_left(kStart), 50);
  EXPECT_GE(AtaxxGame::Play::expected_moves_left(kNearlyFull), 1);
}

// Schataxx games go on while men are left to drop (each drop restarts the 100 plies that end the
// game), hundreds of plies from the start; the empty squares, never fewer than 28, said 30 moves.
TEST(TimeManager, ExpectsSchataxxGamesToGoOnWhileMenAreLeftToDrop) {
  const auto start = schataxx::Position::startpos();
  const auto two_men_left = schataxx::Position::from_fen("k6N/8/8/3PP3/8/8/8/K6n[Pp] w - - 0 40");
  EXPECT_GE(SchataxxGame::Play::expected_moves_left(start), 100);
  EXPECT_GT(SchataxxGame::Play::expected_moves_left(start), SchataxxGame::Play::expected_moves_left(two_men_left));
  EXPECT_GE(SchataxxGame::Play::expected_moves_left(two_men_left), 20);
}

// With endless soldiers nearly every move drops one: about a move an empty square, far fewer than
// the standard game's from its start.
TEST(TimeManager, ExpectsAboutAMoveAnEmptySquareInUnlimitedSchataxx) {
  const auto start = schataxx::Position::startpos(schataxx::Variant::kUnlimited);
  const auto half_full = schataxx::Position::from_fen(
      "k6N/8/8/PPPPPPPP/pppppppp/PPPPPPPP/pppppppp/K6n[QRRBBNqrrbbn] w - - 0 40", schataxx::Variant::kUnlimited);
  EXPECT_LT(SchataxxGame::Play::expected_moves_left(start), SchataxxGame::Play::expected_moves_left(schataxx::Position::startpos()));
  EXPECT_GE(SchataxxGame::Play::expected_moves_left(start), 45);
  EXPECT_LE(SchataxxGame::Play::expected_moves_left(start), 60);
  EXPECT_LT(SchataxxGame::Play::expected_moves_left(half_full), SchataxxGame::Play::expected_moves_left(start) / 2);
}

TEST(TimeManager, BoundsASchataxxGameWithEmptyStocksByThePliesBeforeItEnds) {
  const auto just_dropped = schataxx::Position::from_fen("k6N/8/8/3PP3/8/8/8/K6n[] w - - 0 60");
  const auto ninety_plies_on = schataxx::Position::from_fen("k6N/8/8/3PP3/8/8/8/K6n[] w - - 90 105");
  EXPECT_LE(SchataxxGame::Play::expected_moves_left(just_dropped), 50);
  EXPECT_EQ(SchataxxGame::Play::expected_moves_left(ninety_plies_on), 5);
}

TEST(TimeManager, LateMovesGetMoreOfTheSameClock) {
  EXPECT_GT(plan_move_time<AtaxxGame>(kNearlyFull, clock_of(30'000)), 2 * plan_move_time<AtaxxGame>(kStart, clock_of(30'000)));
}

TEST(TimeManager, SharesTheClockOverTheMovesLeftPlusMostOfTheIncrement) {
  const int moves = AtaxxGame::Play::expected_moves_left(kStart);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(30'000)), 30'000 / moves);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(10'000, 1000)), 10'000 / moves + 750);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(5000, 0, 5)), 1000);  // movestogo, when fewer
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(5000, 0, 500)), 5000 / moves);
}

TEST(TimeManager, KeepsTheMoveOverheadAndAFloorAndDoesNotOverflow) {
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(100, 1000)), 50);  // never past the time left - 50 ms
  GameClock clock = clock_of(1000, 1000);
  clock.move_overhead_ms = 990;
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock), 10);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(20)), 1);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(0)), 1);
  const int moves = AtaxxGame::Play::expected_moves_left(kStart);
  EXPECT_EQ(plan_move_time<AtaxxGame>(kStart, clock_of(2'000'000'000, 2'000'000'000)), 2'000'000'000 / moves + 1'500'000'000);
}

TEST(TimeManager, MovetimeComesFirstAndAnUntimedGameLeavesThePlayersBudget) {
  MoveLimits limits;
  EXPECT_EQ(move_time_ms<AtaxxGame>(kStart, limits), 0);
  limits.clock = clock_of(30'000);
  EXPECT_EQ(move_time_ms<AtaxxGame>(kStart, limits), plan_move_time<AtaxxGame>(kStart, limits.clock));
  limits.movetime_ms = 7;
  EXPECT_EQ(move_time_ms<AtaxxGame>(kStart, limits), 7);
  limits.infinite = true;  // go infinite, or go ponder before ponderhit: searches until stopped
  EXPECT_EQ(move_time_ms<AtaxxGame>(kStart, limits), 0);
}

}  // namespace
}  // namespace ataxx
