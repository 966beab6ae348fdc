// Self-play beside training: workers play with the run's best model, and when another model is
// promoted the inference server switches to it between two batches, games in progress going on
// with the new one; they pause only while the trainer holds them (training.min_sample_reuse).
// Finished games go to the run's games/ folder, a chunk at a time. Used by `train` (beside the
// trainer and gating) and by any number of `selfplay` processes sharing the run directory.
#pragma once

#include <spdlog/logger.h>

#include <atomic>
#include <cstdint>
#include <functional>

#include "config/run_config.h"
#include "selfplay/selfplay_worker.h"
#include "trainer/run_directory.h"

namespace ataxx {

struct SelfPlayLimits {
  std::function<bool()> stopped;  // polled a few times a second
  std::int64_t games = 0;         // stop once this many games are written (0: no limit)
  // While this says so, each worker waits before its next batch (training is behind); none: never.
  std::function<bool()> hold = {};
};

struct SelfPlaySession {
  SelfPlayStats stats;
  int chunks = 0;
  double seconds = 0;
  double evals_per_second = 0;
  double held_share = 0;  // of the workers' time, the share they waited for training
};

// How many of the inference server's threads self-play keeps busy: its positions in flight (worker
// threads x concurrent games x leaves per round) fill that many batches of inference.max_batch.
int busy_inference_threads(const RunConfig& config);

// Plays until limits say stop, then writes the games already finished (those in progress are
// dropped). Waits for the run's first model when it has none yet.
template <typename G>
SelfPlaySession play_selfplay(const RunConfig& config, const RunDirectory& dir, const SelfPlayLimits& limits,
                              spdlog::logger& log);

}  // namespace ataxx
