#include <chrono>
#include <cstdio>

#include <memory>
#include <vector>

#include "game/perft.h"
#include "mcts/search.h"
#include "mcts/simple_evaluators.h"
#include "selfplay/openings.h"
#include "tools/commands.h"

namespace ataxx::cli {
namespace {

void bench_perft(int min_depth, int max_depth) {
  const Position start = Position::startpos();
  std::printf("perft from the start position, 1 thread, leaves counted at the last ply\n");
  std::printf("%5s %14s %10s %16s\n", "depth", "leaves", "seconds", "leaves/s");
  for (int depth = min_depth; depth <= max_depth; ++depth) {
    const auto begin = std::chrono::steady_clock::now();
    const std::uint64_t leaves = perft(start, depth);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("%5d %14llu %10.3f %16.0f\n", depth, static_cast<unsigned long long>(leaves), seconds,
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
    const auto begin = std::chrono::steady_clock::now();
    run_searches(pointers, *evaluator);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    long long simulations = 0;
    for (const auto& search : searches) simulations += search->result().total_visits;
    std::printf("%-10s %12lld %10.3f %14.0f\n", name, simulations, seconds, simulations / seconds);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure speed and print figures");
  bench->require_subcommand(1);

  auto* perft_bench = bench->add_subcommand("perft", "Move generation speed: perft leaves per second");
  auto depths = std::make_shared<std::pair<int, int>>(6, 7);
  perft_bench->add_option("--min-depth", depths->first, "First depth")->check(CLI::Range(1, 9));
  perft_bench->add_option("--max-depth", depths->second, "Last depth")->check(CLI::Range(1, 9));
  perft_bench->callback([depths] { bench_perft(depths->first, depths->second); });

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
}

}  // namespace ataxx::cli
