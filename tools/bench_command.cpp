#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>

#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "game/game.h"
#include "game/perft.h"
#include "mcts/search.h"
#include "mcts/simple_evaluators.h"
#include "nn/encoding.h"
#include "nn/inference_server.h"
#include "nn/simulated_device.h"
#include "selfplay/selfplay_worker.h"
#include "selfplay/training_data.h"
#include "trainer/replay_buffer.h"
#include "trainer/trainer.h"
#include "players/engine_process.h"
#include "match/openings.h"
#include "tools/commands.h"
#include "util/clock.h"
#include "util/parallel.h"

namespace ataxx::cli {
namespace {

void bench_perft(const std::string& fen, int min_depth, int max_depth) {
  const Position start = Position::from_fen(fen);
  std::printf("perft from %s (%s), 1 thread, leaves counted at the last ply\n", start.fen().c_str(),
              std::string(start.board().name).c_str());
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

struct NnBenchOptions {
  int blocks = 6;
  int channels = 64;
  std::string device = "cpu";
  bool bf16 = false;
  bool cuda_graphs = false;
  std::vector<int> batches{1, 8, 32, 128, 512};
  int clients = 8;
  double seconds = 2.0;
};

// Positions per second through the server: client threads each keep requests of batch/clients
// positions in flight, as self-play workers do.
double measure_server(const std::string& play_file, const NnBenchOptions& o, int batch, InferenceStats* stats) {
  InferenceOptions options;
  options.device = o.device;
  options.bf16 = o.bf16;
  options.cuda_graphs = o.cuda_graphs;
  options.max_batch = batch;
  options.deadline_us = 2000;
  InferenceServer server(play_file, options);
  const int clients = std::min(o.clients, batch);
  const int chunk = batch / clients;
  std::atomic<bool> stop{false};
  std::atomic<long long> evaluated{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      const auto openings = default_openings();
      std::vector<Position> positions;
      std::vector<MoveList> moves(chunk);
      std::vector<std::array<float, kMaxMoves>> priors(chunk);
      std::vector<Wdl> values(chunk);
      std::vector<EvalRequest> requests;
      for (int i = 0; i < chunk; ++i) positions.push_back(openings[(c * chunk + i) % openings.size()]);
      for (int i = 0; i < chunk; ++i) {
        positions[i].generate_moves(moves[i]);
        requests.push_back({&positions[i], std::span<const Move>(moves[i].begin(), moves[i].size()),
                            std::span<float>(priors[i].data(), moves[i].size()), &values[i]});
      }
      while (!stop) {
        server.evaluate(requests);
        evaluated += chunk;
      }
    });
  }
  // Warm-up, as the raw measurement has: the first batches of a thread build its kernels.
  std::this_thread::sleep_for(std::chrono::duration<double>(std::min(0.5, o.seconds / 2)));
  evaluated = 0;
  const auto begin = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  const double measured = evaluated / std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  stop = true;
  for (auto& t : threads) t.join();
  *stats = server.stats();
  return measured;
}

void bench_nn(const NnBenchOptions& o) {
  const std::string play_file = "/tmp/ataxx-zero-bench-" + std::to_string(::getpid()) + ".net";
  write_random_play_file(play_file, {o.blocks, o.channels}, 1);
  // On the CPU the raw forward is the Eigen path the server runs; LibTorch's beside it.
  const bool cpu = o.device == "cpu";
  std::printf("nn: %d blocks x %d channels on %s%s%s, one intra-op thread per inference thread\n", o.blocks,
              o.channels, o.device.c_str(), o.bf16 ? " (bf16)" : "", o.cuda_graphs ? " (CUDA graphs)" : "");
  std::printf("%6s %14s %14s %14s %9s %11s\n", "batch", cpu ? "torch evals/s" : "", "raw evals/s", "server evals/s",
              "server %", "mean batch");
  InferenceOptions raw;
  raw.device = o.device;
  raw.bf16 = o.bf16;
  raw.cuda_graphs = o.cuda_graphs;
  InferenceOptions torch_raw = raw;
  torch_raw.cpu_path = CpuPath::kTorch;
  for (const int batch : o.batches) {
    const std::string torch_forward =
        cpu ? std::to_string(std::lround(measure_raw_forward(play_file, torch_raw, batch, o.seconds))) : "";
    const double forward = measure_raw_forward(play_file, raw, batch, o.seconds);
    InferenceStats stats;
    const double served = measure_server(play_file, o, batch, &stats);
    std::printf("%6d %14s %14.0f %14.0f %8.1f%% %11.1f\n", batch, torch_forward.c_str(), forward, served,
                100.0 * served / forward, stats.mean_batch());
    std::fflush(stdout);
  }
  std::remove(play_file.c_str());
}

struct SelfPlayBenchOptions {
  int blocks = 6;
  int channels = 64;
  std::string device = "cpu";
  bool bf16 = false;
  bool cuda_graphs = false;
  int threads = 2;             // self-play worker threads
  int concurrent_games = 64;   // per worker
  int visits = 96;
  int fast_visits = 24;
  int max_batch = 256;
  int server_threads = 1;
  double seconds = 10;
  bool simulated = false;
  SimulatedDeviceModel model;
};

// Evaluations per second of the simulated device running full batches back to back.
double measure_raw_simulated(const SimulatedDeviceModel& model, int batch, double seconds) {
  SimulatedDevice device(model, batch);
  std::vector<float> inputs(static_cast<std::size_t>(batch) * device.encoding().input_size());
  const auto begin = std::chrono::steady_clock::now();
  long long evaluated = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() < seconds) {
    device.run(0, inputs.data(), batch);
    evaluated += batch;
  }
  return evaluated / std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

// Self-play as `train` runs it, for a fixed time: evaluations per second beside the raw forward
// of the same network on the same device, the batches' fill and the device's busy share.
void bench_selfplay(const SelfPlayBenchOptions& o) {
  RunConfig config;
  config.selfplay.threads = o.threads;
  config.selfplay.concurrent_games = o.concurrent_games;
  config.selfplay.visits = o.visits;
  config.selfplay.fast_visits = o.fast_visits;
  BatchingOptions batching{o.max_batch, 1000, o.server_threads, 0};
  const std::string play_file = "/tmp/ataxx-zero-bench-" + std::to_string(::getpid()) + ".net";
  std::unique_ptr<Evaluator> evaluator;
  std::function<InferenceStats()> stats;
  if (o.simulated) {
    auto device = std::make_shared<SimulatedDevice>(o.model, o.max_batch);
    auto batched = std::make_unique<BatchedEvaluator>(device, batching);
    stats = [e = batched.get()] { return e->stats(); };
    evaluator = std::move(batched);
    std::printf("selfplay on a %s (SIMULATED figures)\n", o.model.describe().c_str());
  } else {
    write_random_play_file(play_file, {o.blocks, o.channels}, 1);
    InferenceOptions options{
        .device = o.device, .bf16 = o.bf16, .cuda_graphs = o.cuda_graphs, .max_batch = o.max_batch, .threads = o.server_threads};
    auto server = std::make_unique<InferenceServer>(play_file, options);
    stats = [e = server.get()] { return e->stats(); };
    evaluator = std::move(server);
    std::printf("selfplay with a %dx%d network on %s%s%s\n", o.blocks, o.channels, o.device.c_str(),
                o.bf16 ? " (bf16)" : "", o.cuda_graphs ? " (CUDA graphs)" : "");
  }
  std::printf("%d worker threads x %d games, %d/%d visits, max batch %d, %d server threads, %.0f s\n", o.threads,
              o.concurrent_games, o.visits, o.fast_visits, o.max_batch, o.server_threads, o.seconds);
  std::atomic<bool> stop{false};
  const InferenceStats before = stats();
  const auto begin = std::chrono::steady_clock::now();
  SelfPlayStats played;
  run_for(o.seconds, stop, [&] {
    played = play_selfplay_games(config, {{&board_7x7(), 1.0, default_openings()}}, 1, *evaluator,
                                 std::numeric_limits<int>::max(), stop, [](SelfPlayBatch&&) {});
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const InferenceStats after = stats();
  evaluator.reset();
  const double evals = (after.positions - before.positions) / seconds;
  const double mean_batch = double(after.positions - before.positions) / std::max<double>(after.batches - before.batches, 1);
  const double busy = (after.busy_seconds - before.busy_seconds) / seconds;
  const int mean = std::max(1, static_cast<int>(mean_batch + 0.5));
  auto raw = [&](int batch) {
    if (o.simulated) return measure_raw_simulated(o.model, batch, 2.0);
    InferenceOptions options{.device = o.device, .bf16 = o.bf16, .cuda_graphs = o.cuda_graphs, .max_batch = batch};
    return measure_raw_forward(play_file, options, batch, 2.0);
  };
  const double raw_full = raw(o.max_batch), raw_mean = raw(mean);
  std::printf("%-34s %12s\n", "", "evals/s");
  std::printf("%-34s %12.0f\n", fmt::format("raw forward, batch {}", o.max_batch).c_str(), raw_full);
  std::printf("%-34s %12.0f\n", fmt::format("raw forward, batch {}", mean).c_str(), raw_mean);
  std::printf("%-34s %12.0f  (%.1f%% of raw at batch %d, %.1f%% at batch %d)\n", "self-play", evals,
              100 * evals / raw_full, o.max_batch, 100 * evals / raw_mean, mean);
  std::printf("mean batch %.1f (%.1f%% full), device busy %.1f%%, %d games finished, %.0f simulations/s\n", mean_batch,
              100 * mean_batch / o.max_batch, 100 * busy, played.games, played.simulations / seconds);
  if (!o.simulated) std::remove(play_file.c_str());
}

// The value after `key` in an info line ("info depth 3 nodes 1200 ..."), or -1.
long long info_field(const std::string& line, const std::string& key) {
  const std::string token = " " + key + " ";
  const auto at = line.find(token);
  return at == std::string::npos ? -1 : std::atoll(line.c_str() + at + token.size());
}

struct TrainBenchOptions {
  int blocks = 6;
  int channels = 64;
  std::string device = "cpu";
  bool bf16 = false;
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
  const std::string games = "/tmp/ataxx-zero-bench-" + std::to_string(::getpid()) + "-games";
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
  std::filesystem::remove_all(games);
  Trainer trainer(config, "", "");
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
// (same position), so that no search counts nodes kept from the one before.
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
    std::string position = "position startpos";
    if (!game.moves().empty()) position += " moves";
    for (const Move m : game.moves()) position.append(" ").append(to_string(m, game.position().board()));
    engine.send("uainewgame");
    engine.send(position);
    engine.send("isready");
    engine.expect("readyok", 10'000);
    const auto begin = std::chrono::steady_clock::now();
    engine.send("go movetime " + std::to_string(movetime_ms));
    const auto deadline = begin + std::chrono::milliseconds(movetime_ms + 10'000);
    std::string line, last_info;
    while ((line = engine.read_line(deadline)).rfind("bestmove", 0) != 0)
      if (line.rfind("info", 0) == 0 && info_field(line, "nodes") >= 0) last_info = line;
    latencies.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
    nodes += std::max(0LL, info_field(last_info, "nodes"));
    engine_ms += std::max(0LL, info_field(last_info, "time"));
    game.play(line.substr(9, line.find(' ', 9) - 9));
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf("uai: %s, %d moves of go movetime %d: answered in min %.1f ms, median %.1f ms, max %.1f ms; "
              "%.0f nodes/s\n",
              engine_command.c_str(), moves, movetime_ms, latencies.front(), latencies[latencies.size() / 2],
              latencies.back(), engine_ms > 0 ? 1000.0 * nodes / engine_ms : 0.0);
}

}  // namespace

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
  perft_bench->add_option("--fen", perft_options->fen, "Root position, on any board (default: the 7x7 start)");
  perft_bench->add_option("--min-depth", perft_options->min_depth, "First depth")->check(CLI::Range(1, 9));
  perft_bench->add_option("--max-depth", perft_options->max_depth, "Last depth")->check(CLI::Range(1, 9));
  perft_bench->callback([perft_options] {
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

  auto nn = std::make_shared<NnBenchOptions>();
  auto* nn_bench = bench->add_subcommand("nn", "Network speed: evaluations per second, raw forward and through the server");
  nn_bench->add_option("--blocks", nn->blocks, "Residual blocks")->check(CLI::Range(1, 64));
  nn_bench->add_option("--channels", nn->channels, "Channels")->check(CLI::Range(8, 1024));
  nn_bench->add_option("--device", nn->device, "cpu, cuda or cuda:N");
  nn_bench->add_flag("--bf16", nn->bf16, "bfloat16 weights and inputs (CUDA)");
  nn_bench->add_flag("--cuda-graphs", nn->cuda_graphs, "Replay batches as CUDA graphs (a build with ATAXX_CUDA_GRAPHS)");
  nn_bench->add_option("--batches", nn->batches, "Batch sizes")->check(CLI::Range(1, 65536));
  nn_bench->add_option("--clients", nn->clients, "Client threads feeding the server")->check(CLI::Range(1, 256));
  nn_bench->add_option("--seconds", nn->seconds, "Seconds per measurement")->check(CLI::Range(0.1, 600.0));
  nn_bench->callback([nn] { bench_nn(*nn); });

  auto sp = std::make_shared<SelfPlayBenchOptions>();
  auto* sp_bench = bench->add_subcommand("selfplay", "Self-play speed against the raw forward of the same network and device");
  sp_bench->add_option("--blocks", sp->blocks, "Residual blocks")->check(CLI::Range(1, 64));
  sp_bench->add_option("--channels", sp->channels, "Channels")->check(CLI::Range(8, 1024));
  sp_bench->add_option("--device", sp->device, "cpu, cuda or cuda:N");
  sp_bench->add_flag("--bf16", sp->bf16, "bfloat16 weights and inputs (CUDA)");
  sp_bench->add_flag("--cuda-graphs", sp->cuda_graphs, "Replay batches as CUDA graphs (a build with ATAXX_CUDA_GRAPHS)");
  sp_bench->add_option("--threads", sp->threads, "Self-play worker threads")->check(CLI::Range(1, 256));
  sp_bench->add_option("--games", sp->concurrent_games, "Concurrent games per worker")->check(CLI::Range(1, 65536));
  sp_bench->add_option("--visits", sp->visits, "Visits of a full search")->check(CLI::Range(1, 1'000'000));
  sp_bench->add_option("--fast-visits", sp->fast_visits, "Visits of a fast search")->check(CLI::Range(1, 1'000'000));
  sp_bench->add_option("--max-batch", sp->max_batch, "Largest batch")->check(CLI::Range(1, 65536));
  sp_bench->add_option("--server-threads", sp->server_threads, "Inference server threads")->check(CLI::Range(1, 64));
  sp_bench->add_option("--seconds", sp->seconds, "Seconds of self-play")->check(CLI::Range(0.5, 600.0));
  sp_bench->add_flag("--simulated", sp->simulated, "A simulated device instead of the network (figures labelled simulated)");
  sp_bench->add_option("--sim-launch-us", sp->model.launch_us, "Simulated device: fixed cost per batch, us")
      ->check(CLI::Range(0.0, 1e6));
  sp_bench->add_option("--sim-position-ns", sp->model.position_ns, "Simulated device: cost per position, ns")
      ->check(CLI::Range(0.0, 1e9));
  sp_bench->callback([sp] { bench_selfplay(*sp); });

  auto train = std::make_shared<TrainBenchOptions>();
  auto* train_bench = bench->add_subcommand("train", "Training speed: samples trained per second");
  train_bench->add_option("--blocks", train->blocks, "Residual blocks")->check(CLI::Range(1, 64));
  train_bench->add_option("--channels", train->channels, "Channels")->check(CLI::Range(8, 1024));
  train_bench->add_option("--device", train->device, "cpu, cuda or cuda:N");
  train_bench->add_flag("--bf16", train->bf16, "bfloat16 autocast (weights stay float32)");
  train_bench->add_option("--batch", train->batch, "Samples per step")->check(CLI::Range(1, 65536));
  train_bench->add_option("--samples", train->samples, "Samples in the replay window")->check(CLI::Range(1, 10'000'000));
  train_bench->add_option("--seconds", train->seconds, "Seconds of training")->check(CLI::Range(0.1, 600.0));
  train_bench->callback([train] { bench_train(*train); });

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
      ->check(CLI::Range(1, 64));
  uai_bench->callback([uai] {
    std::string engine = uai->engine;
    if (engine.empty()) engine = std::filesystem::read_symlink("/proc/self/exe").string().append(" uai");
    bench_uai(engine, uai->moves, uai->movetime, uai->threads);
  });
}

}  // namespace ataxx::cli
