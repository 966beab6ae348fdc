#include <gtest/gtest.h>

#include <stdexcept>

#include "players/network_player.h"
#include "trainer/gatekeeper.h"

namespace ataxx {
namespace {

TEST(Gatekeeper, ALadderBaselineThatCannotPlayIsRefusedBeforeTheRunStarts) {
  RunConfig config;
  config.ladder.baselines = {"random", "nn:model=/nonexistent/anchor.net,visits=8"};
  try {
    check_ladder_baselines(config);
    ADD_FAILURE() << "a missing model was accepted as a ladder baseline";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ladder.baselines: 'nn:model=/nonexistent/anchor.net,visits=8'"),
              std::string::npos)
        << e.what();
  }
  config.ladder.games = 0;  // a ladder that plays nothing has nothing to check
  EXPECT_NO_THROW(check_ladder_baselines(config));
  config.ladder.games = 10;
  config.ladder.baselines = {"random", "greedy", "alphabeta:depth=2"};
  EXPECT_NO_THROW(check_ladder_baselines(config));
}

TEST(Gatekeeper, GatingPlaysWithTheRunsInferenceSettings) {
  RunConfig config;
  config.inference = {.device = "cuda:1", .bf16 = true, .cuda_graphs = true, .max_batch = 96, .threads = 3,
                      .cache_entries = 5000};
  PlayerSpec spec(network_player_spec(config, "/runs/a/models/gen-0007.net", 40));
  const NetworkPlayerOptions options = read_network_player_options(spec);
  EXPECT_EQ(options.model, "/runs/a/models/gen-0007.net");
  EXPECT_EQ(options.search.visits, 40);
  EXPECT_EQ(options.inference.device, "cuda:1");
  EXPECT_TRUE(options.inference.bf16);
  EXPECT_TRUE(options.inference.cuda_graphs);
  EXPECT_EQ(options.inference.max_batch, 96);
  EXPECT_EQ(options.inference.threads, 3);
  EXPECT_EQ(options.inference.cache_entries, 5000);
}

TEST(Gatekeeper, ATimeShareRestsUntilItsBusyTimeIsItsShareOfTheWallTime) {
  TimeShare quarter(0.25);
  EXPECT_EQ(quarter.rest(0), 0);  // nothing played yet
  quarter.add_busy(10);
  EXPECT_DOUBLE_EQ(quarter.rest(10), 30);
  EXPECT_DOUBLE_EQ(quarter.rest(25), 15);
  EXPECT_EQ(quarter.rest(40), 0);
  quarter.add_busy(5);  // 15 busy seconds: a quarter of 60
  EXPECT_DOUBLE_EQ(quarter.rest(45), 15);

  TimeShare all(1);
  all.add_busy(10);
  EXPECT_EQ(all.rest(10), 0);  // always playing
}

}  // namespace
}  // namespace ataxx
