// The template definitions of trainer/selfplay_loop.h: included by selfplay_loop.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "trainer/selfplay_loop.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <type_traits>

#include "match/openings.h"
#include "nn/inference_server.h"
#include "selfplay/recent_games.h"
#include "util/clock.h"
#include "util/parallel.h"

namespace ataxx {
namespace {

constexpr auto kLiveGameInterval = std::chrono::milliseconds(250);

// The games start on each board of the run (or in its variant), from its start position or from
// its opening suite.
template <typename G>
std::vector<SelfPlayStart<G>> selfplay_starts(const RunConfig& config) {
  std::vector<SelfPlayStart<G>> starts;
  for (const StartPlan& plan : start_plans<G>(config))
    starts.push_back({plan.name, plan.share, G::start_of(plan.name), G::openings_of(plan.name, plan.openings)});
  return starts;
}

// Every session plays other games: processes sharing a run must never repeat one another.
std::uint64_t session_seed(const RunConfig& config) {
  std::random_device entropy;
  return config.run.seed * 1000003 ^ (std::uint64_t{entropy()} << 32 | entropy());
}

// Self-play's evaluator where training may hold it: a batch waits while `hold` says so (or until
// the session halts), and with it the worker that sent it.
template <typename G>
class HeldEvaluator final : public BasicEvaluator<G> {
 public:
  HeldEvaluator(BasicEvaluator<G>& inner, std::function<bool()> hold, const std::atomic<bool>& halt)
      : inner_(inner), hold_(std::move(hold)), halt_(halt) {}

  void evaluate(std::span<const BasicEvalRequest<G>> batch) override {
    if (hold_ && hold_()) {
      const SteadyClock::time_point since = SteadyClock::now();
      while (hold_() && !halt_) std::this_thread::sleep_for(kHoldPollInterval);
      held_microseconds_ += std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - since).count();
    }
    inner_.evaluate(batch);
  }
  std::string model_name() const override { return inner_.model_name(); }
  double held_seconds() const { return held_microseconds_ * 1e-6; }  // summed over the workers

 private:
  static constexpr auto kHoldPollInterval = std::chrono::milliseconds(5);
  BasicEvaluator<G>& inner_;
  const std::function<bool()> hold_;
  const std::atomic<bool>& halt_;
  std::atomic<std::int64_t> held_microseconds_{0};
};

std::string wait_for_first_model(const RunDirectory& dir, const SelfPlayLimits& limits, spdlog::logger& log) {
  bool told = false;
  while (!limits.stopped()) {
    if (const std::string best = dir.best(); !best.empty()) return best;
    if (!std::exchange(told, true)) log.info("self-play: waiting for the run's first model");
    std::this_thread::sleep_for(kRunPollInterval);
  }
  return "";
}

// Writes each batch of finished games as a chunk of the run, logs self-play's progress and
// records it in the run's CSV. Called from any worker.
template <typename G>
class ChunkWriter {
 public:
  ChunkWriter(const RunDirectory& dir, const BasicInferenceServer<G>& server, spdlog::logger& log,
              SelfPlaySession& session)
      : dir_(dir), server_(server), log_(log), session_(session), run_minutes_at_start_(dir.elapsed_minutes()) {}

  void operator()(BasicSelfPlayBatch<G>&& batch) {
    std::lock_guard lock(mutex_);
    write_chunk(dir_.new_chunk_path(server_.model_name()), batch.games, batch.samples);
    ++session_.chunks;
    const std::int64_t games = games_ += batch.games;
    const double elapsed = seconds();
    const InferenceStats stats = server_.stats();
    const bool turning_to_draws = recent_.add(batch.games, batch.plies, batch.draws);
    log_.info(
        "  self-play: {} games ({:.2f}/s), {:.0f} evals/s, mean batch {:.0f}, device busy {:.0f}%; the last {}: "
        "{:.0f} plies a game, {:.0f}% draws",
        games, games / elapsed, stats.positions / elapsed, stats.mean_batch(), 100 * stats.busy_share(),
        recent_.games(), recent_.plies_per_game(), 100 * recent_.draw_share());
    if (turning_to_draws)
      log_.warn(
          "self-play: {:.0f}% of the last {} games were draws ({:.0f} plies a game): a run whose self-play turned "
          "to draws this way did not recover (docs/experiments.md, the A/A at one seed)",
          100 * recent_.draw_share(), recent_.games(), recent_.plies_per_game());
    dir_.record_selfplay({run_minutes_at_start_ + elapsed / 60, games, games / elapsed, stats.positions / elapsed,
                          recent_.plies_per_game(), recent_.draw_share()});
  }

  std::int64_t games() const { return games_; }             // written so far
  double seconds() const { return seconds_since(start_); }  // since self-play began

 private:
  const RunDirectory& dir_;
  const BasicInferenceServer<G>& server_;
  spdlog::logger& log_;
  SelfPlaySession& session_;
  const double run_minutes_at_start_;
  const SteadyClock::time_point start_ = SteadyClock::now();
  std::atomic<std::int64_t> games_{0};
  std::mutex mutex_;  // chunk numbers, the progress line and the recent games
  RecentGames recent_;
};

// The first worker's game, for `serve`, a few times a second and when it ends. The view is not
// worth a run: a failure to write it is told once and the games go on.
template <typename G>
class LiveGamePublisher {
 public:
  LiveGamePublisher(const RunDirectory& dir, const BasicInferenceServer<G>& server, spdlog::logger& log)
      : dir_(dir), server_(server), log_(log) {}

  void operator()(const typename G::Game& game) {
    if (failed_ || (SteadyClock::now() - last_ < kLiveGameInterval && !game.outcome().is_over())) return;
    last_ = SteadyClock::now();
    std::string moves;
    for (const auto& move : game.moves()) moves += G::move_text(move, game.start()) + ' ';
    try {
      const std::string variant = G::pgn_variant(game.start());  // what its FEN does not say
      dir_.write_live_game(variant.empty() ? G::kName : variant, game.start().fen(), server_.model_name(), moves);
    } catch (const std::exception& e) {
      failed_ = true;
      log_.warn("self-play: cannot publish the live game ({}); self-play goes on", e.what());
    }
  }

 private:
  const RunDirectory& dir_;
  const BasicInferenceServer<G>& server_;
  spdlog::logger& log_;
  SteadyClock::time_point last_ = SteadyClock::now() - kLiveGameInterval;
  bool failed_ = false;
};

}  // namespace

template <typename G>
SelfPlaySession play_selfplay(const RunConfig& config, const RunDirectory& dir, const SelfPlayLimits& limits,
                              spdlog::logger& log) {
  SelfPlaySession session;
  std::string best = wait_for_first_model(dir, limits, log);
  if (best.empty()) return session;
  BasicInferenceServer<G> server(dir.model_path(best), config.inference);
  log.info("self-play: playing with {} ({} on {})", best, to_string(precision_of(config.inference)),
           config.inference.device);
  if (const int cores = usable_cores(); config.selfplay.threads > cores)
    log.warn(
        "self-play: selfplay.threads is {} but this process may use {} cores, so its workers take turns on "
        "them: set selfplay.threads to the cores, less those a trainer on this machine uses",
        config.selfplay.threads, cores);
  if (const int busy = busy_inference_threads(config); busy < config.inference.threads)
    log.warn("self-play: its positions in flight fill {} batch(es) of inference.max_batch {}, so only {} of the {} "
             "inference threads work: lower max_batch or raise selfplay.concurrent_games",
             busy, config.inference.max_batch, busy, config.inference.threads);

  std::atomic<bool> halt{false};  // set by the watcher: the workers' stop flag
  HeldEvaluator<G> evaluator(server, limits.hold, halt);
  ChunkWriter<G> write(dir, server, log, session);
  LiveGamePublisher<G> publish(dir, server, log);
  // The watcher follows the run's best model and tells the workers when to stop.
  auto watch = [&] {
    while (!halt) {
      if (limits.stopped() || (limits.games > 0 && write.games() >= limits.games)) {
        halt = true;
        break;
      }
      if (const std::string now = dir.best(); !now.empty() && now != best) {
        server.load(dir.model_path(now));
        best = now;
        log.info("self-play: now playing with {}", best);
      }
      std::this_thread::sleep_for(kRunPollInterval);
    }
  };
  run_in_parallel(
      2,
      [&](int task) {
        if (task == 1) return watch();
        session.stats =
            play_selfplay_games<G>(config, selfplay_starts<G>(config), session_seed(config), evaluator,
                                   std::numeric_limits<int>::max(), halt, std::ref(write), std::ref(publish));
        halt = true;
      },
      [&] { halt = true; });
  session.seconds = write.seconds();
  session.evals_per_second = server.stats().positions / session.seconds;
  session.held_share = evaluator.held_seconds() / std::max(session.seconds * config.selfplay.threads, 1e-9);
  return session;
}

}  // namespace ataxx
