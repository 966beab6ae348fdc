#include "selfplay/recent_games.h"

#include <gtest/gtest.h>

namespace ataxx {
namespace {

constexpr int kChunk = 16;  // games a chunk
constexpr int kChunksInWindow = RecentGames::kGames / kChunk;

TEST(RecentGames, KeepsAboutTheLastWindowOfGames) {
  RecentGames recent;
  recent.add(kChunk, 20 * kChunk, 0);
  EXPECT_EQ(recent.games(), kChunk);
  EXPECT_DOUBLE_EQ(recent.plies_per_game(), 20);
  for (int i = 0; i < kChunksInWindow; ++i) recent.add(kChunk, 60 * kChunk, kChunk / 2);
  // The first chunk has left the window: only the later ones count.
  EXPECT_EQ(recent.games(), RecentGames::kGames);
  EXPECT_DOUBLE_EQ(recent.plies_per_game(), 60);
  EXPECT_DOUBLE_EQ(recent.draw_share(), 0.5);
}

TEST(RecentGames, AChunkLargerThanTheWindowIsTheWindow) {
  RecentGames recent;
  recent.add(kChunk, kChunk, 0);
  recent.add(2 * RecentGames::kGames, 2 * RecentGames::kGames, RecentGames::kGames);
  EXPECT_EQ(recent.games(), 2 * RecentGames::kGames);
  EXPECT_DOUBLE_EQ(recent.draw_share(), 0.5);
}

TEST(RecentGames, DrawsAreWarnedOnceAFullWindowHasThemAndAgainOnlyAfterTheyCleared) {
  RecentGames recent;
  const int many = kChunk / 2, few = 0;  // draws of a chunk: half of it, none
  // Half draws, but the window is not yet full: no warning before it is.
  for (int i = 0; i < kChunksInWindow - 1; ++i) EXPECT_FALSE(recent.add(kChunk, kChunk, many)) << i;
  EXPECT_TRUE(recent.add(kChunk, kChunk, many));
  EXPECT_FALSE(recent.add(kChunk, kChunk, many));  // told once
  // Down to 15 %: still above where the warning is cleared, so none again when it rises.
  for (int i = 0; i < kChunksInWindow * 7 / 10; ++i) recent.add(kChunk, kChunk, few);
  ASSERT_GT(recent.draw_share(), RecentGames::kDrawShareCleared);
  for (int i = 0; i < kChunksInWindow; ++i) EXPECT_FALSE(recent.add(kChunk, kChunk, many)) << i;
  // Cleared below 10 %, then back up: warned again.
  for (int i = 0; i < kChunksInWindow; ++i) recent.add(kChunk, kChunk, few);
  bool warned = false;
  for (int i = 0; i < kChunksInWindow; ++i) warned |= recent.add(kChunk, kChunk, many);
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace ataxx
