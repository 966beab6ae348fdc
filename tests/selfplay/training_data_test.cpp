#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "selfplay/training_data.h"

namespace ataxx {
namespace {

TEST(TrainingData, ChunkRoundTrips) {
  std::vector<TrainingSample> samples(3);
  samples[0].position = Position::startpos();
  samples[0].visits = {{16, 30}, {833, 1}};
  samples[0].root_value = 0.25f;
  samples[0].result = -1;
  samples[0].final_x = 0x1234;
  samples[0].final_o = 0x5678;
  samples[1].position = Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x o 17 9");
  samples[2].position = Position::from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 3 2");
  const std::string path = testing::TempDir() + "/chunk.zst";
  write_chunk(path, 2, samples);
  EXPECT_EQ(chunk_games(path), 2);
  const auto loaded = read_chunk(path);
  ASSERT_EQ(loaded.size(), 3U);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(loaded[i].position, samples[i].position);
    EXPECT_EQ(loaded[i].visits, samples[i].visits);
    EXPECT_EQ(loaded[i].root_value, samples[i].root_value);
    EXPECT_EQ(loaded[i].result, samples[i].result);
    EXPECT_EQ(loaded[i].final_x, samples[i].final_x);
    EXPECT_EQ(loaded[i].final_o, samples[i].final_o);
  }
}

TEST(TrainingData, RejectsForeignAndCorruptFiles) {
  const std::string path = testing::TempDir() + "/bad.zst";
  {
    std::ofstream out(path);
    out << "hello";
  }
  EXPECT_THROW(read_chunk(path), std::runtime_error);
  EXPECT_THROW(chunk_games(path), std::runtime_error);
  std::vector<TrainingSample> samples(2);
  write_chunk(path, 1, samples);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes.substr(0, bytes.size() - 5);
  }
  EXPECT_THROW(read_chunk(path), std::runtime_error);
  EXPECT_THROW(read_chunk(path + ".missing"), std::runtime_error);
}

}  // namespace
}  // namespace ataxx
