#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <vector>

#include "selfplay/training_data.h"
#include "tools/benches.h"
#include "trainer/replay_buffer.h"
#include "trainer/trainer.h"
#include "util/clock.h"
#include "util/temporary_directory.h"

namespace ataxx::cli {
namespace {

struct TrainBenchOptions : BenchNetwork {
  int batch = 256;
  int samples = 20000;  // in the replay window
  double seconds = 10;
};

// Positions of random games, each with visits on every legal move: training samples with the
// policy width of real ones.
std::vector<TrainingSample> random_samples(int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<TrainingSample> samples;
  while (static_cast<int>(samples.size()) < count) {
    Position position = Position::startpos();
    MoveList moves;
    for (position.generate_moves(moves); !moves.empty() && static_cast<int>(samples.size()) < count;
         position.generate_moves(moves)) {
      TrainingSample s;
      s.position = position;
      for (const Move move : moves) s.visits.emplace_back(move, static_cast<std::uint16_t>(1 + rng() % 50));
      s.result = static_cast<std::int8_t>(static_cast<int>(rng() % 3) - 1);
      s.final_x = position.pieces(Color::kX), s.final_o = position.pieces(Color::kO);
      samples.push_back(std::move(s));
      position.make_move(moves[static_cast<int>(rng() % moves.size())]);
      moves.clear();
    }
  }
  return samples;
}

// Samples trained per second: the trainer's steps (batch assembly, forward, backward, optimiser)
// on a replay window of random positions, timed over whole calls (each ends in one host sync).
void bench_train(const TrainBenchOptions& o) {
  const TemporaryDirectory scratch("ataxx-zero-bench");  // removed when the bench ends, or fails
  const std::string games = scratch.path() + "/games";
  std::filesystem::create_directories(games);
  write_chunk(games + "/gen-0000-bench.zst", 1, random_samples(o.samples, 1));
  RunConfig config;
  config.network.blocks = o.blocks;
  config.network.channels = o.channels;
  config.inference.device = o.device;
  config.training.bf16 = o.bf16;
  config.training.batch_size = o.batch;
  ReplayBuffer buffer(config.training);
  buffer.refresh(games);
  Trainer trainer(config, "", "", trained_game<DefaultGame>(boards_of(config)));
  std::mt19937_64 rng(1);
  constexpr int kStepsPerCall = 10;
  trainer.train(buffer, kStepsPerCall, 0, rng);  // warm-up: the first steps build the kernels
  const SteadyClock::time_point begin = SteadyClock::now();
  int steps = 0;
  for (; seconds_since(begin) < o.seconds; steps += kStepsPerCall) trainer.train(buffer, kStepsPerCall, 0, rng);
  const double seconds = seconds_since(begin);
  std::printf("train: %d blocks x %d channels on %s%s, batch %d, window %lld samples\n", o.blocks, o.channels,
              o.device.c_str(), o.bf16 ? " (bf16 autocast)" : "", o.batch, static_cast<long long>(buffer.window()));
  std::printf("%d steps in %.1f s: %.1f steps/s, %.0f samples/s\n", steps, seconds, steps / seconds,
              steps * o.batch / seconds);
}

// Time from `go movetime T` to `bestmove` over pipes, as a match runner sees it, and the nodes
// per second the engine's last info line of each move reports. Each move starts a new game

}  // namespace

void add_train_bench(CLI::App& bench) {
  auto train = std::make_shared<TrainBenchOptions>();
  auto* train_bench = bench.add_subcommand("train", "Training speed: samples trained per second");
  add_network_options(*train_bench, *train, "bfloat16 autocast (weights stay float32)");
  train_bench->add_option("--batch", train->batch, "Samples per step")->check(CLI::Range(1, 65536));
  train_bench->add_option("--samples", train->samples, "Samples in the replay window")->check(CLI::Range(1, 10'000'000));
  train_bench->add_option("--seconds", train->seconds, "Seconds of training")->check(number_range(0.1, 600.0));
  train_bench->callback([train] { bench_train(*train); });
}

}  // namespace ataxx::cli
