#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>

#include "config/run_config.h"
#include "tools/commands.h"
#include "trainer/run_pack.h"
#include "trainer/training_run.h"
#include "util/text.h"

namespace ataxx::cli {

namespace {

// A player spec's value: quoted where it holds a comma, which would end it.
std::string spec_value(const std::string& value) {
  return value.find(',') == std::string::npos ? value : '"' + value + '"';
}

// The commands that carry on with a run's best net: models/best names it, so they keep playing the
// newest best as the run goes on. Each runs as printed, whatever the run's path holds.
void print_next_steps(const std::string& run_dir_path, const std::string& game) {
  const std::string zero = shell_quoted(program_command("ataxx-zero"));
  const std::string run_dir = shell_quoted(run_dir_path);
  const std::string best_path = run_dir_path + "/models/best";
  const std::string best = shell_quoted(best_path);
  const bool has_boards = with_game(game, []<typename G>() { return G::kHasBoards; });
  const std::string variant = has_boards ? "" : " --variant " + game;
  // A GUI starts the engine from a folder of its own: paths in full.
  const auto in_full = [](const std::string& path) {
    std::error_code error;
    return path.find('/') == std::string::npos ? path
                                               : std::filesystem::absolute(path, error).lexically_normal().string();
  };
  const std::string beside = program_command("ataxx-engine");
  std::error_code error;
  const bool engine_built = beside.find('/') == std::string::npos || std::filesystem::exists(beside, error);
  const std::string engine = shell_quoted(in_full(engine_built ? beside : program_command("ataxx-zero")));
  const std::string absolute_best = shell_quoted(in_full(best_path));
  const std::string p1 = shell_quoted("nn:model=" + spec_value(best_path) + ",visits=200");
  std::printf("Resume:                %s train --run-dir %s\n", zero.c_str(), run_dir.c_str());
  std::printf("Play it:               %s play%s --model %s\n", zero.c_str(), variant.c_str(), best.c_str());
  std::printf("In a GUI (UAI engine): %s uai --model %s\n", engine.c_str(), absolute_best.c_str());
  std::printf("In the browser:        %s serve --run-dir %s --model %s\n", zero.c_str(), run_dir.c_str(), best.c_str());
  std::printf("Measure it:            %s match%s --p1 %s --p2 alphabeta --games 20\n", zero.c_str(),
              variant.c_str(), p1.c_str());
}

}  // namespace

void add_train_command(CLI::App& app) {
  struct Options {
    std::string config;
    std::string run_dir;
    std::optional<std::uint64_t> seed;
    bool list_keys = false;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("train", "Run the AlphaZero loop: self-play, training, gating, ratings (resumable)");
  cmd->add_option("--config", options->config, "Run configuration (YAML); not needed to resume")->check(CLI::ExistingFile);
  cmd->add_option("--run-dir", options->run_dir, "Run directory (default: runs/<config name>)")
      ->check(non_empty("DIR"));
  cmd->add_option("--seed", options->seed, "A new run's run.seed in place of its config's (replicates of one config)")
      ->check(seed_check());
  cmd->add_flag("--list-keys", options->list_keys,
                "Print every configuration key with its default, values and meaning (a Markdown table), and exit");
  cmd->callback([options] {
    if (options->list_keys) {
      std::fputs(config_keys_table().c_str(), stdout);
      return;
    }
    std::string run_dir = options->run_dir;
    if (run_dir.empty()) {
      if (options->config.empty()) throw std::runtime_error("give --config, --run-dir or both");
      const auto slash = options->config.find_last_of('/');
      const std::string file = options->config.substr(slash == std::string::npos ? 0 : slash + 1);
      run_dir = "runs/" + file.substr(0, file.find('.'));
    }
    const TrainingSummary summary = run_training(options->config, run_dir, options->seed, install_stop_handlers());
    std::printf("\nTraining stopped after generation %d.\nBest play file: %s\n\n%s\n", summary.generations,
                summary.best_model_path.c_str(), summary.ratings_table.c_str());
    print_next_steps(run_dir, summary.game);
  });
}

void add_selfplay_command(CLI::App& app) {
  struct Options {
    std::string run_dir;
    std::int64_t games = 0;
    std::vector<std::string> overrides;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "selfplay", "Extra self-play for a run directory (on this or another machine): plays with its best model without pause");
  cmd->add_option("--run-dir", options->run_dir, "Run directory shared with `train`")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--games", options->games,
                  "Stop once at least this many games are written: the finished games not yet in a chunk are "
                  "written too, the games being played dropped (0: until stopped by SIGINT or SIGTERM)")
      ->check(CLI::Range(std::int64_t{0}, std::numeric_limits<std::int64_t>::max()));
  cmd->add_option("--set", options->overrides,
                  "This machine's own KEY=VALUE in place of the run's: selfplay.threads, selfplay.concurrent_games, "
                  "inference.* (e.g. --set inference.device=cpu --set selfplay.threads=6 on a CPU machine joining a "
                  "GPU run); repeatable")
      ->allow_extra_args(false);
  cmd->callback([options] {
    const std::int64_t games =
        run_selfplay(options->run_dir, options->games, options->overrides, install_stop_handlers());
    std::printf("Self-play wrote %lld games.\n", static_cast<long long>(games));
  });
}

void add_pack_command(CLI::App& app) {
  struct Options {
    std::string run_dir;
    std::string into;
    double max_mib = 0;
  };
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "pack", "Copy what a stopped run needs to resume exactly into a new folder: its window's games, newest checkpoint, best net");
  cmd->add_option("--run-dir", options->run_dir, "The run, stopped")->required()->check(CLI::ExistingDirectory);
  cmd->add_option("--into", options->into, "A new folder for the packed run (resume it with train --run-dir)")
      ->required()
      ->check(non_empty("DIR"));
  cmd->add_option("--max-mib", options->max_mib,
                  "At most this size: the window's oldest games stay behind (0: no limit)")
      ->check(number_range(0.0, 1048576.0));
  cmd->callback([options] {
    const auto max_bytes = options->max_mib > 0 ? static_cast<std::int64_t>(options->max_mib * 1048576) : INT64_MAX;
    const PackReport r = pack_run(options->run_dir, options->into, max_bytes);
    std::printf("Packed %s into %s: %d files, %.1f MiB; the window's %lld samples in %lld chunks; %lld older chunks "
                "(%lld samples, %lld games) counted only.\n",
                options->run_dir.c_str(), options->into.c_str(), r.files, r.bytes / 1048576.0,
                static_cast<long long>(r.window), static_cast<long long>(r.window_chunks),
                static_cast<long long>(r.counted_only.chunks), static_cast<long long>(r.counted_only.samples),
                static_cast<long long>(r.counted_only.games));
    if (!r.named_files.empty())
      fmt::print(
          "The run's config names files the pack does not hold; a resume reads them where they are, from the "
          "folder train runs in:\n  {}\n",
          fmt::join(r.named_files, "\n  "));
    if (r.window_samples_lost > 0)
      std::printf("Warning: %lld of the window's oldest samples did not fit in %.1f MiB: the resumed run trains without them.\n",
                  static_cast<long long>(r.window_samples_lost), options->max_mib);
  });
}

}  // namespace ataxx::cli
