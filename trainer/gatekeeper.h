// Gating and the ladder of a run: each candidate plays the best model and is promoted on its
// result; each promoted model plays the ladder's fixed baselines once; every result feeds the
// ratings table. Runs beside self-play and training, never in their way.
#pragma once

#include <spdlog/logger.h>

#include <functional>
#include <string>

#include "config/run_config.h"
#include "trainer/run_directory.h"

namespace ataxx {

// The player spec of a run's model in gating and ladder matches: the run's inference device
// and server settings, `visits` per move.
std::string network_player_spec(const RunConfig& config, const std::string& model_path, int visits);

// Gates the newest candidate whenever it has no verdict yet (older ones without a verdict are
// passed over), and plays the ladder of each new best model. Returns once the run's last
// candidate (run.max_generations) is decided, or when stopped() says so.
void gate_continuously(const RunConfig& config, const RunDirectory& dir, const std::function<bool()>& stopped,
                       spdlog::logger& log);

// Throws std::invalid_argument naming the baseline when a spec of the ladder cannot be made into a
// player (a model file not found from where the run started, say): at the run's start rather than
// at its first ladder. Nothing to check when the ladder plays no games.
void check_ladder_baselines(const RunConfig& config);

// The ratings of every model and baseline from all rated games so far; also written to ratings.csv.
std::string ratings_table(const RunDirectory& dir);

}  // namespace ataxx
