#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "trainer/replay_buffer.h"

namespace ataxx {
namespace {

std::vector<TrainingSample> samples_tagged(int count, float tag) {
  std::vector<TrainingSample> samples(count);
  for (auto& s : samples) s.root_value = tag;
  return samples;
}

TEST(ReplayBuffer, WindowGrowsWithTheDataAndDrawsOnlyTheNewest) {
  const std::string dir = testing::TempDir() + "/replay";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RunConfig::Training config;
  config.min_window = 100;
  config.max_window = 1000;
  config.window_exponent = 0.75;
  ReplayBuffer buffer(config);
  write_chunk(dir + "/gen-0000-a.zst", 1, samples_tagged(80, 0.0f));
  EXPECT_EQ(buffer.refresh(dir), 80);
  EXPECT_EQ(buffer.window(), 80);  // all there is
  write_chunk(dir + "/gen-0001-a.zst", 1, samples_tagged(320, 1.0f));
  EXPECT_EQ(buffer.refresh(dir), 320);
  EXPECT_EQ(buffer.refresh(dir), 0);  // nothing new
  // 400 samples: 100 * (1 + 0.4 * ((4)^0.75 - 1) / 0.75) = 197.5
  EXPECT_EQ(buffer.window(), 197);
  std::mt19937_64 rng(1);
  std::set<float> tags;
  for (int i = 0; i < 2000; ++i) tags.insert(buffer.sample(rng).root_value);
  EXPECT_EQ(tags, std::set<float>{1.0f});  // the window holds only the newest chunk's samples
}

}  // namespace
}  // namespace ataxx
