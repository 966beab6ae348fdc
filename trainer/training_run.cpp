#include "trainer/training_run_impl.h"

namespace ataxx {

TrainingSummary run_training(const std::string& config_path, const std::string& run_dir,
                             std::optional<std::uint64_t> seed, const std::atomic<bool>& stop) {
  return run_training_of<Games>(config_path, run_dir, seed, stop);
}

namespace {

// The run's config with this machine's own settings; the rest (the search, the targets) stays the run's.
RunConfig with_machine_overrides(const RunConfig& config, const std::vector<std::string>& overrides) {
  std::set<std::string> keys;
  for (const std::string& line : overrides) {
    const std::size_t equals = line.find('=');
    if (equals == std::string::npos || line.find('.') > equals) continue;  // with_overrides names its form
    const std::string key = line.substr(0, equals);
    if (!key.starts_with("inference.") && key != "selfplay.threads" && key != "selfplay.concurrent_games")
      throw std::runtime_error("--set " + key +
                               ": a self-play process sets only its machine's keys (selfplay.threads, "
                               "selfplay.concurrent_games, inference.*); the rest is the run's config");
    keys.insert(key);
  }
  RunConfig machine = with_overrides(config, overrides);
  // A machine that its own device takes off CUDA leaves the run's CUDA graphs, unless it sets them.
  if (keys.contains("inference.device") && !machine.inference.device.starts_with("cuda") &&
      !keys.contains("inference.cuda_graphs"))
    machine.inference.cuda_graphs = false;
  settle_int8_auto(machine);
  return machine;
}

}  // namespace

std::int64_t run_selfplay(const std::string& run_dir, std::int64_t games,
                          const std::vector<std::string>& machine_overrides, const std::atomic<bool>& stop) {
  require_a_run(run_dir);
  RunDirectory dir(run_dir);
  std::string yaml;
  const RunConfig config =
      with_machine_overrides(open_config(dir, "", std::nullopt, RunGames::of(), &yaml), machine_overrides);
  auto log = make_logger(dir);
  const SelfPlaySession session = with_game(config.run.game, [&]<typename G>() {
    return play_selfplay<G>(config, dir, {.stopped = [&] { return stop.load(); }, .games = games}, *log);
  });
  log_selfplay_session(session, *log);
  return session.stats.games;
}

}  // namespace ataxx
