#include <gtest/gtest.h>

#include "trainer/selfplay_loop.h"

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

}  // namespace
}  // namespace ataxx
