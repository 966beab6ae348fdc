// `export --average`: the mean of a run's newest models, batch norms measured on its games.
#include "trainer/weight_average.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "match/openings.h"
#include "nn/model_file.h"
#include "selfplay/training_data.h"
#include "tests/test_paths.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// A run of tiny.yaml with one chunk of opening positions and models gen-0000 .. gen-(models - 1),
// each a net of its own random weights.
std::string run_with_models(const std::string& name, int models, ModelShape shape = {1, 16}) {
  const std::string run = temp_path(name);
  fs::remove_all(run);
  fs::create_directories(run + "/games");
  fs::create_directories(run + "/models");
  fs::copy_file(kTinyConfig, run + "/config.yaml");
  std::vector<TrainingSample> samples;
  for (const Position& pos : default_openings()) {
    TrainingSample sample;
    sample.position = pos;
    sample.result = 1;
    samples.push_back(sample);
  }
  write_chunk(run + "/games/gen-0000-a.zst", 1, samples);
  for (int g = 0; g < models; ++g) {
    torch::manual_seed(g);
    AtaxxNet net(shape);
    save_play_file(run + "/models/gen-000" + std::to_string(g) + ".net", net, ModelInfo{});
  }
  return run;
}

TEST(WeightAverage, IsTheMeanOfTheNewestModelsWeightsWithBatchNormsMeasuredOnTheRunsGames) {
  const std::string run = run_with_models("average", 3);
  const WeightAverageOptions options{.run_dir = run, .models = 2, .calibration_batches = 4, .batch_size = 32};
  const WeightAverageReport report = export_weight_average(options, run + "/mean.net", "mean");
  EXPECT_EQ(report.models, 2);
  EXPECT_EQ(report.first, run + "/models/gen-0001.net");  // gen-0000 is older than the newest 2
  EXPECT_EQ(report.last, run + "/models/gen-0002.net");
  EXPECT_EQ(report.calibration_samples, 128);

  AtaxxNet mean = load_play_file(run + "/mean.net"), a = load_play_file(report.first), b = load_play_file(report.last);
  const auto m = mean->named_parameters(), pa = a->named_parameters(), pb = b->named_parameters();
  ASSERT_EQ(m.size(), pa.size());
  for (std::size_t i = 0; i < m.size(); ++i)
    EXPECT_TRUE(torch::allclose(m[i].value(), (pa[i].value() + pb[i].value()) / 2, 1e-6, 1e-6)) << m[i].key();
  // A fresh net's statistics are zero means and unit variances; measured ones are not.
  int norms = 0;
  for (const auto& buffer : mean->named_buffers()) {
    if (buffer.key().ends_with("running_mean")) {
      ++norms;
      EXPECT_GT(buffer.value().abs().max().item<float>(), 1e-3f) << buffer.key();
    }
    if (buffer.key().ends_with("num_batches_tracked")) {
      EXPECT_EQ(buffer.value().item<std::int64_t>(), 4) << buffer.key();
    }
  }
  EXPECT_GE(norms, 4);
}

TEST(WeightAverage, RefusesAFolderThatIsNoRunARunWithoutModelsAndModelsOfTwoShapes) {
  const std::string out = testing::TempDir() + "/not-averaged.net";
  fs::remove(out);
  EXPECT_THROW(export_weight_average({.run_dir = testing::TempDir() + "/no-such-run"}, out, "x"), std::runtime_error);
  const std::string empty = run_with_models("no-models", 0);
  EXPECT_THROW(export_weight_average({.run_dir = empty}, out, "x"), std::runtime_error);
  const std::string mixed = run_with_models("two-shapes", 2);
  torch::manual_seed(9);
  AtaxxNet wider(ModelShape{1, 32});
  save_play_file(mixed + "/models/gen-0002.net", wider, ModelInfo{});
  try {
    export_weight_average({.run_dir = mixed, .models = 3}, out, "x");
    FAIL() << "models of two shapes were averaged";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is another network"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace ataxx
