// Self-play: one worker thread plays many games at once, one search tree per game, all trees'
// leaves going to the evaluator in shared batches. Full searches (with root noise) give policy
// targets; fast searches only choose the move (playout cap randomisation, as in KataGo).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "mcts/evaluator.h"
#include "selfplay/run_config.h"
#include "selfplay/training_data.h"

namespace ataxx {

struct SelfPlayStats {
  int games = 0;
  int plies = 0;
  int resigned = 0;
  int no_resign_games = 0;
  int would_resign = 0;          // no-resign games where a side fell below the threshold
  int false_resignations = 0;    // ... and that side did not lose
  std::uint64_t simulations = 0;
  void add(const SelfPlayStats& other);
  double false_resignation_rate() const { return would_resign ? double(false_resignations) / would_resign : 0.0; }
};

struct SelfPlayBatch {
  int games = 0;
  std::vector<TrainingSample> samples;
};

class SelfPlayWorker {
 public:
  SelfPlayWorker(const RunConfig& config, std::vector<Position> openings, std::uint64_t seed);
  // Plays until `games_left` (shared by all workers) runs out or `stop` is set; every
  // games_per_chunk finished games (and at the end) hands a batch to `emit`.
  SelfPlayStats run(Evaluator& evaluator, std::atomic<int>& games_left, const std::atomic<bool>& stop,
                    const std::function<void(SelfPlayBatch&&)>& emit);

 private:
  RunConfig config_;
  std::vector<Position> openings_;
  std::uint64_t seed_;
};

}  // namespace ataxx
