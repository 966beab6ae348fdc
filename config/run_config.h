// The configuration of a training run, read from YAML. Every key lives in one table
// (run_config.cpp) with its default, range and help: unknown keys, wrong types and values out of
// range are errors naming the key, and the effective configuration is written back as YAML.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/registry.h"
#include "nn/inference_options.h"

namespace ataxx {

struct RunConfig {
  struct Run {
    std::uint64_t seed = 1;
    double max_minutes = 30;   // wall-time budget for `train`, counted over every session of the run
    int max_generations = 1000;
    // The game of the run, or a variant of one (games/registry.h): ataxx plays on boards:.
    std::string game{Games::First::kName};
  } run;
  struct Network {
    int blocks = 4;
    int channels = 32;
    std::string init_from;  // a play file whose weights a new run starts from ("" = random weights)
  } network;
  // The boards one network learns, as KataGo's bSizes and bSizeRelProbs: parallel lists.
  struct Boards {
    std::vector<std::string> names{"7x7"};  // 4x4 .. 8x8, hexagon
    std::vector<double> shares;             // relative shares of self-play games; empty = equal
    std::vector<std::string> openings;      // a suite file per board ("" = 2 plies from its start); empty = all ""
  } boards;
  struct SelfPlay {
    int threads = 1;            // worker threads, each playing concurrent_games at once
    int concurrent_games = 32;
    int visits = 64;            // full searches: policy targets
    int fast_visits = 16;       // fast searches: only choose the move
    double full_search_share = 0.25;
    int leaves_per_round = 4;
    double dirichlet_alpha = 0.3;
    double dirichlet_weight = 0.25;
    double c_puct = 1.5;           // the searches' exploration constant, as players' cpuct
    double forced_playouts_k = 0;  // KataGo's forced playouts in full searches (2 there); 0 = none
    double policy_temperature = 1.0;  // the search's priors p^(1/T), as players' ptemp; 1 = the net's own
    double policy_surprise_weight = 0;  // KataGo's (0.5 there; selfplay/surprise_weighting.h); 0 = none
    double value_surprise_weight = 0;   // KataGo's (0.1 there; selfplay/surprise_weighting.h); 0 = none
    // Fast searches' samples written too where their policy surprise is far above the full
    // searches' (KataGo's; selfplay/surprise_weighting.h), with policy_surprise_weight.
    bool surprising_fast_searches = false;
    double lcb_stdevs = 0;  // moves past temperature_plies by their lower confidence bound, as players' lcb; 0 = most visited
    int temperature_plies = 12;  // plies played at temperature, the rest at 0
    double temperature = 1.0;
    double opening_share = 0.5;  // games started from the board's opening suite instead of its start position
    double resign_threshold = -0.9;  // root value below which a side resigns; -1 = never
    double no_resign_share = 0.2;    // games played out to measure false resignations
    int games_per_chunk = 16;
  } selfplay;
  struct Training {
    int batch_size = 256;
    int min_samples = 2000;        // samples the run holds before the first step
    int steps_per_candidate = 200;  // a candidate for gating every this many steps
    double max_sample_reuse = 4;    // samples trained per sample played, at most (KataGo's cap)
    double min_sample_reuse = 0;    // at least: self-play waits while training is further behind (0: never)
    std::string optimizer = "sgd";  // sgd (with momentum) or adamw
    double learning_rate = 0.02;
    double momentum = 0.9;
    double weight_decay = 1e-4;
    int warmup_steps = 100;
    double lr_drop_at = 1.0;      // share of run.max_minutes after which the rate is lr_drop_factor of itself (1: never)
    double lr_drop_factor = 0.1;
    int min_window = 5000;        // replay window in samples: grows with the data as in KataGo
    int max_window = 500000;
    double window_exponent = 0.75;
    double policy_weight = 1.0;
    double value_weight = 1.0;
    double ownership_weight = 1.0;  // 1 against 0.1: +93 Elo; 3 against 1: -38 (docs/experiments.md)
    double piece_diff_weight = 0.1;
    double soft_policy_weight = 0.0;  // KataGo's auxiliary soft policy (trainer/soft_policy.h); 0 = no such head
    double search_value_share = 0.0;  // of the value target: the root search's value, the rest the game's result
    std::string teacher;              // a play file whose outputs the net also learns (distillation; "" = none)
    double teacher_share = 0.5;       // of the policy and value targets: the teacher's outputs, where there is one
    bool bf16 = false;                // bfloat16 autocast of the training steps (weights stay float32)
  } training;
  struct Gating {
    int games = 40;
    int visits = 64;
    double threshold = 0.55;  // candidate's score needed, when no SPRT is given
    std::string sprt;         // "elo0,elo1,alpha,beta": decide by SPRT, at most `games` games
    std::string undecided = "reject";  // SPRT without a verdict after `games` games: reject, or decide by threshold
    int concurrency = 2;
    double time_share = 1;  // largest share of wall time that gating and the ladder spend playing
  } gating;
  struct Ladder {
    std::vector<std::string> baselines{"random", "greedy", "alphabeta:depth=2"};  // player specs
    int games = 20;  // per baseline and promoted model
    int visits = 64;
  } ladder;
  // Self-play's inference server, and gating's and the ladder's (players/network_player.h's
  // inference_spec); the inference.* keys set device to cache_entries, the rest keep their defaults.
  InferenceOptions inference;
  // `inference.int8: auto`: int8 where inference runs on a CPU whose build has the int8 convolutions,
  // as players choose by default; the trainer settles it into inference.int8 when a run opens.
  bool int8_auto = false;
  RuleSettings rules;
};

// A board of the run with its share of self-play games (the shares sum to 1) and its suite file.
struct BoardPlan {
  const Board* board;
  double share;
  std::string openings;  // "" = 2 plies from the board's start
};
std::vector<BoardPlan> board_plans(const RunConfig& config);
// Where the run's games start: each board (a game with boards), or the run's one variant.
struct StartPlan {
  std::string name;      // a board's ("7x7") or the variant's (the run's game)
  double share;          // of self-play's games
  std::string openings;  // a file of start positions; "" = the game's own suite
};
std::vector<StartPlan> board_start_plans(const RunConfig& config);
template <GameType G>
std::vector<StartPlan> start_plans(const RunConfig& config) {
  if constexpr (G::kHasBoards)
    return board_start_plans(config);
  else
    return {{config.run.game, 1.0, ""}};
}

// The games a config's run.game may name: games/registry.h's, or the caller's own list (a test's
// game), and what the config asks of each.
struct RunGames {
  struct Facts {
    bool has_boards = false;  // boards: is the run's to choose
    RuleSettings rules;       // the game's own end-of-game numbers
  };
  std::string names;  // every name, for messages
  std::function<std::optional<Facts>(std::string_view name)> find;  // none: not a game of the list

  template <typename List = Games>
  static RunGames of() {
    return {List::names(), [](std::string_view name) -> std::optional<Facts> {
              if (!List::has(name)) return std::nullopt;
              return List::with_game(name, []<typename G>() {
                return Facts{G::kHasBoards, G::settings_of(typename G::Rules{})};
              });
            }};
  }
};

// Throws std::runtime_error: "config FILE: KEY: what is wrong".
RunConfig load_run_config(const std::string& path, const RunGames& games = RunGames::of());
RunConfig parse_run_config(const std::string& yaml_text, const std::string& source,
                           const RunGames& games = RunGames::of());
std::string to_yaml(const RunConfig& config);
// The config with each `key=value` of `overrides` put in place (KataGo's -override-config), read
// and checked as a config file is; errors name the source "--set".
RunConfig with_overrides(const RunConfig& config, const std::vector<std::string>& overrides,
                         const RunGames& games = RunGames::of());
// Every key as a Markdown table (key, default, values, meaning): docs/training.md holds it.
std::string config_keys_table();

}  // namespace ataxx
