#include "trainer/weight_average.h"

#include <filesystem>
#include <random>
#include <stdexcept>
#include <vector>

#include "nn/model_file.h"
#include "trainer/batch.h"
#include "trainer/replay_buffer.h"
#include "trainer/run_directory.h"

namespace ataxx {
namespace {

namespace fs = std::filesystem;

// The newest `count` play files of the run, oldest first.
std::vector<std::string> newest_models(const RunDirectory& dir, int count) {
  std::vector<std::string> paths;
  const auto newest = dir.newest_model();
  for (int g = newest.value_or(-1); g >= 0 && static_cast<int>(paths.size()) < count; --g)
    if (fs::exists(dir.model_path(g))) paths.insert(paths.begin(), dir.model_path(g));
  if (paths.empty()) throw std::runtime_error("run '" + dir.root() + "' has no models to average");
  return paths;
}

// The mean of the models' weights (their batch-norm statistics are left to be measured).
AtaxxNet mean_weights(const std::vector<std::string>& paths, ModelInfo& info) {
  AtaxxNet mean = load_play_file(paths.front(), &info);
  torch::NoGradGuard no_grad;
  for (std::size_t i = 1; i < paths.size(); ++i) {
    ModelInfo other;
    AtaxxNet net = load_play_file(paths[i], &other);
    if (other.shape.blocks != info.shape.blocks || other.shape.channels != info.shape.channels || other.game != info.game)
      throw std::runtime_error("model '" + paths[i] + "' is another network than '" + paths.front() + "': not averaged");
    const auto from = net->parameters();
    auto into = mean->parameters();
    for (std::size_t p = 0; p < into.size(); ++p) into[p].add_(from[p]);
  }
  for (auto& p : mean->parameters()) p.div_(static_cast<double>(paths.size()));
  return mean;
}

// Every batch norm's running statistics, reset and then averaged over the batches alike
// (momentum none), in training mode; the momenta are put back afterwards.
template <typename G>
std::int64_t measure_batch_norms(AtaxxNet& net, const RunConfig& config, const RunDirectory& dir,
                                 const WeightAverageOptions& options) {
  BasicReplayBuffer<G> buffer = run_replay_buffer<G>(config);
  buffer.refresh(dir.games_dir());
  if (buffer.empty()) throw std::runtime_error("run '" + dir.root() + "' holds no games to measure batch norms on");
  std::vector<std::pair<torch::nn::BatchNorm2dImpl*, c10::optional<double>>> norms;
  for (const auto& module : net->modules(false))
    if (auto* norm = module->as<torch::nn::BatchNorm2d>()) {
      norms.emplace_back(norm, norm->options.momentum());
      norm->reset_running_stats();
      norm->options.momentum(c10::nullopt);
    }
  std::mt19937_64 rng(options.seed);
  torch::NoGradGuard no_grad;
  net->train();
  for (int b = 0; b < options.calibration_batches; ++b)
    net->forward(sample_batch<G>(buffer.encoder(), buffer, options.batch_size, 0.0f, rng).input);
  net->eval();
  for (auto& [norm, momentum] : norms) norm->options.momentum(momentum);
  return static_cast<std::int64_t>(options.calibration_batches) * options.batch_size;
}

}  // namespace

WeightAverageReport export_weight_average(const WeightAverageOptions& options, const std::string& out,
                                          const std::string& name) {
  if (options.models < 1 || options.calibration_batches < 1 || options.batch_size < 1)
    throw std::invalid_argument("weight average: models, calibration batches and batch size must be at least 1");
  if (!RunDirectory::holds_run(options.run_dir))
    throw std::runtime_error("'" + options.run_dir + "' is not a run directory (no config.yaml)");
  const RunDirectory dir(options.run_dir);
  const RunConfig config = load_run_config(dir.config_path());
  const std::vector<std::string> paths = newest_models(dir, options.models);
  ModelInfo info;
  AtaxxNet net = mean_weights(paths, info);
  WeightAverageReport report{static_cast<int>(paths.size()), paths.front(), paths.back(), 0};
  report.calibration_samples =
      with_game(config.run.game, [&]<typename G>() { return measure_batch_norms<G>(net, config, dir, options); });
  info.name = name;
  info.parent = "mean of " + std::to_string(paths.size()) + " models, " + paths.front() + " .. " + paths.back();
  save_play_file(out, net, info);
  return report;
}

}  // namespace ataxx
