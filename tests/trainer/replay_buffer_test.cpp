#include "trainer/replay_buffer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "games/schataxx/position.h"
#include "tests/test_paths.h"
#include "util/read_file.h"

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
  EXPECT_EQ(buffer.refresh(dir).samples, 80);
  EXPECT_EQ(buffer.window(), 80);  // all there is
  write_chunk(dir + "/gen-0001-a.zst", 1, samples_tagged(320, 1.0f));
  EXPECT_EQ(buffer.refresh(dir).samples, 320);
  EXPECT_EQ(buffer.refresh(dir).samples, 0);  // nothing new
  EXPECT_EQ(buffer.total_games(), 2);
  // 400 samples: 100 * (1 + 0.4 * ((4)^0.75 - 1) / 0.75) = 197.5
  EXPECT_EQ(buffer.window(), 197);
  std::mt19937_64 rng(1);
  std::set<float> tags;
  for (int i = 0; i < 2000; ++i) tags.insert(buffer.sample(rng).root_value);
  EXPECT_EQ(tags, std::set<float>{1.0f});  // the window holds only the newest chunk's samples
}

TEST(ReplayBuffer, SkipsADamagedChunkAndGoesOn) {
  const std::string dir = testing::TempDir() + "/replay-damaged";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write_chunk(dir + "/gen-0000-a.zst", 1, samples_tagged(10, 0.0f));
  std::vector<TrainingSample> bad = samples_tagged(5, 0.5f);
  bad[2].visits = {{Move::jump(70, 3), 1}};  // a move from off the board
  write_chunk(dir + "/gen-0000-b.zst", 1, bad);
  { std::ofstream(dir + "/gen-0000-c.zst") << "not a chunk"; }
  write_chunk(dir + "/gen-0001-a.zst", 1, samples_tagged(20, 1.0f));
  ReplayBuffer buffer(RunConfig::Training{});
  const ReplayBuffer::Refresh refresh = buffer.refresh(dir);
  EXPECT_EQ(refresh.samples, 30);
  ASSERT_EQ(refresh.skipped.size(), 2U);
  EXPECT_NE(refresh.skipped[0].find("gen-0000-b.zst"), std::string::npos) << refresh.skipped[0];
  EXPECT_NE(refresh.skipped[1].find("gen-0000-c.zst"), std::string::npos) << refresh.skipped[1];
  EXPECT_EQ(buffer.skipped_chunks(), 2);
  EXPECT_TRUE(buffer.refresh(dir).skipped.empty());  // not tried again
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = temp_path(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ReplayBuffer, LeavesOutSamplesOfBoardsTheRunDoesNotTrain) {
  const std::string dir = fresh_dir("replay-boards");
  std::vector<TrainingSample> mixed = samples_tagged(6, 0.5f);
  for (int i = 0; i < 4; ++i) mixed[i].position = Position::startpos(board(BoardId::k8x8));
  write_chunk(dir + "/gen-0000-a.zst", 1, mixed);  // a family run's chunk in a 7x7 run
  ReplayBuffer buffer(RunConfig::Training{}, GameEncoder<AtaxxGame>(BoardSet{}));
  const ReplayBuffer::Refresh refresh = buffer.refresh(dir);
  EXPECT_EQ(refresh.samples, 2);
  ASSERT_EQ(refresh.left_out.size(), 1U);
  EXPECT_NE(refresh.left_out[0].find("4 of its 6 samples"), std::string::npos) << refresh.left_out[0];
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(&buffer.sample(rng).position.board(), &board_7x7());
}

TEST(ReplayBuffer, EachGameTakesItsOwnChunksAndLeavesOutTheOther) {
  const std::string dir = fresh_dir("replay-games");
  write_chunk(dir + "/gen-0000-a.zst", 1, samples_tagged(3, 0.5f));
  std::vector<BasicTrainingSample<SchataxxGame>> schataxx_samples(5);
  for (auto& s : schataxx_samples) s.position = schataxx::Position::startpos();
  write_chunk(dir + "/gen-0000-b.zst", 2, schataxx_samples);
  ReplayBuffer ataxx_buffer{RunConfig::Training{}};
  const auto ataxx = ataxx_buffer.refresh(dir);
  EXPECT_EQ(ataxx.samples, 3);
  EXPECT_EQ(ataxx.games, 1);
  EXPECT_TRUE(ataxx.skipped.empty());  // not damaged: another game's
  ASSERT_EQ(ataxx.left_out.size(), 1U);
  EXPECT_NE(ataxx.left_out[0].find("gen-0000-b.zst: it holds games of schataxx; the run plays ataxx"), std::string::npos)
      << ataxx.left_out[0];
  BasicReplayBuffer<SchataxxGame> schataxx_buffer{RunConfig::Training{}};
  const auto schataxx = schataxx_buffer.refresh(dir);
  EXPECT_EQ(schataxx.samples, 5);
  EXPECT_EQ(schataxx.games, 2);
  ASSERT_EQ(schataxx.left_out.size(), 1U);
  std::mt19937_64 rng(1);
  EXPECT_EQ(schataxx_buffer.sample(rng).position, schataxx::Position::startpos());
}

TEST(ReplayBuffer, TakesChunksInTheOrderOfTheirGenerationsPastFourDigits) {
  const std::string dir = fresh_dir("replay-order");
  write_chunk(dir + "/gen-10000-a-00001.zst", 1, samples_tagged(10, 1.0f));
  write_chunk(dir + "/gen-9999-a-00010.zst", 1, samples_tagged(10, 0.5f));
  write_chunk(dir + "/gen-9999-a-00009.zst", 1, samples_tagged(10, 0.0f));
  RunConfig::Training config;
  config.min_window = config.max_window = 10;  // the newest chunk alone
  ReplayBuffer buffer(config);
  EXPECT_EQ(buffer.refresh(dir).samples, 30);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(buffer.sample(rng).root_value, 1.0f);  // gen-10000's
}

TEST(ReplayBuffer, AResumeReadsOnlyTheChunksOfTheWindowAndCountsTheRest) {
  const std::string dir = fresh_dir("replay-resume");
  for (int c = 0; c < 5; ++c)
    write_chunk(dir + "/gen-000" + std::to_string(c) + "-a.zst", 2, samples_tagged(100, c / 10.0f));
  // Damaged beyond the window: never read, so never found out; counted from its header.
  std::string bytes = read_whole_file(dir + "/gen-0000-a.zst");
  bytes.back() ^= 1;
  { std::ofstream(dir + "/gen-0000-a.zst", std::ios::binary) << bytes; }
  RunConfig::Training config;
  config.min_window = 100;
  config.max_window = 200;
  ReplayBuffer buffer(config);
  const ReplayBuffer::Refresh refresh = buffer.refresh(dir);
  EXPECT_EQ(refresh.samples, 500);
  EXPECT_EQ(refresh.games, 10);
  EXPECT_TRUE(refresh.skipped.empty());
  EXPECT_EQ(buffer.held_samples(), 200);  // the two newest chunks
  EXPECT_EQ(buffer.window(), 200);
}

// A pack's games: the chunks of the window, and the tally of the others.
void pack_games(const ReplayBuffer& buffer, const std::string& from, const std::string& into) {
  const std::vector<std::string> chunks = buffer.window_chunks();
  for (const std::string& name : chunks) std::filesystem::copy_file(from + "/" + name, into + "/" + name);
  buffer.counted_only(chunks).write(into);
}

std::vector<float> draws(const ReplayBuffer& buffer, int count) {
  std::mt19937_64 rng(7);
  std::vector<float> tags;
  for (int i = 0; i < count; ++i) tags.push_back(buffer.sample(rng).root_value);
  return tags;
}

TEST(ReplayBuffer, TheChunksOfItsWindowAndATallyOfTheRestDrawTheSameSamplesAsTheWholeRun) {
  const std::string whole = fresh_dir("replay-whole");
  const std::string packed = fresh_dir("replay-packed");
  RunConfig::Training config;
  config.min_window = 100;
  config.max_window = 10'000;
  config.window_exponent = 0.75;
  auto add_chunk = [&](int c) {
    for (const auto& dir : {whole, packed})
      write_chunk(dir + "/gen-" + std::to_string(1000 + c) + "-a.zst", 3, samples_tagged(40 + c, c / 100.0f));
  };
  ReplayBuffer original(config);
  for (int c = 0; c < 30; ++c) add_chunk(c);
  for (const auto& entry : std::filesystem::directory_iterator(packed)) std::filesystem::remove(entry.path());
  original.refresh(whole);
  pack_games(original, whole, packed);
  const auto kept = std::distance(std::filesystem::directory_iterator(packed), {}) - 1;
  EXPECT_LT(kept, 10) << "the window (" << original.window() << " of " << original.total_samples() << ") is the newest chunks";
  EXPECT_EQ(CountedOnly::read(packed).chunks, 30 - kept);

  ReplayBuffer resumed(config);
  resumed.refresh(packed);
  EXPECT_EQ(resumed.total_samples(), original.total_samples());
  EXPECT_EQ(resumed.total_games(), original.total_games());
  EXPECT_EQ(resumed.window(), original.window());
  EXPECT_EQ(draws(resumed, 2000), draws(original, 2000));
  // The window grows slower than the games come: it stays inside what both hold.
  for (int c = 30; c < 60; ++c) add_chunk(c);
  original.refresh(whole);
  resumed.refresh(packed);
  EXPECT_EQ(resumed.total_samples(), original.total_samples());
  EXPECT_EQ(resumed.window(), original.window());
  EXPECT_EQ(draws(resumed, 2000), draws(original, 2000));
}

TEST(ReplayBuffer, APackOfAPackCountsBothTallies) {
  const std::string first = fresh_dir("replay-pack-1");
  const std::string second = fresh_dir("replay-pack-2");
  RunConfig::Training config;
  config.min_window = 50;
  config.max_window = 50;
  for (int c = 0; c < 4; ++c) write_chunk(first + "/gen-000" + std::to_string(c) + "-a.zst", 2, samples_tagged(50, 0));
  CountedOnly{10, 700, 20}.write(first);  // left behind by an earlier pack
  ReplayBuffer buffer(config);
  buffer.refresh(first);
  EXPECT_EQ(buffer.total_samples(), 900);
  EXPECT_EQ(buffer.total_games(), 28);
  pack_games(buffer, first, second);
  const CountedOnly counted = CountedOnly::read(second);
  EXPECT_EQ(counted.chunks, 13);
  EXPECT_EQ(counted.samples, 850);
  EXPECT_EQ(counted.games, 26);
}

// A pack whose chunks were all left out (each bigger than its size cap) holds games counted but no
// sample: they allow no training step (the trainer had drawn from an empty window), nor hold
// self-play back for a trainer behind its minimum reuse (which waits for self-play's games).
TEST(ReplayBuffer, GamesOnlyCountedAreNoSamplesToDraw) {
  const std::string dir = fresh_dir("replay-counted-only");
  CountedOnly{4, 2000, 8}.write(dir);
  RunConfig::Training config;
  config.min_samples = 100;
  config.batch_size = 10;
  ReplayBuffer buffer(config);
  buffer.refresh(dir);
  EXPECT_EQ(buffer.total_samples(), 2000);
  EXPECT_EQ(buffer.window(), 0);
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.steps_for_reuse(8.0, config), 0);
  write_chunk(dir + "/gen-0001-a.zst", 2, samples_tagged(50, 0));
  buffer.refresh(dir);
  EXPECT_FALSE(buffer.empty());
  EXPECT_EQ(buffer.steps_for_reuse(8.0, config), 2050 * 8 / 10);
}

TEST(ReplayBuffer, ADamagedTallyIsAnErrorNamingIt) {
  const std::string dir = fresh_dir("replay-bad-tally");
  std::ofstream(dir + "/" + CountedOnly::kFileName) << "chunks 3 samples -5 games 1\n";
  ReplayBuffer buffer(RunConfig::Training{});
  try {
    buffer.refresh(dir);
    FAIL() << "a negative count was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(CountedOnly::kFileName), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ataxx
