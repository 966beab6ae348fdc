// The newest training samples, in a window that grows with the data (KataGo's power law):
// window = min_window * (1 + b * ((total / min_window)^a - 1) / a), capped at max_window, with
// a the window exponent and b = 0.4. Chunks are loaded once and kept in memory.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "selfplay/training_data.h"

namespace ataxx {

class ReplayBuffer {
 public:
  struct Refresh {
    std::int64_t samples = 0;           // added
    std::int64_t games = 0;             // in the chunks added
    std::vector<std::string> skipped;   // why each damaged chunk was left out
  };

  explicit ReplayBuffer(const RunConfig::Training& config) : config_(config) {}
  // Loads every chunk in games_dir not loaded yet, oldest name first. A chunk that fails its
  // checks is skipped (and not tried again); the run goes on without it.
  Refresh refresh(const std::string& games_dir);
  std::int64_t skipped_chunks() const { return skipped_; }
  std::int64_t total_samples() const { return total_; }
  std::int64_t total_games() const { return games_; }
  std::int64_t window() const;
  bool empty() const { return total_ == 0; }
  // A sample drawn uniformly from the window.
  const TrainingSample& sample(std::mt19937_64& rng) const;

 private:
  RunConfig::Training config_;
  std::deque<std::vector<TrainingSample>> chunks_;  // newest last; old ones dropped past max_window
  std::vector<std::string> loaded_;                 // names already read, sorted
  std::int64_t total_ = 0;                          // samples ever added
  std::int64_t games_ = 0;                          // games ever added
  std::int64_t held_ = 0;                           // samples in chunks_
  std::int64_t skipped_ = 0;                        // damaged chunks left out
};

}  // namespace ataxx
