#include "trainer/selfplay_loop.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>
#include <type_traits>

#include "match/openings.h"
#include "nn/inference_server.h"
#include "selfplay/recent_games.h"
#include "schataxx/game.h"
#include "util/clock.h"
#include "util/parallel.h"

namespace ataxx {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);
constexpr auto kLiveGameInterval = std::chrono::milliseconds(250);

// Ataxx's games start on each board of the run, Schataxx's in its variant; each from its start
// position or from its opening suite.
template <typename G>
std::vector<SelfPlayStart<G>> selfplay_starts(const RunConfig& config) {
  std::vector<SelfPlayStart<G>> starts;
  if constexpr (std::is_same_v<G, SchataxxGame>) {
    const schataxx::Variant variant = schataxx::parse_variant(config.run.game);
    starts.push_back({config.run.game, 1.0, schataxx::Position::startpos(variant), schataxx::opening_suite(variant)});
  } else {
    for (const BoardPlan& plan : board_plans(config))
      starts.push_back({std::string(plan.board->name), plan.share, Position::startpos(*plan.board),
                        board_openings(*plan.board, plan.openings)});
  }
  return starts;
}

// Every session plays other games: processes sharing a run must never repeat one another.
std::uint64_t session_seed(const RunConfig& config) {
  std::random_device entropy;
  return config.run.seed * 1000003 ^ (std::uint64_t{entropy()} << 32 | entropy());
}

std::string wait_for_first_model(const RunDirectory& dir, const SelfPlayLimits& limits, spdlog::logger& log) {
  bool told = false;
  while (!limits.stopped()) {
    if (const std::string best = dir.best(); !best.empty()) return best;
    if (!std::exchange(told, true)) log.info("self-play: waiting for the run's first model");
    std::this_thread::sleep_for(kPollInterval);
  }
  return "";
}

}  // namespace

int busy_inference_threads(const RunConfig& config) {
  const auto& s = config.selfplay;
  const std::int64_t in_flight = std::int64_t{s.threads} * s.concurrent_games * s.leaves_per_round;
  const std::int64_t batches = (in_flight + config.inference.max_batch - 1) / config.inference.max_batch;
  return static_cast<int>(std::min<std::int64_t>(batches, config.inference.threads));
}

template <typename G>
SelfPlaySession play_selfplay_of(const RunConfig& config, const RunDirectory& dir, const SelfPlayLimits& limits,
                                 spdlog::logger& log) {
  SelfPlaySession session;
  std::string best = wait_for_first_model(dir, limits, log);
  if (best.empty()) return session;
  BasicInferenceServer<G> server(dir.model_path(best), config.inference);
  log.info("self-play: playing with {} ({} on {})", best, to_string(precision_of(config.inference)),
           config.inference.device);
  if (const int busy = busy_inference_threads(config); busy < config.inference.threads)
    log.warn("self-play: its positions in flight fill {} batch(es) of inference.max_batch {}, so only {} of the {} "
             "inference threads work: lower max_batch or raise selfplay.concurrent_games",
             busy, config.inference.max_batch, busy, config.inference.threads);

  std::atomic<bool> halt{false};   // set by the watcher: the workers' stop flag
  std::atomic<std::int64_t> games_written{0};
  std::mutex write_mutex;          // chunk numbers, the progress line and the recent games
  RecentGames recent;
  const auto start = SteadyClock::now();
  const double run_minutes_at_start = dir.elapsed_minutes();
  auto write = [&](BasicSelfPlayBatch<G>&& batch) {
    std::lock_guard lock(write_mutex);
    write_chunk(dir.new_chunk_path(server.model_name()), batch.games, batch.samples);
    ++session.chunks;
    const std::int64_t games = games_written += batch.games;
    const double elapsed = seconds_since(start);
    const InferenceStats stats = server.stats();
    const bool turning_to_draws = recent.add(batch.games, batch.plies, batch.draws);
    log.info("  self-play: {} games ({:.2f}/s), {:.0f} evals/s, mean batch {:.0f}, device busy {:.0f}%; the last {}: "
             "{:.0f} plies a game, {:.0f}% draws",
             games, games / elapsed, stats.positions / elapsed, stats.mean_batch(), 100 * stats.busy_share(),
             recent.games(), recent.plies_per_game(), 100 * recent.draw_share());
    if (turning_to_draws)
      log.warn("self-play: {:.0f}% of the last {} games were draws ({:.0f} plies a game): a run whose self-play turned "
               "to draws this way did not recover (docs/experiments.md, the A/A at one seed)",
               100 * recent.draw_share(), recent.games(), recent.plies_per_game());
    dir.record_selfplay({run_minutes_at_start + elapsed / 60, games, games / elapsed, stats.positions / elapsed,
                         recent.plies_per_game(), recent.draw_share()});
  };
  // The first worker's game, for `serve`, a few times a second and when it ends. The view is not
  // worth a run: a failure to write it is told once and the games go on.
  auto last_published = start - kLiveGameInterval;
  bool publish_failed = false;
  auto publish = [&](const typename G::Game& game) {
    if (publish_failed || (SteadyClock::now() - last_published < kLiveGameInterval && !game.outcome().is_over())) return;
    last_published = SteadyClock::now();
    std::string moves;
    for (const auto& move : game.moves()) moves += G::move_text(move, game.start()) + ' ';
    try {
      const std::string variant = G::pgn_variant(game.start());  // Schataxx's, which its FEN does not say
      dir.write_live_game(variant.empty() ? G::kName : variant, game.start().fen(), server.model_name(), moves);
    } catch (const std::exception& e) {
      publish_failed = true;
      log.warn("self-play: cannot publish the live game ({}); self-play goes on", e.what());
    }
  };
  // The watcher follows the run's best model and tells the workers when to stop.
  auto watch = [&] {
    while (!halt) {
      if (limits.stopped() || (limits.games > 0 && games_written >= limits.games)) {
        halt = true;
        break;
      }
      if (const std::string now = dir.best(); !now.empty() && now != best) {
        server.load(dir.model_path(now));
        best = now;
        log.info("self-play: now playing with {}", best);
      }
      std::this_thread::sleep_for(kPollInterval);
    }
  };
  run_in_parallel(
      2,
      [&](int task) {
        if (task == 1) return watch();
        session.stats = play_selfplay_games<G>(config, selfplay_starts<G>(config), session_seed(config), server,
                                               std::numeric_limits<int>::max(), halt, write, publish);
        halt = true;
      },
      [&] { halt = true; });
  session.seconds = seconds_since(start);
  session.evals_per_second = server.stats().positions / session.seconds;
  return session;
}

SelfPlaySession play_selfplay(const RunConfig& config, const RunDirectory& dir, const SelfPlayLimits& limits,
                              spdlog::logger& log) {
  return plays_schataxx(config) ? play_selfplay_of<SchataxxGame>(config, dir, limits, log)
                                : play_selfplay_of<AtaxxGame>(config, dir, limits, log);
}

}  // namespace ataxx
