#include <chrono>
#include <cstdio>

#include "game/perft.h"
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

}  // namespace

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure speed and print figures");
  bench->require_subcommand(1);

  auto* perft_bench = bench->add_subcommand("perft", "Move generation speed: perft leaves per second");
  auto depths = std::make_shared<std::pair<int, int>>(6, 7);
  perft_bench->add_option("--min-depth", depths->first, "First depth")->check(CLI::Range(1, 9));
  perft_bench->add_option("--max-depth", depths->second, "Last depth")->check(CLI::Range(1, 9));
  perft_bench->callback([depths] { bench_perft(depths->first, depths->second); });
}

}  // namespace ataxx::cli
