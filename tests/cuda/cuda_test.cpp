// What needs a CUDA device: inference there agrees with the CPU, and a run moves between the GPU
// and the CPU through its checkpoints. Built only with ATAXX_CUDA_TESTS (tools/gpu/build.sh).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "nn/inference_server.h"
#include "nn/model_file.h"
#include "tests/test_paths.h"
#include "util/read_file.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

// Positions from a few random games, so that a batch is wider than the Eigen path takes.
std::vector<Position> random_positions(int count) {
  std::mt19937_64 rng(5);
  std::vector<Position> positions;
  Position p = Position::startpos(*find_board("7x7"));
  while (static_cast<int>(positions.size()) < count) {
    MoveList moves;
    p.generate_moves(moves);
    if (p.outcome().is_over() || moves.size() == 0) {
      p = Position::startpos(*find_board("7x7"));
      continue;
    }
    positions.push_back(p);
    p.make_move(moves[rng() % moves.size()]);
  }
  return positions;
}

struct Evaluations {
  std::vector<MoveList> moves;
  std::vector<std::array<float, kMaxMoves>> priors;
  std::vector<Wdl> values;
};

Evaluations evaluate(InferenceServer& server, const std::vector<Position>& positions) {
  Evaluations e{std::vector<MoveList>(positions.size()), std::vector<std::array<float, kMaxMoves>>(positions.size()),
                std::vector<Wdl>(positions.size())};
  std::vector<EvalRequest> requests;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    positions[i].generate_moves(e.moves[i]);
    const std::span<const Move> legal(e.moves[i].begin(), e.moves[i].size());
    requests.push_back({&positions[i], legal, std::span<float>(e.priors[i].data(), legal.size()), &e.values[i]});
  }
  server.evaluate(requests);
  return e;
}

void expect_near(const Evaluations& a, const Evaluations& b, float tolerance, const char* what) {
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    for (int m = 0; m < a.moves[i].size(); ++m) ASSERT_NEAR(a.priors[i][m], b.priors[i][m], tolerance) << what << " " << i;
    ASSERT_NEAR(a.values[i].win, b.values[i].win, tolerance) << what << " " << i;
    ASSERT_NEAR(a.values[i].loss, b.values[i].loss, tolerance) << what << " " << i;
    ASSERT_NEAR(a.values[i].lead, b.values[i].lead, tolerance) << what << " " << i;
  }
}

std::string saved_net(const std::string& name, std::uint64_t seed) {
  torch::manual_seed(seed);
  AtaxxNet net(ModelShape{2, 32});
  ModelInfo info;
  info.shape = {2, 32};
  info.boards = BoardSet::parse("7x7");
  info.name = name;
  save_play_file(temp_path(name), net, info);
  return temp_path(name);
}

TEST(CudaInference, AgreesWithTheCpuInFp32AndCloselyInBf16) {
  const std::string model = saved_net("cuda.net", 3);
  const std::vector<Position> positions = random_positions(200);

  InferenceOptions cpu, gpu, gpu_bf16;
  cpu.cpu_path = CpuPath::kTorch;
  gpu.device = gpu_bf16.device = "cuda";
  gpu_bf16.bf16 = true;
  InferenceServer on_cpu(model, cpu), on_gpu(model, gpu), on_gpu_bf16(model, gpu_bf16);
  const Evaluations reference = evaluate(on_cpu, positions);
  expect_near(reference, evaluate(on_gpu, positions), 2e-3f, "fp32");
  expect_near(reference, evaluate(on_gpu_bf16, positions), 5e-2f, "bf16");
}

#ifdef ATAXX_CUDA_GRAPHS
// Replayed graphs answer as the eager forward does, at sizes that pad differently and on a
// second batch of a size already captured; a network loaded later is captured anew, not
// replayed with the old weights.
TEST(CudaInference, GraphsAgreeWithTheEagerForwardAndFollowALoadedNetwork) {
  const std::string a = saved_net("graphs-a.net", 3), b = saved_net("graphs-b.net", 4);
  InferenceOptions eager, graphed;
  eager.device = graphed.device = "cuda";
  graphed.cuda_graphs = true;
  InferenceServer eager_a(a, eager), eager_b(b, eager), on_graphs(a, graphed);
  const std::vector<Position> positions = random_positions(400);
  for (const auto& [first, n] : {std::pair{0, 1}, {1, 7}, {8, 100}, {108, 200}, {200, 200}}) {
    const std::vector<Position> batch(positions.begin() + first, positions.begin() + first + n);
    expect_near(evaluate(eager_a, batch), evaluate(on_graphs, batch), 2e-3f, "graphs, network a");
  }
  const std::vector<Position> batch(positions.begin(), positions.begin() + 150);
  const Evaluations before = evaluate(on_graphs, batch);
  on_graphs.load(b);
  const Evaluations after = evaluate(on_graphs, batch);
  expect_near(evaluate(eager_b, batch), after, 2e-3f, "graphs, network b");
  float largest_change = 0;  // the two networks differ, so a replay of a's graphs would fail above
  for (std::size_t i = 0; i < batch.size(); ++i)
    largest_change = std::max(largest_change, std::abs(before.values[i].win - after.values[i].win));
  EXPECT_GT(largest_change, 1e-2f);
}
#endif

int run_binary(const std::vector<std::string>& args, const std::string& output) {
  const std::string binary = ATAXX_ZERO_BINARY;
  const pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(output.c_str(), "a", stdout)) _exit(126);
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The run's own config.yaml, with its device and generation limit set for the next resume.
void set_run(const std::string& run, const std::string& device, int generations) {
  std::string config = read_whole_file(run + "/config.yaml");
  for (const std::string key : {"device: ", "max_generations: "}) {
    const std::size_t at = config.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    const std::size_t end = config.find('\n', at);
    config.replace(at + key.size(), end - at - key.size(), key == "device: " ? device : std::to_string(generations));
  }
  std::ofstream(run + "/config.yaml") << config;
}

int generations_trained(const std::string& run) {
  std::ifstream in(run + "/metrics.csv");
  int rows = -1;  // the header
  for (std::string line; std::getline(in, line);) ++rows;
  return rows;
}

// A checkpoint written on the GPU resumes on the CPU, and one written on the CPU on the GPU.
TEST(CudaRun, SlowTinyRunMovesBetweenTheGpuAndTheCpu) {
  const std::string run = temp_path("cuda-run");
  fs::remove_all(run);
  const std::string config = temp_path("cuda-tiny.yaml");
  std::ofstream(config) << read_whole_file(std::string(ATAXX_SOURCE_DIR) + "/configs/tiny.yaml")
                        << "inference:\n  device: cuda\n";
  EXPECT_EQ(run_binary({"train", "--config", config, "--run-dir", run}, run + ".out"), 0)
      << read_whole_file(run + ".out");
  EXPECT_EQ(generations_trained(run), 3);
  set_run(run, "cpu", 4);
  EXPECT_EQ(run_binary({"train", "--run-dir", run}, run + ".out"), 0) << read_whole_file(run + ".out");
  EXPECT_EQ(generations_trained(run), 4);
  set_run(run, "cuda", 5);
  EXPECT_EQ(run_binary({"train", "--run-dir", run}, run + ".out"), 0) << read_whole_file(run + ".out");
  EXPECT_EQ(generations_trained(run), 5);
  EXPECT_TRUE(fs::exists(run + "/models/best"));
}

}  // namespace
}  // namespace ataxx
