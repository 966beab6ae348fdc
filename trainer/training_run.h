// The AlphaZero loop over a run directory: self-play with the best model, training on the
// replay window, gating the candidate against the best, a ladder against fixed baselines, and
// a ratings table of everything, generation after generation, until the config's budget ends.
#pragma once

#include <atomic>
#include <string>

#include "config/run_config.h"

namespace ataxx {

struct TrainingSummary {
  std::string best_model_path;
  int generations = 0;
  std::string ratings_table;
};

// Starts a run in run_dir from config_path, or carries one on when run_dir holds one (then
// config_path may be empty; if given, it must match the run's config). stop ends it early.
TrainingSummary run_training(const std::string& config_path, const std::string& run_dir,
                             const std::atomic<bool>& stop);

// The player spec of a run's model in gating and ladder matches: the run's inference device
// and server settings, `visits` per move.
std::string network_player_spec(const RunConfig& config, const std::string& model_path, int visits);

// Self-play only, for more workers sharing the run directory: plays rounds with whatever model
// is best, until stop is set or `rounds` rounds were played (0: until stopped).
void run_selfplay(const std::string& run_dir, int rounds, const std::atomic<bool>& stop);

}  // namespace ataxx
