#include "trainer/training_run.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "match/match.h"
#include "match/openings.h"
#include "nn/inference_server.h"
#include "selfplay/selfplay_worker.h"
#include "trainer/run_directory.h"
#include "trainer/trainer.h"
#include "util/atomic_file.h"

namespace ataxx {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::shared_ptr<spdlog::logger> make_logger(const RunDirectory& dir) {
  auto console = std::make_shared<spdlog::sinks::stdout_color_sink_mt>();
  auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(dir.log_path());
  auto logger = std::make_shared<spdlog::logger>("train", spdlog::sinks_init_list{console, file});
  logger->set_pattern("[%H:%M:%S] %v");
  logger->flush_on(spdlog::level::info);
  return logger;
}

// Reads the run's config; a new run copies config_path in first.
RunConfig open_config(const RunDirectory& dir, const std::string& config_path, std::string* yaml) {
  if (!std::filesystem::exists(dir.config_path())) {
    if (config_path.empty()) throw std::runtime_error("'" + dir.root() + "' holds no run; give --config to start one");
    *yaml = to_yaml(load_run_config(config_path));
    write_file_atomically(dir.config_path(), *yaml);
  } else if (!config_path.empty() && to_yaml(load_run_config(config_path)) != to_yaml(load_run_config(dir.config_path()))) {
    throw std::runtime_error("'" + dir.root() + "' already holds a run with another config; resume it without --config");
  }
  RunConfig config = load_run_config(dir.config_path());
  *yaml = to_yaml(config);
  return config;
}

std::vector<Position> selfplay_openings(const RunConfig& config) {
  return config.selfplay.openings.empty() ? default_openings() : load_openings(config.selfplay.openings);
}

struct SelfPlayReport {
  SelfPlayStats stats;
  double seconds = 0;
  double evals_per_second = 0;
  double mean_batch = 0;
  double cache_hit_rate = 0;
};

InferenceOptions inference_options(const RunConfig& config) {
  InferenceOptions options;
  options.device = config.inference.device;
  options.bf16 = config.inference.bf16;
  options.max_batch = config.inference.max_batch;
  options.threads = config.inference.threads;
  options.cache_entries = config.inference.cache_entries;
  return options;
}

// Plays round `round` with the best model until the round has its games (or stop).
SelfPlayReport play_round(const RunConfig& config, const RunDirectory& dir, int round, const std::atomic<bool>& stop,
                          spdlog::logger& log) {
  SelfPlayReport report;
  const int have = dir.games_in_round(round);
  const int target = config.selfplay.games_per_generation - have;
  if (target <= 0) return report;
  InferenceServer server(dir.root() + "/models/" + dir.best() + ".net", inference_options(config));
  static std::atomic<int> next_chunk{0};  // process-wide: names carry the pid, so they never repeat
  std::atomic<int> games_done{0};
  const auto start = Clock::now();
  const std::uint64_t seed = config.run.seed * 1000003 + round * 1009 + have * 31;
  try {
    report.stats = play_selfplay_games(config, selfplay_openings(config), seed, server, target, stop, [&](SelfPlayBatch&& batch) {
      write_chunk(dir.chunk_path(round, next_chunk++), batch.games, batch.samples);
      const int done = games_done += batch.games;
      const double elapsed = seconds_since(start);
      log.info("  self-play {}: {}/{} games, {:.2f} games/s, {:.0f} evals/s, ETA {:.0f} s", generation_name(round), done,
               target, done / elapsed, server.stats().positions / elapsed, (target - done) * elapsed / std::max(done, 1));
    });
  } catch (const std::exception& e) {
    throw std::runtime_error("self-play " + generation_name(round) + ": " + e.what());
  }
  report.seconds = seconds_since(start);
  report.evals_per_second = server.stats().positions / report.seconds;
  report.mean_batch = server.stats().mean_batch();
  report.cache_hit_rate = server.stats().cache_hit_rate();
  return report;
}

std::string nn_spec(const RunConfig& config, const RunDirectory& dir, const std::string& model, int visits) {
  return network_player_spec(config, dir.root() + "/models/" + model + ".net", visits);
}

PairResult play_pair(const std::string& first_name, const std::string& first_spec, const std::string& second_name,
                     const std::string& second_spec, int games, int concurrency, std::uint64_t seed,
                     const std::optional<SprtParams>& sprt, SprtVerdict* verdict = nullptr) {
  MatchConfig match;
  match.player1 = first_spec;
  match.player2 = second_spec;
  match.games = games;
  match.concurrency = concurrency;
  match.openings = default_openings();
  match.seed = seed;
  match.sprt = sprt;
  const MatchResult result = run_match(match);
  if (verdict) *verdict = result.verdict;
  return {first_name, second_name, result.score.wins, result.score.draws, result.score.losses};
}

// Gates candidate against the best; records the verdict and promotes on success.
bool gate(const RunConfig& config, const RunDirectory& dir, int generation, spdlog::logger& log) {
  const std::string candidate = generation_name(generation);
  const std::string best = dir.best();
  const auto& g = config.gating;
  std::optional<SprtParams> sprt;
  if (!g.sprt.empty()) sprt = parse_sprt(g.sprt);
  SprtVerdict verdict = SprtVerdict::kContinue;
  const PairResult result =
      play_pair(candidate, nn_spec(config, dir, candidate, g.visits), best, nn_spec(config, dir, best, g.visits),
                g.games, g.concurrency, config.run.seed + generation, sprt, &verdict);
  const MatchScore score{result.first_wins, result.second_wins, result.draws};
  const bool by_threshold = !sprt || (verdict == SprtVerdict::kContinue && g.undecided == "threshold");
  const bool promoted = by_threshold ? score.score() >= g.threshold : verdict == SprtVerdict::kAcceptH1;
  const EloEstimate elo = estimate_elo(score);
  const char* how = !sprt ? "by threshold"
                    : verdict != SprtVerdict::kContinue ? "by SPRT"
                    : by_threshold ? "SPRT undecided, by threshold"
                                   : "SPRT undecided";
  log.info("  gating {} vs {}: {} - {} - {} [{:.3f}], Elo {:+.0f} +/- {:.0f}: {} ({})", candidate, best, score.wins,
           score.losses, score.draws, score.score(), elo.elo, elo.error95, promoted ? "promoted" : "rejected", how);
  dir.record_match(generation, result, "gating");
  dir.record_gating(candidate, best, result, promoted);
  if (promoted) dir.set_best(candidate);
  return promoted;
}

void play_ladder(const RunConfig& config, const RunDirectory& dir, int generation, spdlog::logger& log) {
  const std::string model = dir.best();
  if (config.ladder.games == 0 || dir.has_ladder(model)) return;
  for (const std::string& baseline : config.ladder.baselines) {
    const PairResult r = play_pair(model, nn_spec(config, dir, model, config.ladder.visits), baseline, baseline,
                                   config.ladder.games, config.gating.concurrency, config.run.seed + 7 * generation,
                                   std::nullopt);
    log.info("  ladder {} vs {}: {} - {} - {}", model, baseline, r.first_wins, r.second_wins, r.draws);
    dir.record_match(generation, r, "ladder");
  }
}

std::string ratings_table(const RunDirectory& dir) {
  const auto matches = dir.matches();
  if (matches.empty()) return "";
  bool has_random = false;
  for (const auto& m : matches) has_random |= m.first == "random" || m.second == "random";
  const auto ratings = fit_ratings(matches, has_random ? "random" : matches.front().first);
  dir.write_ratings(ratings);
  std::string table = fmt::format("{:<34} {:>8} {:>8} {:>6}\n", "player", "elo", "+/-", "games");
  for (const Rating& r : ratings) table += fmt::format("{:<34} {:>8.0f} {:>8.0f} {:>6}\n", r.name, r.elo, r.error95, r.games);
  return table;
}

// The generations of a run, from wherever its directory says it stands.
TrainingSummary train_generations(const RunConfig& config, const std::string& yaml, const RunDirectory& dir,
                                  spdlog::logger& log, const std::atomic<bool>& stop) {
  const double budget = config.run.max_minutes;
  auto session_start = Clock::now();
  auto out_of_time = [&] { return dir.elapsed_minutes() + seconds_since(session_start) / 60.0 >= budget; };
  auto bank_time = [&] {
    dir.add_elapsed_minutes(seconds_since(session_start) / 60.0);
    session_start = Clock::now();
  };

  // Generation 0: the untrained network, best until something beats it.
  std::optional<int> newest = dir.newest_model();
  const std::optional<int> checkpoint = dir.newest_checkpoint();
  Trainer trainer(config, yaml, checkpoint ? dir.checkpoint_path(*checkpoint) : "");
  if (!newest || (checkpoint && *checkpoint > *newest)) {
    const int generation = checkpoint.value_or(0);
    if (!checkpoint) trainer.save_checkpoint(dir.checkpoint_path(0));
    ModelInfo info;
    info.name = generation_name(generation);
    info.parent = generation > 0 ? generation_name(generation - 1) : "";
    trainer.save_play_file(dir.model_path(generation), info);
    newest = generation;
  }
  if (dir.best().empty()) dir.set_best(generation_name(0));
  log.info("run {}: generation {}, best {}, {:.1f} of {:.1f} minutes used", dir.root(), *newest, dir.best(),
            dir.elapsed_minutes(), budget);

  ReplayBuffer buffer(config.training);
  std::mt19937_64 rng(config.run.seed * 7919 + *newest);
  int round = *newest;
  while (!stop && !out_of_time() && round < config.run.max_generations) {
    if (round > 0 && !dir.gating_verdict(generation_name(round))) gate(config, dir, round, log);
    play_ladder(config, dir, round, log);
    bank_time();
    if (out_of_time()) break;

    const SelfPlayReport selfplay = play_round(config, dir, round, stop, log);
    bank_time();
    if (stop || dir.games_in_round(round) < config.selfplay.games_per_generation) break;

    const auto train_start = Clock::now();
    const ReplayBuffer::Refresh refresh = buffer.refresh(dir.games_dir());
    for (const std::string& why : refresh.skipped) log.warn("  skipped a damaged chunk: {}", why);
    if (!refresh.skipped.empty())
      log.warn("  {} damaged chunks skipped in this run so far", buffer.skipped_chunks());
    if (buffer.empty())
      throw std::runtime_error("no training samples yet: every game chunk so far is damaged or holds no full search");
    const std::int64_t new_samples = std::max<std::int64_t>(refresh.samples, 1);
    const int steps = static_cast<int>(std::min<double>(config.training.max_steps_per_generation,
                                                        new_samples * config.training.max_sample_reuse / config.training.batch_size + 1));
    const Losses losses = trainer.train(buffer, steps, rng);
    const double train_seconds = seconds_since(train_start);
    ++round;
    trainer.save_checkpoint(dir.checkpoint_path(round));
    ModelInfo info;
    info.name = generation_name(round);
    info.parent = dir.best();
    trainer.save_play_file(dir.model_path(round), info);
    log.info("gen {}: {} games ({:.2f}/s, {:.0f} evals/s, batch {:.0f}), {} steps on {} of {} samples ({:.0f} samples/s), loss {:.3f} (policy {:.3f} value {:.3f})",
              round, selfplay.stats.games, selfplay.stats.games / std::max(selfplay.seconds, 1e-9),
              selfplay.evals_per_second, selfplay.mean_batch, steps, buffer.window(), buffer.total_samples(),
              steps * config.training.batch_size / std::max(train_seconds, 1e-9), losses.total, losses.policy,
              losses.value);
    if (config.inference.cache_entries > 0)
      log.info("  evaluation cache: {:.1f}% hits", 100 * selfplay.cache_hit_rate);
    if (selfplay.stats.no_resign_games > 0)
      log.info("  resignation: {} resigned; in {} no-resign games {} would have, {} of them wrongly ({:.0f}%)",
                selfplay.stats.resigned, selfplay.stats.no_resign_games, selfplay.stats.would_resign,
                selfplay.stats.false_resignations, 100 * selfplay.stats.false_resignation_rate());

    const bool promoted = gate(config, dir, round, log);
    play_ladder(config, dir, round, log);
    bank_time();
    const std::string row = fmt::format(
        "{},{},{},{},{},{:.1f},{:.0f},{:.2f},{:.0f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:d},{},{:.2f}", round,
        trainer.step(), buffer.total_samples(), buffer.window(), selfplay.stats.games, selfplay.seconds,
        selfplay.evals_per_second, selfplay.stats.false_resignation_rate(),
        steps * config.training.batch_size / std::max(train_seconds, 1e-9), losses.total, losses.policy, losses.value,
        losses.ownership, losses.piece_diff, promoted, dir.best(), dir.elapsed_minutes());
    dir.record_metrics(
        "generation,step,samples,window,games,selfplay_seconds,evals_per_second,false_resign_rate,samples_per_second,"
        "loss,policy_loss,value_loss,ownership_loss,piece_diff_loss,promoted,best,elapsed_minutes",
        row);
    ratings_table(dir);
    if (!dir.plot()) log.warn("  plots: gnuplot failed, see {}/plots/gnuplot.log", dir.root());
  }
  bank_time();

  TrainingSummary summary;
  summary.best_model_path = dir.root() + "/models/" + dir.best() + ".net";
  summary.generations = round;
  summary.ratings_table = ratings_table(dir);
  return summary;
}

}  // namespace

std::string network_player_spec(const RunConfig& config, const std::string& model_path, int visits) {
  const auto& i = config.inference;
  return fmt::format("nn:model={},visits={},device={},bf16={:d},max_batch={},threads={},cache={}", model_path, visits,
                     i.device, i.bf16, i.max_batch, i.threads, i.cache_entries);
}

TrainingSummary run_training(const std::string& config_path, const std::string& run_dir,
                             const std::atomic<bool>& stop) {
  RunDirectory dir(run_dir);
  std::string yaml;
  const RunConfig config = open_config(dir, config_path, &yaml);
  auto log = make_logger(dir);
  try {
    return train_generations(config, yaml, dir, *log, stop);
  } catch (const std::exception& e) {
    log->error("the run stopped: {}", e.what());
    throw;
  }
}

void run_selfplay(const std::string& run_dir, int rounds, const std::atomic<bool>& stop) {
  RunDirectory dir(run_dir);
  std::string yaml;
  const RunConfig config = open_config(dir, "", &yaml);
  auto log = make_logger(dir);
  for (int played = 0; !stop && (rounds == 0 || played < rounds);) {
    const std::optional<int> newest = dir.newest_model();
    if (!newest || dir.best().empty()) {
      log->info("self-play: waiting for the trainer's first model");
      std::this_thread::sleep_for(std::chrono::seconds(5));
      continue;
    }
    if (dir.games_in_round(*newest) >= config.selfplay.games_per_generation) {
      std::this_thread::sleep_for(std::chrono::seconds(2));  // the trainer has not caught up yet
      continue;
    }
    play_round(config, dir, *newest, stop, *log);
    ++played;
  }
}

}  // namespace ataxx
