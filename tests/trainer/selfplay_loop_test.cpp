#include "trainer/selfplay_loop.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>

#include <filesystem>
#include <fstream>

#include "nn/model_info.h"
#include "selfplay/recent_games.h"
#include "util/parallel.h"

namespace ataxx {
namespace {

TEST(SelfPlayLoop, CountsTheInferenceThreadsItsPositionsInFlightKeepBusy) {
  RunConfig config;
  config.selfplay.threads = 2;
  config.selfplay.concurrent_games = 32;
  config.selfplay.leaves_per_round = 4;  // 256 positions in flight
  config.inference.threads = 2;
  config.inference.max_batch = 256;
  EXPECT_EQ(busy_inference_threads(config), 1);  // one batch holds them all
  config.inference.max_batch = 128;
  EXPECT_EQ(busy_inference_threads(config), 2);
  config.inference.max_batch = 100;
  EXPECT_EQ(busy_inference_threads(config), 2);  // never more than the server has
  config.inference.max_batch = 255;
  EXPECT_EQ(busy_inference_threads(config), 2);  // a second, small batch
}

int count_containing(const std::vector<std::string>& lines, const std::string& text) {
  int count = 0;
  for (const std::string& line : lines) count += line.find(text) != std::string::npos;
  return count;
}

// ROOT/run, emptied, its best model a small net of random weights.
RunDirectory run_with_a_random_net(const std::string& root) {
  std::filesystem::remove_all(root);
  RunDirectory dir(root + "/run");
  write_random_play_file(dir.model_path("gen-0000"), ModelShape{1, 8}, 1);
  dir.set_best("gen-0000");
  return dir;
}

TEST(SelfPlayLoop, WarnsOnceWhenItsGamesTurnToDraws) {
  // Every game is a draw: x's only moves are jumps (its neighbours are gaps), and a jump ends the
  // game at a halfmove limit of 1.
  const std::string root = testing::TempDir() + "/drawn-selfplay";
  const RunDirectory dir = run_with_a_random_net(root);
  const std::string openings = root + "/jumps-only.txt";
  std::ofstream(openings) << "6o/7/7/7/7/--5/x-5 x 0 1\n";
  RunConfig config;
  config.boards.openings = {openings};
  config.selfplay.opening_share = 1;
  config.selfplay.visits = 8;
  config.selfplay.fast_visits = 4;
  config.selfplay.games_per_chunk = 16;
  config.rules.halfmove_limit = 1;

  const auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(1000);
  spdlog::logger log("selfplay", sink);
  const SelfPlaySession session =
      play_selfplay<AtaxxGame>(config, dir, {.stopped = [] { return false; }, .games = 3 * RecentGames::kGames}, log);
  EXPECT_GE(session.stats.games, 3 * RecentGames::kGames);
  EXPECT_EQ(session.stats.draws, session.stats.games);
  const std::vector<std::string> said = sink->last_formatted();
  EXPECT_EQ(count_containing(said, "100% of the last 256 games were draws (1 plies a game)"), 1);
  EXPECT_GE(count_containing(said, "the last 256: 1 plies a game, 100% draws"), 1);
}

TEST(SelfPlayLoop, WarnsWhenItHasMoreWorkersThanCores) {
  const RunDirectory dir = run_with_a_random_net(testing::TempDir() + "/crowded-selfplay");
  const auto warnings_with = [&](int threads) {
    RunConfig config;
    config.selfplay.threads = threads;
    config.selfplay.concurrent_games = 1;
    config.selfplay.visits = 2;
    config.selfplay.fast_visits = 2;
    config.selfplay.games_per_chunk = 1;
    const auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(1000);
    spdlog::logger log("selfplay", sink);
    play_selfplay<AtaxxGame>(config, dir, {.stopped = [] { return false; }, .games = 1}, log);
    return count_containing(sink->last_formatted(), "so its workers take turns on them");
  };
  EXPECT_EQ(warnings_with(usable_cores() + 1), 1);
  EXPECT_EQ(warnings_with(usable_cores()), 0);
}

}  // namespace
}  // namespace ataxx
