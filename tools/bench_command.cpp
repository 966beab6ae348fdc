#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "games/ataxx/game.h"
#include "games/ataxx/perft.h"
#include "match/openings.h"
#include "mcts/search.h"
#include "mcts/simple_evaluators.h"
#include "players/engine_process.h"
#include "tools/benches.h"
#include "tools/commands.h"
#include "util/clock.h"
#include "util/text.h"

namespace ataxx::cli {
namespace {

void bench_perft(const std::string& fen, int min_depth, int max_depth) {
  const Position start = Position::from_fen(fen);
  std::printf("perft from %s (%s), 1 thread, leaves counted at the last ply\n", start.fen().c_str(),
              std::string(start.board().name).c_str());
  // A shallow depth is counted again until a tenth of a second has passed: one count of it is too
  // short for the clock.
  constexpr double kMinSeconds = 0.1;
  std::printf("%5s %14s %9s %12s %16s\n", "depth", "leaves", "counts", "seconds", "leaves/s");
  for (int depth = min_depth; depth <= max_depth; ++depth) {
    const SteadyClock::time_point begin = SteadyClock::now();
    std::uint64_t leaves = 0;
    int counts = 0;
    do {
      leaves = perft(start, depth);
      ++counts;
    } while (seconds_since(begin) < kMinSeconds);
    const double seconds = seconds_since(begin) / counts;
    std::printf("%5d %14llu %9d %12.3g %16.0f\n", depth, static_cast<unsigned long long>(leaves), counts, seconds,
                leaves / seconds);
  }
}

// Simulations per second of many concurrent trees on one thread, as self-play drives them.
void bench_mcts(int trees, int visits, int leaves_per_round) {
  const auto openings = default_openings();
  std::printf("mcts: %d trees x %d visits from different openings, %d leaves per tree per batch, 1 thread,"
              " after one warm-up search per tree\n", trees,
              visits, leaves_per_round);
  std::printf("%-10s %12s %10s %14s\n", "evaluator", "simulations", "seconds", "simulations/s");
  UniformEvaluator uniform;
  MaterialEvaluator material;
  for (auto [name, evaluator] : {std::pair<const char*, Evaluator*>{"no-op", &uniform}, {"material", &material}}) {
    SearchParams params;
    params.visits = visits;
    params.leaves_per_round = leaves_per_round;
    std::vector<std::unique_ptr<Search>> searches;
    std::vector<Search*> pointers;
    for (int i = 0; i < trees; ++i) {
      searches.push_back(std::make_unique<Search>(params, i));
      searches.back()->set_root(openings[i % openings.size()]);
      pointers.push_back(searches.back().get());
    }
    // One untimed search first: self-play reuses each tree's node arena, already grown.
    run_searches(pointers, *evaluator);
    for (int i = 0; i < trees; ++i) searches[i]->set_root(openings[(i + trees) % openings.size()]);
    const SteadyClock::time_point begin = SteadyClock::now();
    run_searches(pointers, *evaluator);
    const double seconds = seconds_since(begin);
    long long simulations = 0;
    for (const auto& search : searches) simulations += search->result().total_visits;
    std::printf("%-10s %12lld %10.3f %14.0f\n", name, simulations, seconds, simulations / seconds);
  }
}

// The value after `key` in an info line ("info depth 3 nodes 1200 ..."), or -1.
long long info_field(const std::string& line, const std::string& key) {
  const std::string token = " " + key + " ";
  const auto at = line.find(token);
  return at == std::string::npos ? -1 : std::atoll(line.c_str() + at + token.size());
}

struct TimedMove {
  double answer_ms = 0;
  long long nodes = -1, engine_ms = -1;  // as the search's last info line gave them; -1 where it did not
};

// One `go movetime` at game's position, as a new game, timed to its bestmove, which game then
// plays. Throws where the engine says it failed (`info string error`).
TimedMove time_one_move(EngineProcess& engine, const std::string& engine_command, Game& game, int movetime_ms) {
  std::string position = "position startpos";
  if (!game.moves().empty()) position += " moves";
  for (const Move m : game.moves()) position.append(" ").append(to_string(m, game.position().board()));
  engine.send("uainewgame");
  engine.send(position);
  engine.send("isready");
  engine.expect("readyok", 10'000);
  const SteadyClock::time_point begin = SteadyClock::now();
  engine.send("go movetime " + std::to_string(movetime_ms));
  const auto deadline = begin + std::chrono::milliseconds(movetime_ms + 10'000);
  std::string line, last_info;
  while ((line = engine.read_line(deadline)).rfind("bestmove", 0) != 0) {
    if (line.rfind("info string error", 0) == 0)
      throw std::runtime_error("engine '" + engine_command + "' said: " + line.substr(12));
    if (line.rfind("info", 0) == 0 && info_field(line, "nodes") >= 0) last_info = line;
  }
  TimedMove timed{.answer_ms = 1000 * seconds_since(begin),
                  .nodes = info_field(last_info, "nodes"),
                  .engine_ms = info_field(last_info, "time")};
  game.play(line.substr(9, line.find(' ', 9) - 9));
  return timed;
}

void bench_uai(const std::string& engine_command, int moves, int movetime_ms, int threads) {
  EngineProcess engine(engine_command);
  engine.send("uai");
  engine.expect("uaiok", 10'000);
  if (threads > 0) engine.send("setoption name Threads value " + std::to_string(threads));
  Game game;
  std::vector<double> latencies;
  long long nodes = 0, engine_ms = 0;
  for (int i = 0; i < moves; ++i) {
    if (game.outcome().is_over()) game = Game();
    const TimedMove timed = time_one_move(engine, engine_command, game, movetime_ms);
    if (timed.nodes < 0 || timed.engine_ms < 0)
      throw std::runtime_error("engine '" + engine_command +
                               "' gave no info line with its nodes and time: no speed to give");
    latencies.push_back(timed.answer_ms);
    nodes += timed.nodes;
    engine_ms += timed.engine_ms;
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf(
      "uai: %s, %d moves of go movetime %d: answered in min %.1f ms, median %.1f ms, max %.1f ms; "
      "%.0f nodes/s\n",
      engine_command.c_str(), moves, movetime_ms, latencies.front(), latencies[latencies.size() / 2], latencies.back(),
      1000.0 * nodes / std::max(engine_ms, 1LL));
}

}  // namespace

void add_network_options(CLI::App& bench, BenchNetwork& network, const std::string& bf16_help) {
  bench.add_option("--blocks", network.blocks, "Residual blocks")->check(CLI::Range(1, 64));
  bench.add_option("--channels", network.channels, "Channels")->check(CLI::Range(8, 1024));
  bench.add_option("--device", network.device, "cpu, cuda or cuda:N");
  bench.add_flag("--bf16", network.bf16, bf16_help);
}

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure speed and print figures");
  bench->require_subcommand(1);

  auto* perft_bench = bench->add_subcommand("perft", "Move generation speed: perft leaves per second");
  struct PerftOptions {
    std::string fen{Position::kStartFen};
    int min_depth = 6;
    int max_depth = 7;
  };
  auto perft_options = std::make_shared<PerftOptions>();
  perft_bench->add_option("--fen", perft_options->fen,
                          "Root position, on any board of Ataxx (default: the 7x7 start; Schataxx: perft --variant)");
  perft_bench->add_option("--min-depth", perft_options->min_depth, "First depth")->check(CLI::Range(1, 9));
  perft_bench->add_option("--max-depth", perft_options->max_depth, "Last depth")->check(CLI::Range(1, 9));
  perft_bench->callback([perft_options] {
    if (perft_options->min_depth > perft_options->max_depth)
      throw std::runtime_error("bench perft: --min-depth " + std::to_string(perft_options->min_depth) +
                               " is above --max-depth " + std::to_string(perft_options->max_depth));
    bench_perft(perft_options->fen, perft_options->min_depth, perft_options->max_depth);
  });

  struct MctsOptions {
    int trees = 64;
    int visits = 1600;
    int leaves = 8;
  };
  auto mcts = std::make_shared<MctsOptions>();
  auto* mcts_bench = bench->add_subcommand("mcts", "Search speed: simulations per second on one thread");
  mcts_bench->add_option("--trees", mcts->trees, "Concurrent trees (games)")->check(CLI::Range(1, 4096));
  mcts_bench->add_option("--visits", mcts->visits, "Visits per search")->check(CLI::Range(1, 1'000'000));
  mcts_bench->add_option("--leaves", mcts->leaves, "Leaves per tree per batch")->check(CLI::Range(1, 1024));
  mcts_bench->callback([mcts] { bench_mcts(mcts->trees, mcts->visits, mcts->leaves); });

  add_inference_benches(*bench);
  add_train_bench(*bench);

  struct UaiOptions {
    std::string engine;
    int moves = 50;
    int movetime = 100;
    int threads = 0;
  };
  auto uai = std::make_shared<UaiOptions>();
  auto* uai_bench = bench->add_subcommand("uai", "UAI answer time for go movetime, over pipes");
  uai_bench->add_option("--engine", uai->engine, "Engine command (default: this binary's uai)");
  uai_bench->add_option("--moves", uai->moves, "Moves to time")->check(CLI::Range(1, 100000));
  uai_bench->add_option("--movetime", uai->movetime, "go movetime value, ms")->check(CLI::Range(1, 3'600'000));
  uai_bench->add_option("--threads", uai->threads, "setoption Threads (default: the engine's own)")
      ->check(CLI::Range(1, 64))
      ->default_str("");
  uai_bench->callback([uai] {
    std::string engine = uai->engine;
    if (engine.empty()) engine = shell_quoted(std::filesystem::read_symlink("/proc/self/exe").string()) + " uai";
    bench_uai(engine, uai->moves, uai->movetime, uai->threads);
  });
}

}  // namespace ataxx::cli
