#include "uai/go_command.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ataxx {
namespace {

TEST(GoCommand, ReadsEveryNumberKeyAndTheFlags) {
  const GoLine go = read_go(
      " wtime 1000 btime 2000 winc 10 binc 20 movestogo 7 movetime 300 nodes 400 depth 5 mate 3 "
      "infinite ponder");
  EXPECT_EQ(go.white_ms, 1000);
  EXPECT_EQ(go.black_ms, 2000);
  EXPECT_EQ(go.white_increment_ms, 10);
  EXPECT_EQ(go.black_increment_ms, 20);
  EXPECT_EQ(go.moves_to_go, 7);
  EXPECT_EQ(go.limits.movetime_ms, 295) << "answering takes a few ms";
  EXPECT_EQ(go.limits.nodes, 400);
  EXPECT_EQ(go.limits.depth, 5);
  EXPECT_EQ(go.limits.mate, 3);
  EXPECT_TRUE(go.limits.infinite);
  EXPECT_TRUE(go.ponder);
}

TEST(GoCommand, SkipsWordsThatAreNoKeyAndEndsSearchmovesAtTheNextKey) {
  const GoLine go = read_go("fast searchmoves a7b6 z9 nodes 50 banana");
  EXPECT_EQ(go.search_moves, (std::vector<std::string>{"a7b6", "z9"}));
  EXPECT_EQ(go.limits.nodes, 50);
  EXPECT_FALSE(go.limits.infinite);
  EXPECT_EQ(go.white_ms, -1) << "no clock given";
}

TEST(GoCommand, LimitsAreAtLeastOneAndClocksNeverNegative) {
  const GoLine go = read_go("nodes 0 depth -3 mate 0 movetime 2 wtime -50 btime -1");
  EXPECT_EQ(go.limits.nodes, 1);
  EXPECT_EQ(go.limits.depth, 1);
  EXPECT_EQ(go.limits.mate, 1);
  EXPECT_EQ(go.limits.movetime_ms, 1);
  EXPECT_EQ(go.white_ms, 0);
  EXPECT_EQ(go.black_ms, 0);
}

TEST(GoCommand, RefusesAKeyWithoutItsNumber) {
  EXPECT_THROW(read_go("depth"), std::invalid_argument);
  EXPECT_THROW(read_go("nodes many"), std::invalid_argument);
  EXPECT_EQ(read_go("depth 99999999999999").limits.depth, 1'000'000'000) << "clamped, not overflowed";
}

TEST(GoCommand, TheMoversClockIsItsColours) {
  const GoLine go = read_go("wtime 1000 btime 2000 winc -5 binc 20 movestogo -2");
  const GameClock white = clock_of(go, /*mover_is_white=*/true, 50);
  EXPECT_EQ(white.own_ms, 1000);
  EXPECT_EQ(white.opponent_ms, 2000);
  EXPECT_EQ(white.own_increment_ms, 0) << "a negative increment counts as none";
  EXPECT_EQ(white.opponent_increment_ms, 20);
  EXPECT_EQ(white.moves_to_go, 0);
  EXPECT_EQ(white.move_overhead_ms, 50);
  const GameClock black = clock_of(go, /*mover_is_white=*/false, 50);
  EXPECT_EQ(black.own_ms, 2000);
  EXPECT_EQ(black.opponent_ms, 1000);
  EXPECT_EQ(black.own_increment_ms, 20);
}

}  // namespace
}  // namespace ataxx
