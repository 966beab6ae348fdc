// A training run over a run directory, as the strongest pipelines run it: self-play plays with
// the best model without pause, the trainer trains on the replay window whenever the reuse cap
// allows and exports a candidate every training.steps_per_candidate steps, and gating decides
// each candidate (and the ladder rates each new best) beside them — until run.max_generations
// candidates are decided or the run's time budget ends.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace ataxx {

struct TrainingSummary {
  std::string game;  // run.game
  std::string best_model_path;
  int generations = 0;
  std::string ratings_table;
};

// Starts a run in run_dir from config_path, or carries one on when run_dir holds one (then
// config_path may be empty; if given, it must match the run's config). seed, where given, is a
// new run's run.seed in place of the config's (replicates of one config); a run carried on must
// have it already. stop ends it early.
TrainingSummary run_training(const std::string& config_path, const std::string& run_dir,
                             std::optional<std::uint64_t> seed, const std::atomic<bool>& stop);
// The same for the games of List (a GameList, games/registry.h): a caller's own game, as the tests'
// tic-tac-toe. Defined in training_run_impl.h.
template <typename List>
TrainingSummary run_training_of(const std::string& config_path, const std::string& run_dir,
                                std::optional<std::uint64_t> seed, const std::atomic<bool>& stop);

// Self-play only, for more processes sharing the run directory (on this or other machines):
// plays with whatever model is best until stop is set or `games` games are written (0: no
// limit), with `machine_overrides` (`key=value`: selfplay.threads, selfplay.concurrent_games and
// inference.*, what this machine may set otherwise than the run's config). Returns the number of
// games written.
std::int64_t run_selfplay(const std::string& run_dir, std::int64_t games,
                          const std::vector<std::string>& machine_overrides, const std::atomic<bool>& stop);

}  // namespace ataxx
