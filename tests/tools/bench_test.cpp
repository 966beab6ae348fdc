// The benchmarks through the real binary: each runs briefly and prints its figures. Their speed is
// read from those figures, never asserted; a crash, a missing figure or a left-over file fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "tests/tools/run_binary.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// The numbers that `pattern`'s groups catch in the output, or none when it does not match.
std::vector<double> figures(const std::string& output, const std::string& pattern) {
  std::smatch match;
  std::vector<double> numbers;
  if (!std::regex_search(output, match, std::regex(pattern))) return numbers;
  for (std::size_t i = 1; i < match.size(); ++i) numbers.push_back(std::stod(match[i]));
  return numbers;
}

// Depths the wrong way round printed the table's header alone and exited 0.
TEST(Bench, PerftRefusesDepthsTheWrongWayRound) {
  const Ran ran = run("bench perft --min-depth 5 --max-depth 2");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("--min-depth 5 is above --max-depth 2"), std::string::npos) << ran.output;
}

// A shallow depth took too little time for the clock: 0.000 seconds and billions of leaves a second.
TEST(Bench, PerftCountsAShallowDepthAgainUntilTheClockCanTimeIt) {
  const Ran ran = run("bench perft --min-depth 1 --max-depth 2");
  ASSERT_EQ(ran.status, 0) << ran.output;
  const auto depth1 = figures(ran.output, R"(\n +1 +16 +(\d+) +([\d.e+-]+) +(\d+)\n)");
  ASSERT_EQ(depth1.size(), 3U) << ran.output;
  EXPECT_GT(depth1[0], 1) << "one count of depth 1 timed alone: " << ran.output;
  EXPECT_NEAR(depth1[2], 16 / depth1[1], 0.01 * depth1[2]) << ran.output;  // leaves/s of one count's seconds
  EXPECT_EQ(figures(ran.output, R"(\n +2 +(256) )").size(), 1U) << ran.output;
}

TEST(Bench, TrainPrintsTheSamplesItTrainedPerSecond) {
  const Ran ran = run("bench train --blocks 1 --channels 8 --samples 500 --batch 32 --seconds 0.3");
  ASSERT_EQ(ran.status, 0) << ran.output;
  const auto f = figures(ran.output, R"((\d+) steps in [\d.]+ s: ([\d.]+) steps/s, (\d+) samples/s)");
  ASSERT_EQ(f.size(), 3U) << ran.output;
  EXPECT_GE(f[0], 10);  // the first call of 10 steps is a warm-up, then at least one timed call
  EXPECT_NEAR(f[2], f[1] * 32, 0.01 * f[2] + 1) << ran.output;  // samples are steps of the batch
}

// The engine without LibTorch, over pipes: each move's answer time and the nodes its info lines say.
TEST(Bench, UaiTimesAnEnginesAnswersAndReadsItsNodes) {
  const std::string engine = std::string("--engine ") + ATAXX_ENGINE_BINARY;
  const Ran ran = run("bench uai --moves 3 --movetime 30 --threads 1 " + engine);
  ASSERT_EQ(ran.status, 0) << ran.output;
  const auto f = figures(
      ran.output,
      R"(3 moves of go movetime 30: answered in min ([\d.]+) ms, median ([\d.]+) ms, max ([\d.]+) ms; (\d+) nodes/s)");
  ASSERT_EQ(f.size(), 4U) << ran.output;
  EXPECT_LE(f[0], f[1]);
  EXPECT_LE(f[1], f[2]);
  EXPECT_GT(f[3], 0) << ran.output;
}

// An engine that cannot search says so in an info string and plays some move: that is no speed.
TEST(Bench, UaiStopsAtAnEnginesErrorInsteadOfTimingIt) {
  const Ran ran = run(std::string("bench uai --moves 2 --movetime 20 --engine 'env ATAXX_MAX_CPU_ISA=bogus ") +
                      ATAXX_ENGINE_BINARY + "'");
  EXPECT_NE(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("error: ATAXX_MAX_CPU_ISA='bogus' is not a processor level"), std::string::npos)
      << ran.output;
  EXPECT_EQ(ran.output.find("nodes/s"), std::string::npos) << ran.output;
}

TEST(Bench, NnMeasuresTheRawForwardAndTheServerAtEachBatch) {
  const Ran ran = run("bench nn --blocks 1 --channels 8 --batches 4 16 --clients 2 --seconds 0.1");
  ASSERT_EQ(ran.status, 0) << ran.output;
  for (const std::string batch : {"4", "16"}) {
    const auto f = figures(ran.output, "\n +" + batch + R"( +(\d+) +(\d+) +(\d+) +[\d.]+% +([\d.]+))");
    ASSERT_EQ(f.size(), 4U) << "batch " << batch << "\n" << ran.output;
    for (int i = 0; i < 3; ++i) EXPECT_GT(f[i], 0) << ran.output;
    EXPECT_LE(f[3], std::stod(batch)) << ran.output;  // the server's mean batch fits its max_batch
  }
}

TEST(Bench, SelfPlayOnASimulatedDeviceLabelsItsFigures) {
  const Ran ran = run("bench selfplay --simulated --threads 1 --games 16 --max-batch 64 --seconds 0.5");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("SIMULATED"), std::string::npos) << ran.output;
  const auto evals = figures(ran.output, R"(self-play +(\d+))");
  ASSERT_EQ(evals.size(), 1U) << ran.output;
  EXPECT_GT(evals[0], 0);
  const auto batch = figures(ran.output, R"(mean batch ([\d.]+))");
  ASSERT_EQ(batch.size(), 1U) << ran.output;
  EXPECT_GT(batch[0], 0);
  EXPECT_LE(batch[0], 64);
}

// Before, a simulated device's costs without --simulated timed the real network, and a network's
// options beside --simulated were ignored, each under figures that did not say so.
TEST(Bench, SelfPlayRefusesOptionsOfTheDeviceItDoesNotRun) {
  const Ran costs = run("bench selfplay --sim-launch-us 5 --seconds 0.5");
  EXPECT_NE(costs.status, 0);
  EXPECT_NE(costs.output.find("--sim-launch-us requires --simulated"), std::string::npos) << costs.output;
  const Ran network = run("bench selfplay --simulated --int8 --seconds 0.5");
  EXPECT_NE(network.status, 0);
  EXPECT_NE(network.output.find("--int8 excludes --simulated"), std::string::npos) << network.output;
}

// A benchmark that fails after writing its scratch play file removes it all the same.
TEST(Bench, AFailedBenchmarkLeavesNoScratchFile) {
  const std::string temp = testing::TempDir() + "/bench-scratch";
  fs::remove_all(temp);
  fs::create_directories(temp);
  const Ran ran = run("bench nn --device cuda:99 --blocks 1 --channels 8 --batches 4 --seconds 0.1", temp);
  EXPECT_NE(ran.status, 0) << ran.output;
  EXPECT_TRUE(fs::is_empty(temp)) << fs::directory_iterator(temp)->path();
}

}  // namespace
}  // namespace ataxx
