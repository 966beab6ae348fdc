// Stochastic weight averaging (Izmailov et al. 2018; KataGo ships averaged nets): one play file
// holding the mean of the weights of a run's newest models, its batch-norm statistics measured
// afresh on the run's replay window. The mean of each model's statistics is not what the mean
// weights' activations have, and a batch norm folded for play would scale by the wrong ones.
#pragma once

#include <cstdint>
#include <string>

namespace ataxx {

struct WeightAverageOptions {
  std::string run_dir;
  int models = 100;               // the newest play files of run_dir/models
  int calibration_batches = 200;  // batches from the replay window that measure the statistics
  int batch_size = 256;
  std::uint64_t seed = 1;
};

struct WeightAverageReport {
  int models = 0;
  std::string first, last;  // the oldest and newest model averaged
  std::int64_t calibration_samples = 0;
};

// Writes the play file `out`, named `name`. Throws std::runtime_error for a folder that is no
// run, one without models or games, or models of different shapes.
WeightAverageReport export_weight_average(const WeightAverageOptions& options, const std::string& out,
                                          const std::string& name);

}  // namespace ataxx
