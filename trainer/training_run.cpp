#include "trainer/training_run_impl.h"

namespace ataxx {

TrainingSummary run_training(const std::string& config_path, const std::string& run_dir,
                             std::optional<std::uint64_t> seed, const std::atomic<bool>& stop) {
  return run_training_of<Games>(config_path, run_dir, seed, stop);
}

std::int64_t run_selfplay(const std::string& run_dir, std::int64_t games, const std::atomic<bool>& stop) {
  require_a_run(run_dir);
  RunDirectory dir(run_dir);
  std::string yaml;
  const RunConfig config = open_config(dir, "", std::nullopt, RunGames::of(), &yaml);
  auto log = make_logger(dir);
  const SelfPlaySession session = with_game(config.run.game, [&]<typename G>() {
    return play_selfplay<G>(config, dir, {.stopped = [&] { return stop.load(); }, .games = games}, *log);
  });
  log_selfplay_session(session, *log);
  return session.stats.games;
}

}  // namespace ataxx
