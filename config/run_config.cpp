#include "config/run_config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <variant>
#include <vector>

#include "games/registry.h"
#include "stats/elo.h"

namespace ataxx {
namespace {

template <typename T>
struct Bound {
  T* value;
  T min;
  T max;
};
// A switch that may also be left to the machine: true, false or auto.
struct AutoSwitch {
  bool* value;
  bool* automatic;
};
using Target = std::variant<Bound<int>, Bound<double>, Bound<std::uint64_t>, std::string*, bool*, AutoSwitch,
                            std::vector<std::string>*, std::vector<double>*>;

struct Field {
  std::string key;  // "section.name"
  Target target;
  std::string help;
};

constexpr int kIntMax = std::numeric_limits<int>::max();

// Keys of the synchronous loop, which took turns: what to write instead.
const std::map<std::string, std::string> kRetiredKeys = {
    {"selfplay.games_per_generation",
     "self-play now plays without pause; remove it (training.min_samples says when training starts)"},
    {"training.max_steps_per_generation", "renamed training.steps_per_candidate"},
    {"selfplay.openings", "each board has its suite now: boards.openings, a list with one file per board"},
};

// The one list of every configuration key.
std::vector<Field> fields(RunConfig& c) {
  auto& r = c.run;
  auto& n = c.network;
  auto& b = c.boards;
  auto& s = c.selfplay;
  auto& t = c.training;
  auto& g = c.gating;
  auto& l = c.ladder;
  auto& i = c.inference;
  return {
      {"run.seed", Bound<std::uint64_t>{&r.seed, 0, std::numeric_limits<std::uint64_t>::max()}, "random seed"},
      {"run.max_minutes", Bound<double>{&r.max_minutes, 0.01, 1e7},
       "wall-time budget of the run, over all its starts (a resumed run spends what is left)"},
      {"run.max_generations", Bound<int>{&r.max_generations, 1, kIntMax}, "candidates to train"},
      {"run.game", &r.game, Games::names()},
      {"network.blocks", Bound<int>{&n.blocks, 1, 64}, "residual blocks"},
      {"network.channels", Bound<int>{&n.channels, 8, 1024}, "channels per block"},
      {"network.init_from", &n.init_from,
       "play file whose weights a new run starts from: the run's channels, any blocks (added ones start as "
       "identities, the file's last ones are left out), boards among its boards (\"\": random weights)"},
      {"boards.names", &b.names, "the boards of the run: 4x4 .. 8x8, hexagon"},
      {"boards.shares", &b.shares, "relative share of self-play games per board ([]: equal)"},
      {"boards.openings", &b.openings, "opening suite file per board (\"\" or []: 2 plies from its start)"},
      {"selfplay.threads", Bound<int>{&s.threads, 1, 256}, "worker threads"},
      {"selfplay.concurrent_games", Bound<int>{&s.concurrent_games, 1, 65536}, "games per worker at once"},
      {"selfplay.visits", Bound<int>{&s.visits, 1, 1000000}, "visits of a full search"},
      {"selfplay.fast_visits", Bound<int>{&s.fast_visits, 1, 1000000}, "visits of a fast search"},
      {"selfplay.full_search_share", Bound<double>{&s.full_search_share, 0.01, 1},
       "share of full searches (the only policy targets)"},
      {"selfplay.leaves_per_round", Bound<int>{&s.leaves_per_round, 1, 1024}, "leaves per tree per batch"},
      {"selfplay.dirichlet_alpha", Bound<double>{&s.dirichlet_alpha, 1e-3, 100}, "root noise alpha"},
      {"selfplay.dirichlet_weight", Bound<double>{&s.dirichlet_weight, 0, 1}, "root noise weight"},
      {"selfplay.c_puct", Bound<double>{&s.c_puct, 0.01, 100}, "the searches' exploration constant, as players' cpuct"},
      {"selfplay.forced_playouts_k", Bound<double>{&s.forced_playouts_k, 0, 100},
       "forced playouts at the root of full searches, sqrt(k x prior x visits), pruned from the policy target; 0 = "
       "none"},
      {"selfplay.policy_temperature", Bound<double>{&s.policy_temperature, 0.1, 10},
       "the searches' priors p^(1/T) (above 1 flatter than the net's, as players' ptemp); 1 = the net's own"},
      {"selfplay.policy_surprise_weight", Bound<double>{&s.policy_surprise_weight, 0, 1},
       "share of the samples written by their policy surprise (the search's target against the net's priors) "
       "rather than once each, as KataGo's policySurpriseDataWeight; 0 = once each"},
      {"selfplay.value_surprise_weight", Bound<double>{&s.value_surprise_weight, 0, 1},
       "share of the samples written by their value surprise (the game's result, smoothed through the later searches' "
       "values, against the net's value), as KataGo's valueSurpriseDataWeight; 0 = none; with policy_surprise_weight "
       "at most 1"},
      {"selfplay.surprising_fast_searches", &s.surprising_fast_searches,
       "with policy_surprise_weight: fast searches' samples written too, for their policy surprise beyond 1.5 x the "
       "game's full searches' mean, as KataGo; false = full searches' alone"},
      {"selfplay.lcb_stdevs", Bound<double>{&s.lcb_stdevs, 0, 100},
       "the moves played past temperature_plies: the root child of highest mean value less this many standard errors, "
       "as players' lcb (0: the most visited)"},
      {"selfplay.temperature_plies", Bound<int>{&s.temperature_plies, 0, 10000}, "plies chosen at temperature"},
      {"selfplay.temperature", Bound<double>{&s.temperature, 0, 100}, "move choice temperature"},
      {"selfplay.opening_share", Bound<double>{&s.opening_share, 0, 1}, "share of games from the opening suite"},
      {"selfplay.resign_threshold", Bound<double>{&s.resign_threshold, -1, 1},
       "resign below this root value (-1: never)"},
      {"selfplay.no_resign_share", Bound<double>{&s.no_resign_share, 0, 1}, "games played out to check resignation"},
      {"selfplay.games_per_chunk", Bound<int>{&s.games_per_chunk, 1, 100000}, "games per written chunk"},
      {"training.batch_size", Bound<int>{&t.batch_size, 1, 65536}, "samples per step"},
      {"training.min_samples", Bound<int>{&t.min_samples, 1, kIntMax}, "samples played before the first step"},
      {"training.steps_per_candidate", Bound<int>{&t.steps_per_candidate, 1, kIntMax}, "steps between candidates"},
      {"training.max_sample_reuse", Bound<double>{&t.max_sample_reuse, 0.01, 1000},
       "samples trained per sample played, at most"},
      {"training.min_sample_reuse", Bound<double>{&t.min_sample_reuse, 0, 1000},
       "samples trained per sample played, at least: self-play waits while training is further behind (0: never)"},
      {"training.optimizer", &t.optimizer, "sgd or adamw"},
      {"training.learning_rate", Bound<double>{&t.learning_rate, 1e-7, 10}, "learning rate"},
      {"training.momentum", Bound<double>{&t.momentum, 0, 0.999}, "SGD momentum"},
      {"training.weight_decay", Bound<double>{&t.weight_decay, 0, 1}, "weight decay"},
      {"training.warmup_steps", Bound<int>{&t.warmup_steps, 0, kIntMax}, "linear learning-rate warm-up"},
      {"training.lr_drop_at", Bound<double>{&t.lr_drop_at, 0, 1},
       "share of run.max_minutes after which the learning rate drops (1: never)"},
      {"training.lr_drop_factor", Bound<double>{&t.lr_drop_factor, 1e-6, 1},
       "learning rate after the drop, as a share of it"},
      {"training.min_window", Bound<int>{&t.min_window, 1, kIntMax}, "smallest replay window (samples)"},
      {"training.max_window", Bound<int>{&t.max_window, 1, kIntMax}, "largest replay window (samples)"},
      {"training.window_exponent", Bound<double>{&t.window_exponent, 0.1, 1}, "window growth exponent"},
      {"training.policy_weight", Bound<double>{&t.policy_weight, 0, 100}, "policy loss weight"},
      {"training.value_weight", Bound<double>{&t.value_weight, 0, 100}, "value loss weight"},
      {"training.ownership_weight", Bound<double>{&t.ownership_weight, 0, 100}, "ownership loss weight"},
      {"training.piece_diff_weight", Bound<double>{&t.piece_diff_weight, 0, 100}, "piece difference loss weight"},
      {"training.soft_policy_weight", Bound<double>{&t.soft_policy_weight, 0, 100},
       "auxiliary soft policy loss weight (visit shares to the power 1/4; 0: no such head)"},
      {"training.search_value_share", Bound<double>{&t.search_value_share, 0, 1},
       "share of the value target taken from the root search's value instead of the game's result"},
      {"training.teacher", &t.teacher,
       "play file whose policy and value the net learns beside its targets (knowledge distillation: a smaller net "
       "taught by a bigger one), any shape of the run's game and boards (\"\": none)"},
      {"training.teacher_share", Bound<double>{&t.teacher_share, 0, 1},
       "share of the policy and value targets taken from the teacher's outputs, the rest the search's and the game's"},
      {"training.bf16", &t.bf16, "bfloat16 autocast of the training steps (for CUDA; slow on the CPU)"},
      {"gating.games", Bound<int>{&g.games, 0, kIntMax},
       "games candidate vs best (at most, with SPRT; 0: no gating, every candidate promoted)"},
      {"gating.visits", Bound<int>{&g.visits, 1, 1000000}, "visits per move in gating"},
      {"gating.threshold", Bound<double>{&g.threshold, 0, 1}, "score needed to promote"},
      {"gating.sprt", &g.sprt, "elo0,elo1,alpha,beta (empty: fixed games and threshold)"},
      {"gating.undecided", &g.undecided, "an SPRT gating that reaches gating.games undecided: reject or threshold"},
      {"gating.concurrency", Bound<int>{&g.concurrency, 1, 256}, "games at once"},
      {"gating.time_share", Bound<double>{&g.time_share, 0.01, 1},
       "largest share of wall time that gating and the ladder play; between gates they rest (1: never)"},
      {"ladder.baselines", &l.baselines, "player specs each promoted model plays, a YAML list"},
      {"ladder.games", Bound<int>{&l.games, 0, kIntMax}, "games per baseline (0: no ladder)"},
      {"ladder.visits", Bound<int>{&l.visits, 1, 1000000}, "visits per move in ladder games"},
      {"inference.device", &i.device, "cpu, cuda or cuda:N"},
      {"inference.bf16", &i.bf16, "bfloat16 inference (CUDA; on the CPU the direct convolutions, with AVX512-BF16)"},
      {"inference.int8", AutoSwitch{&i.int8, &c.int8_auto},
       "int8 inference: the CPU's direct convolutions with AVX2 or later (before bf16); auto: where the CPU has "
       "them"},
      {"inference.cuda_graphs", &i.cuda_graphs,
       "replay inference batches as CUDA graphs (a build with ATAXX_CUDA_GRAPHS)"},
      {"inference.max_batch", Bound<int>{&i.max_batch, 1, 65536}, "largest batch"},
      {"inference.threads", Bound<int>{&i.threads, 1, 256}, "inference threads"},
      {"inference.cache_entries", Bound<int>{&i.cache_entries, 0, kIntMax}, "evaluation cache size (0: none)"},
      {"rules.halfmove_limit", Bound<int>{&c.rules.halfmove_limit, 0, 10000}, "halfmove clock draw (0: off)"},
      {"rules.repetition_limit", Bound<int>{&c.rules.repetition_limit, 0, 100}, "repetitions ending the game (0: off)"},
  };
}

[[noreturn]] void fail(const std::string& source, const std::string& key, const std::string& what) {
  throw std::runtime_error("config " + source + ": " + key + ": " + what);
}

template <typename T>
void assign(const YAML::Node& node, Bound<T> bound, const std::string& source, const std::string& key) {
  auto out_of_range = [&] {
    std::ostringstream range;
    range << "[" << bound.min << ", " << bound.max << "]";
    fail(source, key, node.as<std::string>() + " is out of range " + range.str());
  };
  const std::string text = node.as<std::string>("?");
  // YAML 1.1, which yaml-cpp reads, takes 010 for 8: a leading zero is refused, not guessed at.
  if (std::regex_match(text, std::regex("[-+]?0[0-9]+([.eE].*)?")))
    fail(source, key, "'" + text + "' has a leading zero (which YAML reads as octal): write it without");
  T value;
  try {
    value = node.as<T>();
  } catch (const YAML::Exception&) {
    const bool a_number = std::regex_match(
        text,
        std::regex(std::is_integral_v<T> ? "[-+]?[0-9]+" : "[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?"));
    if (a_number) out_of_range();  // too many digits, or past a double's range
    fail(source, key, "'" + text + "' is not " + (std::is_integral_v<T> ? "an integer" : "a number"));
  }
  // Written so that NaN fails too (every comparison with it is false).
  if (!(value >= bound.min && value <= bound.max)) out_of_range();
  *bound.value = value;
}

void read_list(const YAML::Node& node, std::vector<std::string>* target, const std::string& source,
               const std::string& key) {
  if (!node.IsSequence()) fail(source, key, "expected a YAML list: [a, b], or one `- item` a line");
  target->clear();
  for (const YAML::Node& item : node) {
    if (!item.IsScalar()) fail(source, key, "each entry must be one value");
    target->push_back(item.Scalar());
  }
}

void read_list(const YAML::Node& node, std::vector<double>* target, const std::string& source, const std::string& key) {
  if (!node.IsSequence()) fail(source, key, "expected a YAML list of numbers, e.g. [2, 1, 1]");
  target->clear();
  for (const YAML::Node& item : node) {
    double value = 0;
    try {
      value = item.as<double>();
    } catch (const YAML::Exception&) {
      fail(source, key, "'" + item.as<std::string>("?") + "' is not a number");
    }
    if (!(value > 0 && value < 1e9)) fail(source, key, "every share must be a positive number");
    target->push_back(value);
  }
}

void validate_boards(const RunConfig::Boards& b, const std::string& source) {
  if (b.names.empty()) fail(source, "boards.names", "names no board");
  for (std::size_t i = 0; i < b.names.size(); ++i) {
    if (!find_board(b.names[i]))
      fail(source, "boards.names", "unknown board '" + b.names[i] + "' (boards: 4x4, 5x5, 6x6, 7x7, 8x8, hexagon)");
    if (std::find(b.names.begin(), b.names.begin() + i, b.names[i]) != b.names.begin() + i)
      fail(source, "boards.names", b.names[i] + " is named twice");
  }
  if (!b.shares.empty() && b.shares.size() != b.names.size())
    fail(source, "boards.shares", "has " + std::to_string(b.shares.size()) + " entries for " +
                                      std::to_string(b.names.size()) + " boards");
  if (!b.openings.empty() && b.openings.size() != b.names.size())
    fail(source, "boards.openings", "has " + std::to_string(b.openings.size()) + " entries for " +
                                        std::to_string(b.names.size()) + " boards");
}

void validate(const RunConfig& c, const std::string& source, const RunGames& games) {
  validate_boards(c.boards, source);
  const std::optional<RunGames::Facts> game = games.find(c.run.game);
  if (!game) fail(source, "run.game", "'" + c.run.game + "' is none of " + games.names);
  if (!game->has_boards && (c.boards.names != RunConfig::Boards{}.names || !c.boards.openings.empty()))
    fail(source, "boards", "chooses Ataxx's boards; a " + c.run.game + " run has its one board");
  for (const std::string& baseline : c.ladder.baselines)
    if (baseline.empty()) fail(source, "ladder.baselines", "each entry must be one non-empty value");
  if (c.training.optimizer != "sgd" && c.training.optimizer != "adamw")
    fail(source, "training.optimizer", "'" + c.training.optimizer + "' is neither sgd nor adamw");
  if (c.training.min_sample_reuse > c.training.max_sample_reuse)
    fail(source, "training.min_sample_reuse",
         fmt::format("{} is larger than training.max_sample_reuse ({})", c.training.min_sample_reuse,
                     c.training.max_sample_reuse));
  if (c.training.min_window > c.training.max_window)
    fail(source, "training.min_window",
         fmt::format("{} is larger than training.max_window ({})", c.training.min_window, c.training.max_window));
  if (c.training.teacher.empty() && c.training.teacher_share != RunConfig::Training{}.teacher_share)
    fail(source, "training.teacher_share", "is set but there is no training.teacher");
  if (c.gating.undecided != "reject" && c.gating.undecided != "threshold")
    fail(source, "gating.undecided", "'" + c.gating.undecided + "' is neither reject nor threshold");
  if (c.selfplay.policy_surprise_weight + c.selfplay.value_surprise_weight > 1)
    fail(source, "selfplay.value_surprise_weight",
         "plus selfplay.policy_surprise_weight is above 1: the two share the samples' weight");
  if (c.rules.repetition_limit == 1)
    fail(source, "rules.repetition_limit", "is 1: every position has occurred once, so 0 (off) or at least 2");
  if (std::set<std::string>(c.ladder.baselines.begin(), c.ladder.baselines.end()).size() != c.ladder.baselines.size())
    fail(source, "ladder.baselines", "names a baseline twice");
  if (c.gating.games == 1) fail(source, "gating.games", "is 1: a gating plays both colours, so 0 (no gating) or at least 2");
  if (c.gating.games == 0 && !c.gating.sprt.empty()) fail(source, "gating.sprt", "needs gating games, and gating.games is 0");
  if (!c.gating.sprt.empty()) {
    try {
      parse_sprt(c.gating.sprt);
    } catch (const std::invalid_argument& e) {
      fail(source, "gating.sprt", e.what());
    }
  }
}

bool read_switch(const YAML::Node& node, const std::string& source, const std::string& key, const std::string& choices) {
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    fail(source, key, "'" + node.as<std::string>() + "' is not " + choices);
  }
}

void read_sections(const YAML::Node& root, std::map<std::string, Target>& table, const std::string& source) {
  std::set<std::string> seen;  // a key given twice: its first value would be overwritten unsaid
  for (const auto& section : root) {
    const std::string name = section.first.as<std::string>();
    if (!seen.insert(name).second) fail(source, name, "the section is given twice");
    if (!section.second.IsMap()) fail(source, name, "expected a section of key: value lines");
    for (const auto& entry : section.second) {
      const std::string key = name + "." + entry.first.as<std::string>();
      if (!seen.insert(key).second) fail(source, key, "is given twice");
      const auto it = table.find(key);
      if (it == table.end()) {
        const auto retired = kRetiredKeys.find(key);
        fail(source, key, retired == kRetiredKeys.end() ? "unknown key" : retired->second);
      }
      std::visit(
          [&](auto target) {
            using T = decltype(target);
            if constexpr (std::is_same_v<T, std::vector<std::string>*> || std::is_same_v<T, std::vector<double>*>) {
              read_list(entry.second, target, source, key);
            } else if (!entry.second.IsScalar()) {
              fail(source, key, "expected a single value");
            } else if constexpr (std::is_same_v<T, std::string*>) {
              *target = entry.second.as<std::string>();
            } else if constexpr (std::is_same_v<T, bool*>) {
              *target = read_switch(entry.second, source, key, "true or false");
            } else if constexpr (std::is_same_v<T, AutoSwitch>) {
              *target.automatic = entry.second.Scalar() == "auto";
              if (!*target.automatic) *target.value = read_switch(entry.second, source, key, "true, false or auto");
            } else {
              assign(entry.second, target, source, key);
            }
          },
          it->second);
    }
  }
}

}  // namespace

std::vector<BoardPlan> board_plans(const RunConfig& config) {
  const auto& b = config.boards;
  double total = 0;
  for (std::size_t i = 0; i < b.names.size(); ++i) total += b.shares.empty() ? 1.0 : b.shares[i];
  std::vector<BoardPlan> plans;
  for (std::size_t i = 0; i < b.names.size(); ++i)
    plans.push_back({find_board(b.names[i]), (b.shares.empty() ? 1.0 : b.shares[i]) / total,
                     b.openings.empty() ? "" : b.openings[i]});
  return plans;
}

std::vector<StartPlan> board_start_plans(const RunConfig& config) {
  std::vector<StartPlan> plans;
  for (const BoardPlan& plan : board_plans(config)) plans.push_back({std::string(plan.board->name), plan.share, plan.openings});
  return plans;
}

RunConfig parse_run_config(const std::string& yaml_text, const std::string& source, const RunGames& games) {
  YAML::Node root;
  try {
    const std::vector<YAML::Node> documents = YAML::LoadAll(yaml_text);
    if (documents.size() > 1)
      throw std::runtime_error("config " + source + ": holds " + std::to_string(documents.size()) +
                               " YAML documents (each after a ---): a config is one");
    if (!documents.empty()) root = documents.front();
  } catch (const YAML::Exception& e) {
    throw std::runtime_error("config " + source + ": not valid YAML: " + e.what());
  }
  RunConfig config;
  if (root.IsNull()) return config;
  if (!root.IsMap()) throw std::runtime_error("config " + source + ": expected sections (run:, network:, ...)");
  std::map<std::string, Target> table;
  for (Field& field : fields(config)) table.emplace(field.key, field.target);
  try {
    read_sections(root, table, source);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error("config " + source + ": " + e.msg);
  }
  // The game's own default (in some games a position that recurs once ends the game).
  const std::optional<RunGames::Facts> game = games.find(config.run.game);
  if (game && !(root["rules"] && root["rules"]["repetition_limit"])) config.rules.repetition_limit = game->rules.repetition_limit;
  validate(config, source, games);
  return config;
}

RunConfig load_run_config(const std::string& path, const RunGames& games) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("config " + path + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_run_config(text.str(), path, games);
}

RunConfig with_overrides(const RunConfig& config, const std::vector<std::string>& overrides, const RunGames& games) {
  YAML::Node root = YAML::Load(to_yaml(config));
  for (const std::string& line : overrides) {
    const std::size_t equals = line.find('=');
    const std::size_t dot = line.find('.');
    if (equals == std::string::npos || dot == std::string::npos || dot > equals)
      throw std::runtime_error("config --set: '" + line + "' is not SECTION.KEY=VALUE (e.g. selfplay.threads=4)");
    const std::string section = line.substr(0, dot), key = line.substr(dot + 1, equals - dot - 1);
    if (!root[section]) throw std::runtime_error("config --set: " + line.substr(0, equals) + ": unknown key");
    const std::string value = line.substr(equals + 1);
    try {
      if (value.find_first_of("\n\r#&*") != std::string::npos) throw YAML::Exception({}, "not one plain value");
      root[section][key] = YAML::Load(value);
    } catch (const YAML::Exception& e) {
      throw std::runtime_error("config --set " + line + ": " + e.msg);
    }
  }
  return parse_run_config(YAML::Dump(root), "--set", games);
}

std::string to_yaml(const RunConfig& config) {
  RunConfig copy = config;
  YAML::Emitter out;
  out.SetDoublePrecision(10);
  out << YAML::BeginMap;
  std::string section;
  for (const Field& field : fields(copy)) {
    const std::size_t dot = field.key.find('.');
    if (field.key.compare(0, dot, section) != 0 || section.size() != dot) {
      if (!section.empty()) out << YAML::EndMap;
      section = field.key.substr(0, dot);
      out << YAML::Key << section << YAML::Value << YAML::BeginMap;
    }
    out << YAML::Key << field.key.substr(dot + 1) << YAML::Value;
    std::visit(
        [&](auto target) {
          using T = decltype(target);
          if constexpr (std::is_same_v<T, std::vector<std::string>*> || std::is_same_v<T, std::vector<double>*>)
            out << YAML::Flow << *target;
          else if constexpr (std::is_same_v<T, std::string*> || std::is_same_v<T, bool*>) out << *target;
          else if constexpr (std::is_same_v<T, AutoSwitch>) {
            if (*target.automatic) out << "auto";
            else out << *target.value;
          } else out << *target.value;
        },
        field.target);
    out << YAML::Comment(field.help);
  }
  out << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}


std::string config_keys_table() {
  RunConfig defaults;
  std::string table = "| key | default | values | meaning |\n|---|---|---|---|\n";
  const auto cell = [](std::string text) {
    for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) text.replace(at, 1, "\\|");
    return text;
  };
  for (const Field& field : fields(defaults)) {
    const auto [shown, values] = std::visit(
        [](auto target) -> std::pair<std::string, std::string> {
          using T = decltype(target);
          if constexpr (std::is_same_v<T, std::vector<std::string>*> || std::is_same_v<T, std::vector<double>*>)
            return {fmt::format("[{}]", fmt::join(*target, ", ")), "a YAML list"};
          else if constexpr (std::is_same_v<T, std::string*>)
            return {target->empty() ? "(none)" : *target, "text"};
          else if constexpr (std::is_same_v<T, bool*>)
            return {*target ? "true" : "false", "true, false"};
          else if constexpr (std::is_same_v<T, AutoSwitch>)
            return {*target.automatic ? "auto" : *target.value ? "true" : "false", "true, false, auto"};
          else
            return {fmt::format("{}", *target.value), fmt::format("{} to {}", target.min, target.max)};
        },
        field.target);
    table += fmt::format("| `{}` | {} | {} | {} |\n", field.key, cell(shown), values, cell(field.help));
  }
  return table;
}

}  // namespace ataxx
