// `pack` on run folders made by hand: what it refuses, and a window larger than the size allowed.
#include "trainer/run_pack.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config/run_config.h"
#include "tests/test_paths.h"
#include "util/file_lock.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// A run of tiny.yaml whose games/ holds `chunks` chunks of 100 samples, two games each.
std::string run_with_chunks(const std::string& name, int chunks) {
  const std::string run = temp_path(name);
  fs::remove_all(run);
  fs::remove_all(run + "-pack");
  fs::create_directories(run + "/games");
  fs::copy_file(kTinyConfig, run + "/config.yaml");
  std::ofstream(run + "/log.txt") << "a session\n";
  for (int c = 0; c < chunks; ++c)
    write_chunk(run + "/games/gen-" + std::to_string(1000 + c) + "-a.zst", 2, std::vector<TrainingSample>(100));
  return run;
}

TEST(PackRun, RefusesAFolderWithoutARunAnExistingTargetAFolderInsideAndARunInUse) {
  const std::string run = run_with_chunks("pack-refusals", 2);
  EXPECT_THROW(pack_run(run + "/games", run + "-pack", INT64_MAX), std::runtime_error);
  fs::create_directories(run + "-pack");
  EXPECT_THROW(pack_run(run, run + "-pack", INT64_MAX), std::runtime_error);
  fs::remove(run + "-pack");
  {
    const FileLock train(run + "/train.lock", "a train process");
    EXPECT_THROW(pack_run(run, run + "-pack", INT64_MAX), std::runtime_error);
  }
  EXPECT_FALSE(fs::exists(run + "-pack"));
  EXPECT_THROW(pack_run(run, run + "/games/pack", INT64_MAX), std::runtime_error);  // had packed the run into itself
  EXPECT_FALSE(fs::exists(run + "/games/pack"));
  EXPECT_EQ(pack_run(run + "/", run + "-pack/", INT64_MAX).window_chunks, 2) << "trailing slashes";
  EXPECT_TRUE(fs::exists(run + "-pack/games/gen-1001-a.zst"));
  EXPECT_FALSE(fs::exists(run + "-pack/train.lock"));
}

// A pack works in INTO.partial: one a stopped pack left is its own to remove, any other folder
// there (the user's) is not.
TEST(PackRun, ReplacesAStoppedPacksPartialFolderAndNoOther) {
  const std::string run = run_with_chunks("pack-partial", 2);
  const std::string partial = run + "-pack.partial";
  fs::create_directories(partial);
  std::ofstream(partial + "/mine.txt") << "the user's\n";
  EXPECT_THROW(pack_run(run, run + "-pack", INT64_MAX), std::runtime_error);
  EXPECT_TRUE(fs::exists(partial + "/mine.txt"));
  fs::remove_all(partial);

  ASSERT_EQ(pack_run(run, run + "-pack", INT64_MAX).window_chunks, 2);
  EXPECT_FALSE(fs::exists(run + "-pack/PACK-IN-PROGRESS")) << "a whole pack carries no mark";
  fs::rename(run + "-pack", partial);  // as a pack stopped before its rename leaves it
  std::ofstream(partial + "/PACK-IN-PROGRESS") << "\n";
  EXPECT_EQ(pack_run(run, run + "-pack", INT64_MAX).window_chunks, 2);
  EXPECT_FALSE(fs::exists(partial));
}

TEST(PackRun, LeavesTheWindowsOldestChunksBehindToFitAndSaysHowManySamples) {
  const int chunks = 20;
  const std::string run = run_with_chunks("pack-too-big", chunks);
  const PackReport whole = pack_run(run, run + "-pack", INT64_MAX);
  EXPECT_GT(whole.window, 500) << "tiny.yaml's min_window, grown with 2,000 samples";
  EXPECT_LT(whole.window, 1000);
  EXPECT_EQ(whole.window_chunks, (whole.window + 99) / 100);
  EXPECT_EQ(whole.window_samples_lost, 0);
  EXPECT_EQ(whole.counted_only.chunks, chunks - whole.window_chunks);
  EXPECT_EQ(whole.counted_only.samples, 100 * (chunks - whole.window_chunks));
  EXPECT_EQ(whole.counted_only.games, 2 * (chunks - whole.window_chunks));
  const std::int64_t chunk_bytes = fs::file_size(run + "/games/gen-1000-a.zst");
  const std::int64_t allowed = whole.bytes - chunk_bytes * 5 / 2;  // two and a half chunks fewer
  fs::remove_all(run + "-pack");
  const PackReport cut = pack_run(run, run + "-pack", allowed);
  EXPECT_LT(cut.window_chunks, whole.window_chunks - 1);
  EXPECT_GT(cut.window_chunks, whole.window_chunks - 5);
  EXPECT_EQ(cut.window_samples_lost, whole.window - 100 * cut.window_chunks);
  EXPECT_EQ(cut.counted_only.chunks, chunks - cut.window_chunks);
  EXPECT_LE(cut.bytes, allowed);
  EXPECT_EQ(cut.bytes, static_cast<std::int64_t>([&] {
              std::uintmax_t bytes = 0;
              for (const auto& e : fs::recursive_directory_iterator(run + "-pack")) bytes += e.is_regular_file() ? e.file_size() : 0;
              return bytes;
            }()));
  fs::remove_all(run + "-pack");
  EXPECT_THROW(pack_run(run, run + "-pack", 10), std::runtime_error) << "the state alone does not fit";
  EXPECT_FALSE(fs::exists(run + "-pack"));
}

}  // namespace
}  // namespace ataxx
