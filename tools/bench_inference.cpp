#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "match/openings.h"
#include "nn/inference_server.h"
#include "nn/simulated_device.h"
#include "selfplay/selfplay_worker.h"
#include "tools/benches.h"
#include "util/clock.h"
#include "util/parallel.h"
#include "util/temporary_directory.h"

namespace ataxx::cli {
namespace {

struct NnBenchOptions : BenchNetwork {
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
  options.int8 = o.int8;
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
  const SteadyClock::time_point begin = SteadyClock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  const double measured = evaluated / seconds_since(begin);
  stop = true;
  for (auto& t : threads) t.join();
  *stats = server.stats();
  return measured;
}

void bench_nn(const NnBenchOptions& o) {
  const TemporaryDirectory scratch("ataxx-zero-bench");  // removed when the bench ends, or fails
  const std::string play_file = scratch.path() + "/net";
  write_random_play_file(play_file, {o.blocks, o.channels}, 1);
  // On the CPU the raw forward is the Eigen path the server runs; LibTorch's beside it.
  const bool cpu = o.device == "cpu";
  std::printf("nn: %d blocks x %d channels on %s%s%s, one intra-op thread per inference thread\n", o.blocks,
              o.channels, o.device.c_str(), o.int8 ? " (int8)" : o.bf16 ? " (bf16)" : "", o.cuda_graphs ? " (CUDA graphs)" : "");
  std::printf("%6s %14s %14s %14s %9s %11s\n", "batch", cpu ? "torch evals/s" : "", "raw evals/s", "server evals/s",
              "server %", "mean batch");
  InferenceOptions raw;
  raw.device = o.device;
  raw.bf16 = o.bf16;
  raw.int8 = o.int8;
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
}

struct SelfPlayBenchOptions : BenchNetwork {
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
  std::vector<float> inputs(static_cast<std::size_t>(batch) * device.io().input_size());
  const SteadyClock::time_point begin = SteadyClock::now();
  long long evaluated = 0;
  while (seconds_since(begin) < seconds) {
    device.run(0, inputs.data(), batch);
    evaluated += batch;
  }
  return evaluated / seconds_since(begin);
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
  const TemporaryDirectory scratch("ataxx-zero-bench");  // removed when the bench ends, or fails
  const std::string play_file = scratch.path() + "/net";
  std::unique_ptr<Evaluator> evaluator;
  std::function<InferenceStats()> stats;
  if (o.simulated) {
    auto device = std::make_shared<SimulatedDevice>(o.model, o.max_batch);
    auto batched = std::make_unique<BatchedEvaluator>(device, GameEncoder<DefaultGame>{}, batching);
    stats = [e = batched.get()] { return e->stats(); };
    evaluator = std::move(batched);
    std::printf("selfplay on a %s (SIMULATED figures)\n", o.model.describe().c_str());
  } else {
    write_random_play_file(play_file, {o.blocks, o.channels}, 1);
    InferenceOptions options{
        .device = o.device, .bf16 = o.bf16, .int8 = o.int8, .cuda_graphs = o.cuda_graphs, .max_batch = o.max_batch, .threads = o.server_threads};
    auto server = std::make_unique<InferenceServer>(play_file, options);
    stats = [e = server.get()] { return e->stats(); };
    evaluator = std::move(server);
    std::printf("selfplay with a %dx%d network on %s%s%s\n", o.blocks, o.channels, o.device.c_str(),
                o.int8 ? " (int8)" : o.bf16 ? " (bf16)" : "", o.cuda_graphs ? " (CUDA graphs)" : "");
  }
  std::printf("%d worker threads x %d games, %d/%d visits, max batch %d, %d server threads, %.0f s\n", o.threads,
              o.concurrent_games, o.visits, o.fast_visits, o.max_batch, o.server_threads, o.seconds);
  std::atomic<bool> stop{false};
  const InferenceStats before = stats();
  const SteadyClock::time_point begin = SteadyClock::now();
  SelfPlayStats played;
  run_for(o.seconds, stop, [&] {
    const std::vector<SelfPlayStart<DefaultGame>> starts = {{"7x7", 1.0, Position::startpos(), default_openings()}};
    played = play_selfplay_games<DefaultGame>(config, starts, 1, *evaluator, std::numeric_limits<int>::max(), stop,
                                            [](SelfPlayBatch&&) {});
  });
  const double seconds = seconds_since(begin);
  const InferenceStats after = stats();
  evaluator.reset();
  const double evals = (after.positions - before.positions) / seconds;
  const double mean_batch = double(after.positions - before.positions) / std::max<double>(after.batches - before.batches, 1);
  const double busy = (after.busy_seconds - before.busy_seconds) / seconds;
  const int mean = std::max(1, static_cast<int>(mean_batch + 0.5));
  auto raw = [&](int batch) {
    if (o.simulated) return measure_raw_simulated(o.model, batch, 2.0);
    InferenceOptions options{.device = o.device, .bf16 = o.bf16, .int8 = o.int8, .cuda_graphs = o.cuda_graphs, .max_batch = batch};
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
}

}  // namespace

constexpr const char* kInt8Help = "8-bit integer direct convolutions on the CPU (AVX2 or later; before --bf16)";

void add_inference_benches(CLI::App& bench) {
  auto nn = std::make_shared<NnBenchOptions>();
  auto* nn_bench = bench.add_subcommand("nn", "Network speed: evaluations per second, raw forward and through the server");
  add_network_options(*nn_bench, *nn, "bfloat16 weights and inputs (CUDA; on the CPU, the direct convolutions with AVX512-BF16)");
  nn_bench->add_flag("--int8", nn->int8, kInt8Help);
  nn_bench->add_flag("--cuda-graphs", nn->cuda_graphs, "Replay batches as CUDA graphs (a build with ATAXX_CUDA_GRAPHS)");
  nn_bench->add_option("--batches", nn->batches, "Batch sizes")->check(CLI::Range(1, 65536));
  nn_bench->add_option("--clients", nn->clients, "Client threads feeding the server")->check(CLI::Range(1, 256));
  nn_bench->add_option("--seconds", nn->seconds, "Seconds per measurement")->check(number_range(0.1, 600.0));
  nn_bench->callback([nn] { bench_nn(*nn); });

  auto sp = std::make_shared<SelfPlayBenchOptions>();
  auto* sp_bench = bench.add_subcommand("selfplay", "Self-play speed against the raw forward of the same network and device");
  add_network_options(*sp_bench, *sp, "bfloat16 weights and inputs (CUDA; on the CPU, the direct convolutions with AVX512-BF16)");
  sp_bench->add_flag("--int8", sp->int8, kInt8Help);
  sp_bench->add_flag("--cuda-graphs", sp->cuda_graphs, "Replay batches as CUDA graphs (a build with ATAXX_CUDA_GRAPHS)");
  sp_bench->add_option("--threads", sp->threads, "Self-play worker threads")->check(CLI::Range(1, 256));
  sp_bench->add_option("--games", sp->concurrent_games, "Concurrent games per worker")->check(CLI::Range(1, 65536));
  sp_bench->add_option("--visits", sp->visits, "Visits of a full search")->check(CLI::Range(1, 1'000'000));
  sp_bench->add_option("--fast-visits", sp->fast_visits, "Visits of a fast search")->check(CLI::Range(1, 1'000'000));
  sp_bench->add_option("--max-batch", sp->max_batch, "Largest batch")->check(CLI::Range(1, 65536));
  sp_bench->add_option("--server-threads", sp->server_threads, "Inference server threads")->check(CLI::Range(1, 64));
  sp_bench->add_option("--seconds", sp->seconds, "Seconds of self-play")->check(number_range(0.5, 600.0));
  auto* simulated = sp_bench->add_flag("--simulated", sp->simulated,
                                       "A simulated device instead of the network (figures labelled simulated)");
  for (const char* network_option : {"--blocks", "--channels", "--device", "--bf16", "--int8", "--cuda-graphs"})
    simulated->excludes(network_option);
  sp_bench->add_option("--sim-launch-us", sp->model.launch_us, "Simulated device: fixed cost per batch, us")
      ->check(number_range(0.0, 1e6))
      ->needs(simulated);
  sp_bench->add_option("--sim-position-ns", sp->model.position_ns, "Simulated device: cost per position, ns")
      ->check(number_range(0.0, 1e9))
      ->needs(simulated);
  sp_bench->callback([sp] { bench_selfplay(*sp); });
}

}  // namespace ataxx::cli
