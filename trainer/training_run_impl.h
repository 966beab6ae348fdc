// The template definitions of trainer/training_run.h: included by training_run.cpp, which runs the
// games of games/registry.h, and by code that runs a list of games of its own (the tests').
#pragma once

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <type_traits>

#include "nn/model_info.h"
#include "nn/network_backend.h"
#include "players/network_player.h"
#include "trainer/gatekeeper.h"
#include "trainer/run_directory.h"
#include "trainer/selfplay_loop.h"
#include "trainer/trainer.h"
#include "trainer/training_run.h"
#include "util/atomic_file.h"
#include "util/clock.h"
#include "util/file_lock.h"
#include "util/parallel.h"
#include "util/read_file.h"

namespace ataxx {
namespace {

constexpr std::int64_t kStepsBetweenRefreshes = 10;
constexpr double kSecondsBetweenProgressLines = 60;
constexpr double kSecondsBetweenBanks = 5;

std::shared_ptr<spdlog::logger> make_logger(const RunDirectory& dir) {
  auto console = std::make_shared<spdlog::sinks::stdout_color_sink_mt>();
  auto file = std::make_shared<spdlog::sinks::basic_file_sink_mt>(dir.log_path());
  auto logger = std::make_shared<spdlog::logger>("run", spdlog::sinks_init_list{console, file});
  logger->set_pattern("[%H:%M:%S] %v");
  logger->flush_on(spdlog::level::info);
  return logger;
}

// Throws where run_dir holds files but no run: another's, or a run's whose config.yaml is gone.
void require_room_for_a_run(const std::string& run_dir) {
  if (!RunDirectory::has_room_for_a_run(run_dir))
    throw std::runtime_error("'" + run_dir +
                             "' holds files but no run (no config.yaml): to resume the run whose files they are, put "
                             "its config.yaml back; to start one, give a new or empty --run-dir");
}

// Asked before a RunDirectory creates its folders: a mistyped --run-dir leaves nothing behind.
void require_a_run(const std::string& run_dir) {
  if (RunDirectory::holds_run(run_dir)) return;
  require_room_for_a_run(run_dir);
  throw std::runtime_error("'" + run_dir + "' holds no run: start one with `train --config FILE --run-dir " + run_dir +
                           "`");
}

// `inference.int8: auto` settled for the device the config names on this machine.
void settle_int8_auto(RunConfig& config) {
  if (config.int8_auto) config.inference.int8 = int8_by_default(config.inference.device);
}

// Whether a config file is as a run writes it (a start that failed, which a corrected config may
// replace), not a file of the user's.
bool written_by_a_run(const std::string& path, const RunGames& games) {
  try {
    const std::string text = read_whole_file(path);
    return text == to_yaml(parse_run_config(text, path, games));
  } catch (const std::exception&) {
    return false;
  }
}

// Asked before a new run makes its folders: a config.yaml where the run would write its own, that
// is neither the --config given nor one a run wrote, is the user's, and would be replaced.
void refuse_to_replace_a_users_config(const std::string& run_dir, const std::string& config_path,
                                      const RunGames& games) {
  namespace fs = std::filesystem;
  const std::string existing = run_dir + "/config.yaml";
  std::error_code error;
  if (RunDirectory::newest_model_of(run_dir) || !fs::exists(existing, error) ||
      fs::equivalent(existing, config_path, error) || written_by_a_run(existing, games))
    return;
  throw std::runtime_error("'" + existing + "' is a file of yours, not one a run wrote: give it as --config, or give " +
                           "another --run-dir");
}

// The run's config.yaml (into *yaml as it reads), `inference.int8: auto` settled for this machine.
RunConfig settled_config(const RunDirectory& dir, const RunGames& games, std::string* yaml) {
  RunConfig config = load_run_config(dir.config_path(), games);
  *yaml = to_yaml(config);
  settle_int8_auto(config);
  return config;
}

// The config at config_path, its keys and values checked, and the openings files it names (read by
// self-play, gating and the ladder, later).
RunConfig checked_config(const std::string& config_path, const RunGames& games) {
  RunConfig config = load_run_config(config_path, games);
  for (const std::string& file : config.boards.openings)
    if (!file.empty() && (std::filesystem::is_directory(file) || !std::ifstream(file)))
      throw std::runtime_error(
          fmt::format("config {}: boards.openings: cannot read '{}' (paths are from the folder the command runs in)",
                      config_path, file));
  return config;
}

// Reads the run's config, `inference.int8: auto` settled for this machine. A new run copies
// config_path in first, with seed for its run.seed where given; so does a run that never made its
// first model (a start that failed, e.g. on a ladder baseline that cannot play: nothing of it is
// lost, and its corrected config must not be refused as another run's).
RunConfig open_config(const RunDirectory& dir, const std::string& config_path, std::optional<std::uint64_t> seed,
                      const RunGames& games, std::string* yaml) {
  const bool has_config = RunDirectory::holds_run(dir.root());
  if (!config_path.empty() && (!has_config || !dir.newest_model())) {
    RunConfig config = checked_config(config_path, games);
    if (std::error_code error; std::filesystem::equivalent(config_path, dir.config_path(), error)) {
      // The user's own file, comments and all, is the run's: kept as written.
      if (seed && *seed != config.run.seed)
        throw std::runtime_error(
            fmt::format("--seed {} would rewrite '{}': set run.seed in it instead", *seed, config_path));
      return settled_config(dir, games, yaml);
    }
    if (seed) config.run.seed = *seed;
    write_file_atomically(dir.config_path(), to_yaml(config));
  } else {
    const RunConfig held = checked_config(dir.config_path(), games);
    if (seed && *seed != held.run.seed)
      throw std::runtime_error(fmt::format("'{}' already holds a run of seed {}, not {}; resume it without --seed",
                                           dir.root(), held.run.seed, *seed));
    RunConfig given = config_path.empty() ? held : load_run_config(config_path, games);
    if (seed) given.run.seed = *seed;
    if (to_yaml(given) != to_yaml(held))
      throw std::runtime_error("'" + dir.root() + "' already holds a run with another config; resume it without --config");
  }
  return settled_config(dir, games, yaml);
}

// The run's wall time over all its sessions: the minutes banked before this one, and this one's.
class Budget {
 public:
  Budget(const RunDirectory& dir, double minutes) : dir_(dir), limit_(minutes), before_(dir.elapsed_minutes()) {}
  double used() const { return before_ + seconds_since(start_) / 60.0; }
  double limit() const { return limit_; }
  double share_used() const { return std::min(1.0, used() / limit_); }
  bool spent() const { return used() >= limit_; }
  void bank() const { dir_.set_elapsed_minutes(used()); }
  // Banks every few seconds until stopped, on a thread of its own, so that a session killed at
  // any moment (a training step or a match that takes long under load) counts its minutes.
  void keep_banked(const std::function<bool()>& stopped) const {
    auto banked_at = start_;
    while (!stopped()) {
      std::this_thread::sleep_for(kRunPollInterval);
      if (seconds_since(banked_at) < kSecondsBetweenBanks) continue;
      bank();
      banked_at = SteadyClock::now();
    }
  }

 private:
  const RunDirectory& dir_;
  double limit_;
  double before_;
  SteadyClock::time_point start_ = SteadyClock::now();
};

// Writes generation's checkpoint, then its play file (a kill between the two is repaired on resume).
void export_candidate(const Trainer& trainer, const RunDirectory& dir, int generation) {
  trainer.save_checkpoint(dir.checkpoint_path(generation));
  ModelInfo info;
  info.name = generation_name(generation);
  info.parent = generation > 0 ? generation_name(generation - 1) : "";
  trainer.save_play_file(dir.model_path(generation), info);
}

Losses& operator+=(Losses& sum, const Losses& more) {
  const double n = sum.steps + more.steps;
  auto blend = [&](double& a, double b) { a = (a * sum.steps + b * more.steps) / n; };
  blend(sum.total, more.total);
  blend(sum.policy, more.policy);
  blend(sum.value, more.value);
  blend(sum.ownership, more.ownership);
  blend(sum.piece_diff, more.piece_diff);
  blend(sum.soft_policy, more.soft_policy);
  sum.steps += more.steps;
  return sum;
}

// A line a minute on where the trainer stands: between two candidates it is otherwise silent.
class TrainingProgress {
 public:
  TrainingProgress(std::int64_t step, spdlog::logger& log) : step_(step), log_(log) {}
  void log_first_steps(std::int64_t step, std::int64_t played) {
    if (started_) return;
    started_ = true;
    log_.info("training: trains from step {}, {} samples played", step, played);
  }
  void log_now_and_then(std::int64_t step, std::int64_t played, std::int64_t allowed, std::int64_t min_samples) {
    const double seconds = seconds_since(since_);
    if (seconds < kSecondsBetweenProgressLines) return;
    if (played < min_samples)
      log_.info("training: waiting for {} samples, {} played", min_samples, played);
    else
      log_.info("training: step {}, {:.1f} steps/s, {} samples played allow {} steps", step, (step - step_) / seconds,
                played, allowed);
    step_ = step;
    since_ = SteadyClock::now();
  }

 private:
  std::int64_t step_;
  bool started_ = false;
  SteadyClock::time_point since_ = SteadyClock::now();
  spdlog::logger& log_;
};

// The trainer's side of the run: trains whenever the samples played allow it (at most
// max_sample_reuse samples trained per sample played, nothing before min_samples), and exports
// a candidate every steps_per_candidate steps, until the run's last candidate. `behind` says
// whether it has trained fewer than min_sample_reuse samples per sample played (self-play
// waits). `steps_done` were trained towards the next candidate in earlier sessions; the steps of
// this one that no candidate holds are saved at its end for the next.
template <typename G>
void train_continuously(const RunConfig& config, const RunDirectory& dir, Trainer& trainer, int generation,
                        std::int64_t steps_done, const Budget& budget, const std::function<bool()>& stopped,
                        std::atomic<bool>& behind, spdlog::logger& log) {
  const auto& t = config.training;
  BasicReplayBuffer<G> buffer = run_replay_buffer<G>(config);
  std::mt19937_64 rng(config.run.seed * 7919 + generation);
  Losses losses;
  double train_seconds = 0;
  std::int64_t to_export = std::max<std::int64_t>(1, t.steps_per_candidate - steps_done);
  TrainingProgress progress(trainer.step(), log);
  while (generation < config.run.max_generations && !stopped()) {
    const auto refresh = buffer.refresh(dir.games_dir());
    for (const std::string& why : refresh.skipped) log.warn("training: skipped a damaged chunk: {}", why);
    for (const std::string& why : refresh.left_out) log.warn("training: left out samples of chunk {}", why);
    const std::int64_t played = buffer.total_samples();
    const std::int64_t allowed = buffer.steps_for_reuse(t.max_sample_reuse, t);
    behind = trainer.step() < buffer.steps_for_reuse(t.min_sample_reuse, t);
    const std::int64_t steps = std::min({allowed - trainer.step(), to_export, kStepsBetweenRefreshes});
    progress.log_now_and_then(trainer.step(), played, allowed, t.min_samples);
    if (steps <= 0) {
      std::this_thread::sleep_for(kRunPollInterval);  // waiting for self-play
      continue;
    }
    progress.log_first_steps(trainer.step(), played);
    const auto start = SteadyClock::now();
    losses += trainer.train(buffer, static_cast<int>(steps), budget.share_used(), rng);
    train_seconds += seconds_since(start);
    if ((to_export -= steps) > 0) continue;

    export_candidate(trainer, dir, ++generation);
    std::filesystem::remove(dir.stopped_checkpoint_path());  // the candidate holds its steps
    dir.prune(generation);
    const double trained_per_second = losses.steps * t.batch_size / std::max(train_seconds, 1e-9);
    const double learning_rate = scheduled_learning_rate(t, trainer.step(), budget.share_used());
    log.info("candidate {}: step {}, {} games, {} samples (window {}), {:.0f} samples/s trained, lr {:.3g}, loss {:.3f} "
             "(policy {:.3f} value {:.3f}{})",
             generation_name(generation), trainer.step(), buffer.total_games(), played, buffer.window(),
             trained_per_second, learning_rate, losses.total, losses.policy, losses.value,
             t.soft_policy_weight > 0 ? fmt::format(" soft policy {:.3f}", losses.soft_policy) : "");
    dir.record_metrics(
        "generation,step,games,samples,window,samples_trained,train_samples_per_second,loss,policy_loss,value_loss,"
        "ownership_loss,piece_diff_loss,best,elapsed_minutes,learning_rate,soft_policy_loss",
        fmt::format("{},{},{},{},{},{},{:.0f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{},{:.2f},{:.6g},{:.4f}", generation,
                    trainer.step(), buffer.total_games(), played, buffer.window(), trainer.step() * t.batch_size,
                    trained_per_second, losses.total, losses.policy, losses.value, losses.ownership, losses.piece_diff,
                    dir.best(), budget.used(), learning_rate, losses.soft_policy));
    losses = {};
    train_seconds = 0;
    to_export = t.steps_per_candidate;
  }
  if (const std::int64_t unexported = t.steps_per_candidate - to_export; unexported > 0) {
    trainer.save_checkpoint(dir.stopped_checkpoint_path());
    log.info("training: stopped {} steps after {}; a resume goes on from there", unexported,
             generation_name(generation));
  }
}

// The newest generation with a play file; a new run's untrained network is generation 0, and a
// checkpoint whose play file a kill left unwritten gets it now.
int newest_generation(const RunDirectory& dir, const Trainer& trainer) {
  const std::optional<int> model = dir.newest_model();
  const std::optional<int> checkpoint = dir.newest_checkpoint();
  if (model && (!checkpoint || *checkpoint <= *model)) return *model;
  const int generation = checkpoint.value_or(0);
  export_candidate(trainer, dir, generation);
  return generation;
}

void log_selfplay_session(const SelfPlaySession& s, spdlog::logger& log) {
  log.info(
      "self-play since this start: {} games in {} chunks, {:.2f} games/s, {:.0f} evals/s, {:.0f} plies a game, "
      "{:.0f}% draws{}",
      s.stats.games, s.chunks, s.stats.games / std::max(s.seconds, 1e-9), s.evals_per_second,
      static_cast<double>(s.stats.plies) / std::max(s.stats.games, 1),
      100.0 * s.stats.draws / std::max(s.stats.games, 1),
      s.held_share > 0 ? fmt::format(", {:.0f}% of its time waiting for training", 100 * s.held_share) : "");
  if (s.stats.no_resign_games > 0)
    log.info("resignation: {} resigned; in {} no-resign games {} would have, {} of them wrongly ({:.0f}%)",
             s.stats.resigned, s.stats.no_resign_games, s.stats.would_resign, s.stats.false_resignations,
             100 * s.stats.false_resignation_rate());
}

// Runs `task`, adding `what` to any error it throws.
void with_context(const std::string& what, const std::function<void()>& task) {
  try {
    task();
  } catch (const std::exception& e) {
    throw std::runtime_error(what + ": " + e.what());
  }
}

// Runs `task`, which reads a checkpoint: where its bytes are wrong (damaged, cut short), the error
// says how the run resumes without it.
void reading_checkpoint(const std::string& without_it, const std::function<void()>& task) {
  try {
    task();
  } catch (const DamagedModelFileError& e) {
    throw std::runtime_error(std::string(e.what()) + ": move it aside, and the run resumes from " + without_it);
  }
}

// The checkpoint a run resumes from without its newest, in reading_checkpoint's words.
std::string checkpoint_before(const RunDirectory& dir, int newest) {
  for (int generation = newest - 1; generation >= 0; --generation)
    if (std::filesystem::exists(dir.checkpoint_path(generation))) return generation_name(generation) + "'s checkpoint";
  return "none of its checkpoints: it keeps no older one, so its training starts again from the config's net";
}

// Asked before a new run makes its folders: what would stop it in its first minute (a device this
// machine lacks, a start net or teacher that cannot be read or does not fit, an openings line that
// is no position, a ladder baseline that cannot play) stops it here, and leaves nothing behind.
template <typename G>
void check_run_can_start(const RunConfig& config) {
  with_context("inference.device", [&] { check_device(config.inference.device); });
  check_run_matches<G>(config);
  const Trainer trainer(config, "", "", trained_game<G>(boards_of(config)));
}

// `checked`: check_run_can_start passed on this config (a new run); a resume checks its matches here.
template <typename G>
TrainingSummary run_pipeline(const RunConfig& config, const std::string& yaml, const RunDirectory& dir,
                             spdlog::logger& log, const std::atomic<bool>& stop, bool checked) {
  if (!checked) check_run_matches<G>(config);
  const Budget budget(dir, config.run.max_minutes);
  const std::optional<int> checkpoint = dir.newest_checkpoint();
  const std::string checkpoint_path = checkpoint ? dir.checkpoint_path(*checkpoint) : "";
  std::optional<Trainer> made;
  reading_checkpoint(checkpoint ? checkpoint_before(dir, *checkpoint) : "",
                     [&] { made.emplace(config, yaml, checkpoint_path, trained_game<G>(boards_of(config))); });
  Trainer& trainer = *made;
  const int generation = newest_generation(dir, trainer);
  const std::int64_t generation_step = trainer.step();
  bool went_on = false;
  reading_checkpoint("its newest checkpoint (the steps since it are lost)",
                     [&] { went_on = trainer.resume_if_further(dir.stopped_checkpoint_path()); });
  const std::int64_t steps_done = trainer.step() - generation_step;
  if (went_on)
    log.info("training: goes on at step {}, {} steps after {}, where the run last stopped", trainer.step(),
             steps_done, generation_name(generation));
  if (generation > 0 && dir.best().empty()) {  // lost: gating.csv's last promotion names it
    dir.repair_gating();
    log.warn("run {}: models/best was missing; it names {} again, gating.csv's last promotion", dir.root(), dir.best());
  }
  if (dir.best().empty()) dir.set_best(generation_name(0));
  log.info("run {}: candidate {}, best {}, {:.1f} of {:.1f} minutes used", dir.root(), generation, dir.best(),
           budget.used(), budget.limit());

  std::atomic<bool> finished{false};  // the last candidate is decided, or a part failed
  auto stopped = [&] { return stop || finished || budget.spent(); };
  std::atomic<bool> training_behind{false};  // self-play waits (training.min_sample_reuse)
  SelfPlaySession selfplay;
  run_in_parallel(
      4,
      [&](int part) {
        if (part == 0) with_context("training", [&] {
          train_continuously<G>(config, dir, trainer, generation, steps_done, budget, stopped, training_behind, log);
        });
        if (part == 1) with_context("gating", [&] { gate_continuously<G>(config, dir, stopped, log); });
        if (part == 1) finished = true;
        if (part == 2)
          with_context("self-play", [&] {
            selfplay = play_selfplay<G>(config, dir, {.stopped = stopped, .hold = [&] { return training_behind.load(); }},
                                        log);
          });
        if (part == 3) with_context("the run's clock", [&] { budget.keep_banked(stopped); });
      },
      [&] { finished = true; });
  budget.bank();
  log_selfplay_session(selfplay, log);
  if (budget.spent())
    log.info("run {}: its {:.1f} minutes are spent; to train on, raise run.max_minutes in {} and resume", dir.root(),
             budget.limit(), dir.config_path());

  TrainingSummary summary;
  summary.game = config.run.game;
  summary.best_model_path = dir.model_path(dir.best());
  summary.generations = dir.newest_model().value_or(0);
  summary.ratings_table = ratings_table(dir);
  return summary;
}

}  // namespace

template <typename List>
TrainingSummary run_training_of(const std::string& config_path, const std::string& run_dir,
                                std::optional<std::uint64_t> seed, const std::atomic<bool>& stop) {
  if (config_path.empty())
    require_a_run(run_dir);  // which asks require_room_for_a_run
  else
    require_room_for_a_run(run_dir);
  // A run under way there refuses this one before the checks below build anything (a trainer, on
  // a GPU); a run's folder that is not there yet is locked once made.
  std::optional<FileLock> one_trainer;
  const std::string lock_what = "run '" + run_dir + "'";
  if (std::filesystem::exists(RunDirectory::lock_path_of(run_dir)))
    one_trainer.emplace(RunDirectory::lock_path_of(run_dir), lock_what);
  bool checked = false;
  if (!config_path.empty()) {
    refuse_to_replace_a_users_config(run_dir, config_path, RunGames::of<List>());
    const RunConfig config = checked_config(config_path, RunGames::of<List>());  // a typo leaves no folder behind
    if (!RunDirectory::newest_model_of(run_dir)) {
      List::with_game(config.run.game, [&]<typename G>() { check_run_can_start<G>(config); });
      checked = true;
    }
  }
  RunDirectory dir(run_dir);
  if (!one_trainer) one_trainer.emplace(dir.lock_path(), lock_what);
  std::string yaml;
  const RunConfig config = open_config(dir, config_path, seed, RunGames::of<List>(), &yaml);
  auto log = make_logger(dir);
  try {
    return List::with_game(config.run.game,
                           [&]<typename G>() { return run_pipeline<G>(config, yaml, dir, *log, stop, checked); });
  } catch (const std::exception& e) {
    log->error("the run stopped: {}", e.what());
    throw;
  }
}

}  // namespace ataxx
