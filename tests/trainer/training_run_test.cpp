// End to end through the real binary: a tiny run that trains, and a run killed with SIGKILL at
// arbitrary moments that must resume without losing or corrupting anything.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "games/schataxx/game.h"
#include "games/schataxx/position.h"
#include "nn/direct_convolution.h"
#include "nn/model_info.h"
#include "nn/play_file.h"
#include "selfplay/training_data.h"
#include "tests/test_paths.h"
#include "trainer/replay_buffer.h"
#include "util/file_lock.h"
#include "util/read_file.h"
#include "util/text.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

const std::string kBinary = ATAXX_ZERO_BINARY;

pid_t start_process(const std::vector<std::string>& args, const std::string& output) {
  const pid_t pid = fork();
  if (pid == 0) {
    freopen(output.c_str(), "a", stdout);
    std::vector<char*> argv{const_cast<char*>(kBinary.c_str())};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(kBinary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

pid_t start_train(const std::string& run_dir, bool with_config) {
  if (with_config) return start_process({"train", "--config", kTinyConfig, "--run-dir", run_dir}, run_dir + ".out");
  return start_process({"train", "--run-dir", run_dir}, run_dir + ".out");
}

// An extra self-play process on the run, once the run directory holds its config.
pid_t start_selfplay(const std::string& run_dir, const std::string& output, std::vector<std::string> options = {}) {
  while (!fs::exists(run_dir + "/config.yaml")) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  options.insert(options.begin(), {"selfplay", "--run-dir", run_dir});
  return start_process(options, output);
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The lines of each live game file of a run (live/HOST-PID.txt).
std::vector<std::vector<std::string>> live_games(const std::string& run) {
  std::vector<std::vector<std::string>> games;
  for (const auto& entry : fs::directory_iterator(run + "/live")) {
    std::ifstream in(entry.path());
    games.emplace_back();
    for (std::string line; std::getline(in, line);) games.back().push_back(line);
  }
  return games;
}

// Whether the run's log.txt, once there, holds the text (for waits on a run that is starting).
bool log_says(const std::string& run, const std::string& text) {
  return fs::exists(run + "/log.txt") && read_whole_file(run + "/log.txt").find(text) != std::string::npos;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    for (std::string cell; std::getline(stream, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// configs/tiny.yaml with each edit's first text replaced by its second, written to `path`.
void write_tiny_config(const std::string& path, const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string yaml = read_whole_file(kTinyConfig);
  for (const auto& [from, to] : edits) {
    const std::size_t at = yaml.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    yaml.replace(at, from.size(), to);
  }
  std::ofstream(path) << yaml;
}

// The name in a run's models/best.
std::string best_model(const std::string& run) {
  std::ifstream best(run + "/models/best");
  std::string name;
  best >> name;
  return name;
}

std::map<std::string, std::string> file_contents(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), dir);
    if (rel.find(".tmp.") != std::string::npos || rel.rfind("plots/", 0) == 0) continue;
    files[rel] = read_whole_file(entry.path());
  }
  return files;
}

TEST(TrainingRun, SlowTinyRunLearnsAndGates) {
  const std::string run = testing::TempDir() + "/tiny-run";
  fs::remove_all(run);
  ASSERT_EQ(wait_exit(start_train(run, true)), 0);
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_EQ(metrics.size(), 3U);
  const double first_loss = std::stod(metrics.front()[7]), last_loss = std::stod(metrics.back()[7]);
  EXPECT_LT(last_loss, first_loss * 0.9) << "the loss should fall";
  for (const auto& row : metrics) {  // the reuse cap: never more samples trained than 8 per sample played
    EXPECT_LE(std::stoll(row[5]), 8 * std::stoll(row[3])) << "step " << row[1];
    EXPECT_DOUBLE_EQ(std::stod(row.at(14)), 0.05) << "no drop in tiny.yaml";
  }
  // Candidates are decided in order (one still waiting when a newer one is ready is passed
  // over) by the config's threshold (0.5); the last is decided; the best is the last promoted.
  const auto gating = csv_rows(run + "/gating.csv");
  ASSERT_FALSE(gating.empty());
  EXPECT_EQ(gating.back()[0], "gen-0003");
  std::string last_promoted = "gen-0000";
  for (std::size_t i = 0; i < gating.size(); ++i) {
    const auto& row = gating[i];
    if (i > 0) {
      EXPECT_GT(row[0], gating[i - 1][0]);
    }
    EXPECT_EQ(row[1], last_promoted) << "each candidate plays the best model of its time";
    EXPECT_EQ(std::stoi(row[2]) + std::stoi(row[3]) + std::stoi(row[4]), 8);
    EXPECT_EQ(row[6], std::stod(row[5]) >= 0.5 ? "1" : "0") << "score " << row[5];
    if (row[6] == "1") last_promoted = row[0];
  }
  const std::string name = best_model(run);
  EXPECT_EQ(name, last_promoted);
  EXPECT_TRUE(fs::exists(run + "/models/" + name + ".net"));
  // Every promoted model played the ladder's two baselines.
  int ladder_rows = 0;
  for (const auto& row : csv_rows(run + "/matches.csv")) ladder_rows += row[6] == "ladder";
  EXPECT_GE(ladder_rows, 2);
  EXPECT_TRUE(fs::exists(run + "/ratings.csv"));
  EXPECT_TRUE(fs::exists(run + "/plots/losses.png"));
  // Self-play's rows say how long its recent games were and how many were drawn.
  const auto selfplay = csv_rows(run + "/selfplay.csv");
  ASSERT_FALSE(selfplay.empty());
  for (const auto& row : selfplay) {
    ASSERT_EQ(row.size(), 6U);
    EXPECT_GE(std::stod(row[4]), 1.0) << "plies a game";
    EXPECT_GE(std::stod(row[5]), 0.0);
    EXPECT_LE(std::stod(row[5]), 1.0) << "share of draws";
  }
  EXPECT_TRUE(fs::exists(run + "/plots/selfplay.png"));
}

// The run's wall time reaches the trainer's schedule: with lr_drop_at at 0.2 % of 10 minutes (1.2 s,
// before the first step), every candidate is trained at a tenth of the learning rate.
TEST(TrainingRun, SlowTinyRunDropsItsLearningRateAfterItsShareOfWallTime) {
  const std::string run = testing::TempDir() + "/tiny-lr-drop-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_generations: 3", "max_generations: 2"},
                             {"learning_rate: 0.05", "learning_rate: 0.05\n  lr_drop_at: 0.002\n  lr_drop_factor: 0.1"}});
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_EQ(metrics.size(), 2U);
  for (const auto& row : metrics) EXPECT_DOUBLE_EQ(std::stod(row.at(14)), 0.005) << "candidate " << row[0];
}

// gating.games 0: no gating games, each candidate is the new best in turn (a candidate still waiting
// when a newer one is ready is passed over, as with gating).
TEST(TrainingRun, SlowTinyRunWithoutGatingPromotesEveryCandidate) {
  const std::string run = testing::TempDir() + "/tiny-no-gating-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"gating:\n  games: 8", "gating:\n  games: 0"}});
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  const auto gating = csv_rows(run + "/gating.csv");
  ASSERT_FALSE(gating.empty());
  std::string best = "gen-0000";
  for (const auto& row : gating) {
    EXPECT_EQ(row[1], best) << row[0] << " replaces the best of its time";
    EXPECT_EQ(row[2] + row[3] + row[4], "000") << row[0] << " played no games";
    EXPECT_EQ(row[6], "1") << row[0];
    best = row[0];
  }
  EXPECT_EQ(best, "gen-0003");
  EXPECT_EQ(best_model(run), "gen-0003");
  for (const auto& row : csv_rows(run + "/matches.csv")) EXPECT_EQ(row[6], "ladder");
}

// training.min_sample_reuse: while the trainer is behind it, self-play waits. At 200 samples trained
// per sample played no trainer keeps up (three candidates of 40 steps train 7,680 samples, what 38
// samples played allow), so self-play waits from the first steps on and the run's samples stay as
// they were (without the wait, self-play went on writing games throughout).
TEST(TrainingRun, SlowSelfPlayWaitsForATrainerBehindItsMinimumReuse) {
  const std::string run = testing::TempDir() + "/tiny-min-reuse-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_sample_reuse: 8", "max_sample_reuse: 200\n  min_sample_reuse: 200"},
                             {"gating:\n  games: 8", "gating:\n  games: 0"}});
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_EQ(metrics.size(), 3u);
  EXPECT_EQ(metrics[1].at(3), metrics[2].at(3)) << "samples played between the last two candidates";
  EXPECT_NE(read_whole_file(run + "/log.txt").find("of its time waiting for training"), std::string::npos);
}

// `inference.int8: auto`: self-play in int8 where this build's CPU has the int8 convolutions, in
// float where not; the run's copy of its config keeps `auto`, to be settled again by the machine
// that resumes it.
TEST(TrainingRun, SlowAnAutoInt8RunPlaysInInt8WhereTheCpuHasIt) {
  const std::string run = testing::TempDir() + "/tiny-int8-auto-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_generations: 3", "max_generations: 1"},
                             {"gating:\n  games: 8", "gating:\n  games: 0"},
                             {"ladder:\n", "inference:\n  int8: auto\nladder:\n"}});
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  const std::string log = read_whole_file(run + "/log.txt");
  const std::string expected = DirectConvolution::available(Precision::kInt8) ? "(int8 on cpu)" : "(float32 on cpu)";
  EXPECT_NE(log.find("self-play: playing with gen-0000 " + expected), std::string::npos) << log;
  EXPECT_TRUE(load_run_config(run + "/config.yaml").int8_auto);
}

// A run stopped with SIGTERM between two candidates keeps its trainer's steps: the next session goes
// on from them (before, they were trained again from the last candidate's checkpoint).
TEST(TrainingRun, SlowStoppedRunGoesOnFromItsTrainersLastStep) {
  const std::string run = testing::TempDir() + "/stopped-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_generations: 3", "max_generations: 1"},
                             {"steps_per_candidate: 40", "steps_per_candidate: 400"}});
  const pid_t first = start_process({"train", "--config", config, "--run-dir", run}, run + ".out");
  // Stopped as soon as the trainer takes its first steps: a fixed sleep let a fast machine train the
  // whole candidate first.
  while (!log_says(run, "training: trains from step 0")) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  kill(first, SIGTERM);
  ASSERT_EQ(wait_exit(first), 0);
  ASSERT_FALSE(fs::exists(run + "/models/gen-0001.net")) << "the candidate came before the stop: raise its steps";
  const std::string stopped = run + "/checkpoints/stopped.ckpt";
  ASSERT_TRUE(fs::exists(stopped));
  const std::int64_t step = read_checkpoint_info(stopped).step;
  EXPECT_GT(step, 0);

  // A damaged checkpoint stopped the run with no way on: its error says how to resume without it.
  const std::string damaged = run + "-damaged";
  fs::remove_all(damaged);
  fs::copy(run, damaged, fs::copy_options::recursive);
  std::string bytes = read_whole_file(damaged + "/checkpoints/stopped.ckpt");
  bytes[bytes.size() / 2] ^= 0x5a;
  std::ofstream(damaged + "/checkpoints/stopped.ckpt", std::ios::binary) << bytes;
  EXPECT_NE(wait_exit(start_process({"train", "--run-dir", damaged}, damaged + ".out")), 0);
  EXPECT_NE(read_whole_file(damaged + ".out")
                .find("stopped.ckpt' is damaged (checksum mismatch): move it aside, and the run resumes from its "
                      "newest checkpoint (the steps since it are lost)"),
            std::string::npos)
      << read_whole_file(damaged + ".out");

  ASSERT_EQ(wait_exit(start_process({"train", "--run-dir", run}, run + ".out")), 0);
  const std::string text = read_whole_file(run + "/log.txt");
  EXPECT_NE(text.find(fmt::format("training: goes on at step {}, {} steps after gen-0000", step, step)),
            std::string::npos)
      << text;
  EXPECT_EQ(read_checkpoint_info(run + "/checkpoints/gen-0001.ckpt").step, 400);
  EXPECT_FALSE(fs::exists(stopped)) << "the candidate holds its steps";

  // A run whose models/best is gone began its self-play with the untrained gen-0000, unsaid, until
  // gating set its best again; now the best is named again before anything plays.
  const std::string best = best_model(run);
  fs::remove(run + "/models/best");
  EXPECT_EQ(wait_exit(start_process({"train", "--run-dir", run}, run + ".out")), 0);
  EXPECT_EQ(best_model(run), best);
  EXPECT_NE(read_whole_file(run + "/log.txt").find("models/best was missing; it names " + best + " again"),
            std::string::npos)
      << read_whole_file(run + "/log.txt");
}

// One network for three boards: self-play plays each, the trainer learns from all of them and the
// models say which boards they play.
TEST(TrainingRun, SlowTinyFamilyRunPlaysAndTrainsEveryBoard) {
  const std::string run = testing::TempDir() + "/tiny-family-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  {
    std::ifstream tiny(kTinyConfig);
    std::ofstream out(config);
    out << tiny.rdbuf() << "boards:\n  names: [5x5, 7x7, hexagon]\n  shares: [1, 1, 2]\n";
  }
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  std::map<std::string, int> samples_per_board;
  for (const auto& entry : fs::directory_iterator(run + "/games"))
    for (const TrainingSample& s : read_chunk(entry.path())) {
      ++samples_per_board[std::string(s.position.board().name)];
      for (const auto& [move, visits] : s.visits) ASSERT_TRUE(s.position.is_legal(move)) << s.position.fen();
    }
  EXPECT_EQ(samples_per_board.size(), 3U);
  EXPECT_GT(samples_per_board["hexagon"], samples_per_board["5x5"]);  // twice the share of games, longer games
  EXPECT_EQ(read_model_info(run + "/models/gen-0003.net").boards.names(), "5x5,7x7,hexagon");
  EXPECT_EQ(csv_rows(run + "/gating.csv").back()[0], "gen-0003");
}

// The same pipeline, unchanged, runs the second game: its chunks, its network, its gating and
// its ladder of Schataxx's baselines.
TEST(TrainingRun, SlowTinySchataxxRunTrainsGatesAndPlaysItsLadder) {
  const std::string run = testing::TempDir() + "/tiny-schataxx-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"run:\n", "run:\n  game: schataxx-balanced\n"}});
  ASSERT_EQ(wait_exit(start_process({"train", "--config", config, "--run-dir", run}, run + ".out")), 0);
  int samples = 0;
  for (const auto& entry : fs::directory_iterator(run + "/games"))
    for (const auto& s : read_chunk<SchataxxGame>(entry.path())) {
      ++samples;
      EXPECT_EQ(s.position.variant(), schataxx::Variant::kBalanced);
      for (const auto& [move, visits] : s.visits) ASSERT_TRUE(s.position.is_legal(move)) << s.position.fen();
    }
  EXPECT_GE(samples, 300);  // training.min_samples
  EXPECT_EQ(read_model_info(run + "/models/gen-0003.net").game, "schataxx");
  EXPECT_EQ(csv_rows(run + "/gating.csv").back()[0], "gen-0003");
  std::set<std::string> baselines;
  for (const auto& row : csv_rows(run + "/matches.csv"))
    if (row[6] == "ladder") baselines.insert(row[2]);
  EXPECT_EQ(baselines, (std::set<std::string>{"greedy", "random"}));
  // What `serve` shows of its self-play: the throughput, and the game being played in its variant.
  EXPECT_FALSE(csv_rows(run + "/selfplay.csv").empty());
  const auto live = live_games(run);
  ASSERT_EQ(live.size(), 1U);
  ASSERT_GE(live[0].size(), 4U);
  EXPECT_EQ(live[0][0], "schataxx-balanced");
  schataxx::Game game(schataxx::Position::from_fen(live[0][1], schataxx::Variant::kBalanced));
  for (const auto& move : split_words(live[0][3])) ASSERT_NO_THROW(game.play(move)) << move;
}

// Before, the minutes were banked only at candidates: a session killed between two lost them
// (max_minutes and the learning-rate schedule drifted). Then they were banked between training
// steps, which a loaded machine spaced out past the kill (a CI run beside two others failed).
TEST(TrainingRun, SlowAKilledSessionsMinutesCount) {
  const std::string run = testing::TempDir() + "/killed-minutes-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_generations: 3", "max_generations: 1"},
                             {"steps_per_candidate: 40", "steps_per_candidate: 100000"}});
  const pid_t train = start_process({"train", "--config", config, "--run-dir", run}, run + ".out");
  // From the line the session logs once its clock runs, however long its start took.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (!log_says(run, "minutes used")) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the run did not start";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::seconds(8));
  kill(train, SIGKILL);
  wait_exit(train);
  std::ifstream elapsed(run + "/elapsed_minutes");
  double minutes = 0;
  elapsed >> minutes;
  EXPECT_GE(minutes, 4.0 / 60) << "a killed session's minutes were not counted";
}

// A run stops when its minutes are spent, and a resume then says how to train on instead of
// stopping again in silence.
TEST(TrainingRun, SlowARunWhoseMinutesAreSpentSaysHowToTrainOn) {
  const std::string run = testing::TempDir() + "/spent-run";
  fs::remove_all(run);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_minutes: 10", "max_minutes: 0.05"}, {"max_generations: 3", "max_generations: 1000"}});
  const std::string hint = "minutes are spent; to train on, raise run.max_minutes in " + run + "/config.yaml";
  int starts = 0;
  for (const std::string& args : {"--config " + config + " --run-dir " + run, "--run-dir " + run}) {
    ASSERT_EQ(std::system((kBinary + " train " + args + " > " + run + ".out 2>&1").c_str()), 0)
        << read_whole_file(run + ".out");
    ++starts;
    const std::string log = read_whole_file(run + "/log.txt");
    int said = 0;
    for (std::size_t at = log.find(hint); at != std::string::npos; at = log.find(hint, at + 1)) ++said;
    EXPECT_EQ(said, starts) << log;
  }
}

TEST(TrainingRun, SlowASecondTrainerOnARunIsRefused) {
  const std::string run = testing::TempDir() + "/locked-run";
  fs::remove_all(run);
  const pid_t first = start_train(run, true);
  while (!fs::exists(run + "/config.yaml")) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::string second = run + ".second.out";
  const int status = std::system((kBinary + " train --run-dir " + run + " > " + second + " 2>&1").c_str());
  kill(first, SIGTERM);
  EXPECT_EQ(wait_exit(first), 0);
  EXPECT_NE(status, 0);
  const std::string said = read_whole_file(second);
  EXPECT_NE(said.find("run '" + run + "' is in use: another process holds '" + run + "/train.lock'"), std::string::npos)
      << said;
}

// A second trainer on a run in its first minute, with no model yet, was refused only after its
// config's checks had built a trainer (on a GPU run, on the GPU): now the lock comes first.
TEST(TrainingRun, ASecondTrainerIsRefusedBeforeItsConfigIsChecked) {
  const std::string run = testing::TempDir() + "/locked-new-run", config = run + ".yaml", said = run + ".said";
  fs::remove_all(run);
  fs::create_directories(run);
  const FileLock first(RunDirectory::lock_path_of(run), "the first trainer");
  write_tiny_config(config, {{"  channels: 16", "  channels: 16\n  init_from: /nonexistent/start.net"}});
  EXPECT_NE(std::system((kBinary + " train --config " + config + " --run-dir " + run + " > " + said + " 2>&1").c_str()),
            0);
  EXPECT_NE(read_whole_file(said).find("run '" + run + "' is in use"), std::string::npos) << read_whole_file(said);
}

// What would stop a new run in its first minute had stopped it there, its folder and config left
// behind: now before the folder is made.
TEST(TrainingRun, ARunThatCannotStartLeavesNoFolder) {
  const std::string run = testing::TempDir() + "/cannot-start", config = run + ".yaml", said = run + ".said";
  const std::string openings = testing::TempDir() + "/not-a-position.txt";
  std::ofstream(openings) << "x5o/7/7/7/7/7/o5x x 0 1\nbanana\n";
  struct Case {
    std::string from, to, said;  // the tiny config's line and what replaces it
  };
  const std::vector<Case> cases = {
      {"ladder:", "inference:\n  device: gpu\nladder:", "inference.device: unknown device 'gpu'"},
      {"ladder:", "boards:\n  names: [7x7]\n  openings: [" + openings + "]\nladder:",
       openings + ":2: invalid FEN 'banana'"},
      {"  learning_rate: 0.05", "  learning_rate: 0.05\n  teacher: /nonexistent/teacher.net",
       "training.teacher: cannot read model file"},
      {"  channels: 16", "  channels: 16\n  init_from: /nonexistent/start.net",
       "network.init_from: cannot read model file"},
      {"baselines: [random, greedy]", "baselines: [random, \"nn:model=/nonexistent.net\"]",
       "ladder.baselines: 'nn:model=/nonexistent.net' cannot play"}};
  for (const Case& c : cases) {
    fs::remove_all(run);
    write_tiny_config(config, {{c.from, c.to}});
    EXPECT_NE(
        std::system((kBinary + " train --config " + config + " --run-dir " + run + " > " + said + " 2>&1").c_str()), 0);
    EXPECT_NE(read_whole_file(said).find(c.said), std::string::npos) << read_whole_file(said);
    EXPECT_FALSE(fs::exists(run)) << c.said;
  }
}

// A run that never made its first model (stopped, or failed, in its first moments) takes a
// corrected config (before, its directory held the config it began with and refused any other);
// once it has a model, another config is refused.
TEST(TrainingRun, ARunThatFailedToStartTakesItsCorrectedConfig) {
  const std::string run = testing::TempDir() + "/failed-start";
  fs::remove_all(run);
  const std::string bad_config = run + ".yaml", said = run + ".said";
  write_tiny_config(bad_config, {{"visits: 24", "visits: 25"}});
  fs::create_directories(run + "/models");
  std::ofstream(run + "/config.yaml") << to_yaml(load_run_config(bad_config));  // as the run wrote it
  const std::string train_bad =
      kBinary + " train --config " + bad_config + " --run-dir " + run + " > " + said + " 2>&1";

  const pid_t corrected = start_train(run, true);
  while (!fs::exists(run + "/models/gen-0000.net")) {
    ASSERT_NE(waitpid(corrected, nullptr, WNOHANG), corrected) << "refused: " << read_whole_file(run + ".out");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(corrected, SIGTERM);
  EXPECT_EQ(wait_exit(corrected), 0) << read_whole_file(run + ".out");

  EXPECT_NE(std::system(train_bad.c_str()), 0);
  EXPECT_NE(read_whole_file(said).find("already holds a run with another config"), std::string::npos)
      << read_whole_file(said);
}

// Before, `train` or `selfplay` on a folder with no run made the run's folders there (in a mistyped
// --run-dir, a new tree) and only then said it held no run.
TEST(TrainingRun, AFolderWithoutARunIsLeftAsItWas) {
  const std::string empty = testing::TempDir() + "/not-a-run", missing = testing::TempDir() + "/mistyped-run";
  fs::remove_all(empty);
  fs::remove_all(missing);
  fs::create_directories(empty);
  // (selfplay's --run-dir must exist: its parser refuses a missing one.)
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"train --run-dir ", empty}, {"train --run-dir ", missing}, {"selfplay --games 1 --run-dir ", empty}};
  for (const auto& [command, folder] : commands) {
    const std::string said = testing::TempDir() + "/not-a-run.said";
    EXPECT_NE(std::system((kBinary + " " + command + folder + " > " + said + " 2>&1").c_str()), 0);
    EXPECT_NE(read_whole_file(said).find(
                  "'" + folder + "' holds no run: start one with `train --config FILE --run-dir " + folder + "`"),
              std::string::npos)
        << read_whole_file(said);
  }
  EXPECT_TRUE(fs::is_empty(empty));
  EXPECT_FALSE(fs::exists(missing));
  // An empty --run-dir had started a run in runs/<config name>.
  const std::string said = testing::TempDir() + "/empty-run-dir.said";
  EXPECT_NE(std::system(("cd " + empty + " && " + kBinary + " train --config " + kTinyConfig + " --run-dir '' > " +
                         said + " 2>&1")
                            .c_str()),
            0);
  EXPECT_NE(read_whole_file(said).find("--run-dir: empty"), std::string::npos) << read_whole_file(said);
  EXPECT_TRUE(fs::is_empty(empty));
}

// A new run went into any folder: another's files were mixed with its own (its log.txt appended to).
TEST(TrainingRun, ANewRunGoesOnlyWhereNothingElseIs) {
  const std::string busy = testing::TempDir() + "/someone-elses-folder";
  fs::remove_all(busy);
  fs::create_directories(busy);
  std::ofstream(busy + "/log.txt") << "my notes\n";
  const std::string said = testing::TempDir() + "/new-run.said";
  const auto train = [&](const std::string& arguments) {
    return std::system((kBinary + " train " + arguments + " > " + said + " 2>&1").c_str());
  };
  EXPECT_NE(train("--config " + kTinyConfig + " --run-dir " + busy), 0);
  const std::string no_run =
      "' holds files but no run (no config.yaml): to resume the run whose files they are, put "
      "its config.yaml back; to start one, give a new or empty --run-dir";
  EXPECT_NE(read_whole_file(said).find("'" + busy + no_run), std::string::npos) << read_whole_file(said);
  EXPECT_EQ(read_whole_file(busy + "/log.txt"), "my notes\n");
  EXPECT_FALSE(fs::exists(busy + "/models"));
  // Resumed, it had been said to hold no run, and `train --config` then refused as above.
  EXPECT_NE(train("--run-dir " + busy), 0);
  EXPECT_NE(read_whole_file(said).find("'" + busy + no_run), std::string::npos) << read_whole_file(said);

  // Another tool's config.yaml had counted as a run's and been replaced.
  const std::string theirs = testing::TempDir() + "/another-tools-folder";
  fs::remove_all(theirs);
  fs::create_directories(theirs);
  std::ofstream(theirs + "/config.yaml") << "tool: settings\n";
  EXPECT_NE(train("--config " + kTinyConfig + " --run-dir " + theirs), 0);
  EXPECT_NE(read_whole_file(said).find("'" + theirs + "/config.yaml' is a file of yours, not one a run wrote"),
            std::string::npos)
      << read_whole_file(said);
  EXPECT_EQ(read_whole_file(theirs + "/config.yaml"), "tool: settings\n");
  EXPECT_FALSE(fs::exists(theirs + "/models"));

  const std::string file = testing::TempDir() + "/a-file-not-a-folder";
  std::ofstream(file) << "kept\n";
  EXPECT_NE(train("--config " + kTinyConfig + " --run-dir " + file), 0);
  EXPECT_NE(read_whole_file(said).find("'" + file + "' is a file: a run directory is a folder"), std::string::npos)
      << read_whole_file(said);
  EXPECT_NE(train("--config " + kTinyConfig + " --run-dir " + file + "/sub"), 0);  // had been std::filesystem's words
  EXPECT_NE(read_whole_file(said).find("cannot make the run's folder '" + file + "/sub/models': Not a directory"),
            std::string::npos)
      << read_whole_file(said);
}

// An openings file that cannot be read was named by gating, under its own name, once the run had
// started; now by its key, before.
TEST(TrainingRun, AnOpeningsFileThatCannotBeReadIsNamedByItsKey) {
  const std::string config = testing::TempDir() + "/missing-openings.yaml",
                    run = testing::TempDir() + "/missing-openings";
  fs::remove_all(run);
  std::ofstream(config) << read_whole_file(kTinyConfig)
                        << "\nboards:\n  names: [7x7]\n  openings: [/nonexistent/openings.txt]\n";
  const std::string said = testing::TempDir() + "/missing-openings.said";
  EXPECT_NE(std::system((kBinary + " train --config " + config + " --run-dir " + run + " > " + said + " 2>&1").c_str()),
            0);
  EXPECT_NE(
      read_whole_file(said).find("config " + config + ": boards.openings: cannot read '/nonexistent/openings.txt'"),
      std::string::npos)
      << read_whole_file(said);
  EXPECT_FALSE(fs::exists(run));
}

// A config refused for a typo left the run's folders and its lock where the run would have gone.
TEST(TrainingRun, ARefusedConfigLeavesNoRunFolder) {
  // A repetition limit of 1 had failed self-play only once the run's first model was made, its config then fixed.
  for (const auto& [added, said_of_it] : std::vector<std::pair<std::string, std::string>>{
           {"\ntrainig:\n  steps: 1\n", "trainig"},
           {"rules:\n  repetition_limit: 1\n", "rules.repetition_limit: is 1"}}) {
    const std::string config = testing::TempDir() + "/typo.yaml", run = testing::TempDir() + "/typo-run";
    fs::remove_all(run);
    std::ofstream(config) << read_whole_file(kTinyConfig) << added;
    const std::string said = testing::TempDir() + "/typo.said";
    EXPECT_NE(
        std::system((kBinary + " train --config " + config + " --run-dir " + run + " > " + said + " 2>&1").c_str()), 0);
    EXPECT_NE(read_whole_file(said).find(said_of_it), std::string::npos) << read_whole_file(said);
    EXPECT_FALSE(fs::exists(run));
  }
}

// A config.yaml the user kept in the run's folder was rewritten without its comments: the file stays
// as written, and --seed may not rewrite it.
TEST(TrainingRun, SlowARunInTheFolderOfItsConfigKeepsTheFileAsWritten) {
  const std::string said = testing::TempDir() + "/own-config-run.said";
  const auto train = [&](const std::string& arguments) {
    return std::system((kBinary + " train " + arguments + " > " + said + " 2>&1").c_str());
  };
  const std::string own = testing::TempDir() + "/run-with-its-config";
  fs::remove_all(own);
  fs::create_directories(own);
  std::string config = "# my comment\n" + read_whole_file(kTinyConfig) + "\n";
  config.replace(config.find("max_generations: 3"), 18, "max_generations: 1");  // one candidate is enough here
  std::ofstream(own + "/config.yaml") << config;
  EXPECT_NE(train("--config " + own + "/config.yaml --run-dir " + own + " --seed 12345"), 0);
  EXPECT_NE(
      read_whole_file(said).find("--seed 12345 would rewrite '" + own + "/config.yaml': set run.seed in it instead"),
      std::string::npos)
      << read_whole_file(said);
  EXPECT_EQ(train("--config " + own + "/config.yaml --run-dir " + own), 0) << read_whole_file(said);
  EXPECT_EQ(read_whole_file(own + "/config.yaml"), config);
  EXPECT_TRUE(fs::exists(own + "/models/gen-0001.net")) << read_whole_file(said);
}

// A self-play process may set its machine's own keys, not the run's recipe.
TEST(TrainingRun, SelfPlaySetsOnlyItsMachinesKeys) {
  const std::string run = testing::TempDir() + "/machine-keys-run";
  fs::remove_all(run);
  fs::create_directories(run);
  fs::copy_file(kTinyConfig, run + "/config.yaml");
  const std::string said = run + ".said";
  const auto selfplay = [&](const std::string& set) {
    return std::system(
        (kBinary + " selfplay --games 1 --run-dir " + run + " --set " + set + " > " + said + " 2>&1").c_str());
  };
  EXPECT_NE(selfplay("selfplay.visits=3"), 0);
  EXPECT_NE(read_whole_file(said).find("--set selfplay.visits: a self-play process sets only its machine's keys"),
            std::string::npos)
      << read_whole_file(said);
  EXPECT_NE(selfplay("=5"), 0);  // had been "--set : a self-play process sets only its machine's keys"
  EXPECT_NE(read_whole_file(said).find("config --set: '=5' is not SECTION.KEY=VALUE"), std::string::npos)
      << read_whole_file(said);
  EXPECT_NE(selfplay("inference.max_batch=0"), 0);
  EXPECT_NE(read_whole_file(said).find("config --set: inference.max_batch: 0 is out of range"), std::string::npos)
      << read_whole_file(said);
  EXPECT_EQ(read_whole_file(run + "/config.yaml"), read_whole_file(kTinyConfig)) << "the run's config is the run's";
}

// A CPU machine joining a GPU run (`--set inference.device=cpu`) had failed on the run's CUDA
// graphs ("cuda_graphs needs a CUDA device") unless it also set them off.
TEST(TrainingRun, ACpuMachineJoinsARunWithCudaGraphs) {
  const std::string run = testing::TempDir() + "/gpu-run-joined";
  fs::remove_all(run);
  fs::create_directories(run + "/models");
  std::ofstream(run + "/config.yaml") << read_whole_file(kTinyConfig)
                                      << "inference:\n  device: cuda\n  cuda_graphs: true\n";
  write_random_play_file(run + "/models/gen-0000.net", {1, 16}, 1);
  std::ofstream(run + "/models/best") << "gen-0000\n";
  const std::string said = run + ".said";
  const auto selfplay = [&](const std::string& sets) {
    return std::system(
        (kBinary + " selfplay --games 1 --run-dir " + run + " " + sets + " > " + said + " 2>&1").c_str());
  };
  EXPECT_EQ(selfplay("--set inference.device=cpu"), 0) << read_whole_file(said);
  EXPECT_TRUE(std::regex_search(read_whole_file(said), std::regex("Self-play wrote [1-9][0-9]* games\\.")))
      << read_whole_file(said);
  EXPECT_NE(selfplay("--set inference.device=cpu --set inference.cuda_graphs=true"), 0);  // its own setting stands
  EXPECT_NE(read_whole_file(said).find("cuda_graphs needs a CUDA device"), std::string::npos) << read_whole_file(said);
}

std::vector<float> values_drawn(const ReplayBuffer& buffer) {
  std::mt19937_64 rng(11);
  std::vector<float> values;
  for (int i = 0; i < 1000; ++i) values.push_back(buffer.sample(rng).root_value);
  return values;
}

// A run packed as it is carried from one GPU machine to the next: only the window's chunks and a
// tally of the rest, yet the same totals, window and trainer's step, and it trains on from there.
TEST(TrainingRun, SlowAPackedRunResumesAtTheSameStepWithTheSameWindow) {
  const std::string run = testing::TempDir() + "/packed-run";
  const std::string packed = run + "-pack";
  fs::remove_all(run);
  fs::remove_all(packed);
  const std::string config = run + ".yaml";
  write_tiny_config(config, {{"max_generations: 3", "max_generations: 4"}, {"games_per_chunk: 8", "games_per_chunk: 2"}});
  const std::string openings = fs::absolute(kTinyConfig).parent_path().string() + "/openings/balanced-4ply.txt";
  std::ofstream(config, std::ios::app) << "\nboards:\n  names: [7x7]\n  openings: [" << openings << "]\n";
  const pid_t train = start_process({"train", "--config", config, "--run-dir", run}, run + ".out");
  while (!fs::exists(run + "/models/gen-0002.net")) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::string refused = run + ".pack-refused.out";
  EXPECT_NE(std::system((kBinary + " pack --run-dir " + run + " --into " + packed + " > " + refused + " 2>&1").c_str()), 0);
  EXPECT_NE(read_whole_file(refused).find("stop its train process before packing it"), std::string::npos)
      << read_whole_file(refused);
  EXPECT_FALSE(fs::exists(packed));
  kill(train, SIGTERM);
  ASSERT_EQ(wait_exit(train), 0);

  ASSERT_EQ(std::system((kBinary + " pack --run-dir " + run + " --into " + packed + " > " + run + ".pack.out").c_str()), 0);
  // A resume elsewhere had failed on the files the config names, which no pack holds: the pack names them.
  EXPECT_NE(read_whole_file(run + ".pack.out")
                .find("does not hold; a resume reads them where they are, from the folder "
                      "train runs in:\n  boards.openings: " +
                      openings + "\n"),
            std::string::npos)
      << read_whole_file(run + ".pack.out");
  const RunConfig run_config = load_run_config(run + "/config.yaml");
  ReplayBuffer whole = run_replay_buffer<AtaxxGame>(run_config);
  ReplayBuffer window = run_replay_buffer<AtaxxGame>(run_config);
  whole.refresh(run + "/games");
  window.refresh(packed + "/games");
  const auto chunks = [](const std::string& dir) {
    return std::count_if(fs::directory_iterator(dir + "/games"), {}, [](const auto& e) { return e.path().extension() == ".zst"; });
  };
  EXPECT_LT(chunks(packed), chunks(run)) << "a window of " << whole.window() << " samples in " << whole.total_samples();
  EXPECT_EQ(window.total_samples(), whole.total_samples());
  EXPECT_EQ(window.total_games(), whole.total_games());
  EXPECT_EQ(window.window(), whole.window());
  EXPECT_EQ(values_drawn(window), values_drawn(whole));
  for (const char* dropped : {"live", "plots"}) EXPECT_FALSE(fs::exists(packed + "/" + dropped)) << dropped;

  const std::string stopped = "/checkpoints/stopped.ckpt";
  const bool went_on = fs::exists(run + stopped);
  std::int64_t step = 0;
  if (went_on) step = read_checkpoint_info(packed + stopped).step;
  ASSERT_EQ(wait_exit(start_process({"train", "--run-dir", packed}, packed + ".out")), 0);
  const std::string log = read_whole_file(packed + "/log.txt");
  if (went_on) {
    EXPECT_NE(log.find(fmt::format("training: goes on at step {}", step)), std::string::npos) << log;
  }
  EXPECT_EQ(read_checkpoint_info(packed + "/checkpoints/gen-0004.ckpt").step, 160) << log;
  EXPECT_EQ(log.find("waiting for"), std::string::npos) << "the packed run's totals allow its steps at once";
}

// Every gating verdict has its one match row, and the best model is the last one promoted.
void expect_gating_consistent(const std::string& run) {
  std::map<std::string, int> gating_rows;
  for (const auto& row : csv_rows(run + "/matches.csv"))
    if (row.size() >= 7 && row[6] == "gating") ++gating_rows[row[1]];
  std::string promoted = "gen-0000";
  for (const auto& row : csv_rows(run + "/gating.csv")) {
    EXPECT_EQ(gating_rows[row[0]], 1) << row[0] << "'s gating match";
    if (row[6] == "1") promoted = row[0];
  }
  EXPECT_EQ(best_model(run), promoted);
}

// Whether a checkpoint is gone because RunDirectory::prune keeps only the newest three.
bool pruned(const std::string& checkpoint, const std::map<std::string, std::string>& files) {
  int newer = 0;
  for (const auto& [path, contents] : files) newer += path.starts_with("checkpoints/gen-") && path > checkpoint;
  return newer >= 3;
}

TEST(TrainingRun, SlowSigkillAndResumeLosesNothing) {
  const std::string run = testing::TempDir() + "/killed-run";
  fs::remove_all(run);
  std::map<std::string, std::string> before;
  // The trainer and an extra self-play process, each killed at its own moment; the last kill
  // lands inside the gating of a candidate (its play file is there, its verdict not yet).
  for (const int delay_ms : {2500, 5000, 0}) {
    const pid_t train = start_train(run, before.empty());
    const pid_t selfplay = start_selfplay(run, run + ".selfplay.out");
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms / 2));
    kill(selfplay, SIGKILL);
    if (const std::size_t gated = csv_rows(run + "/gating.csv").size(); delay_ms == 0 && gated < 3) {
      const std::string next = fmt::format("{}/models/gen-{:04d}.net", run, gated + 1);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      while (!fs::exists(next) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms / 2));
    kill(train, SIGKILL);
    wait_exit(selfplay);
    wait_exit(train);
    // What was written before the kill is still there, byte for byte; append-only files may grow,
    // and the snapshots rewritten whole (the ratings table, the best model's name, the wall time)
    // may change but are never torn.
    const auto now = file_contents(run);
    for (const auto& [path, contents] : before) {
      if (!now.count(path) && path.starts_with("checkpoints/gen-") && pruned(path, now)) continue;
      ASSERT_TRUE(now.count(path)) << path << " was lost";
      if (path == "ratings.csv") {
        EXPECT_TRUE(now.at(path).starts_with("player,elo,error95,games\n")) << now.at(path);
        EXPECT_TRUE(now.at(path).ends_with("\n")) << now.at(path);
      } else if (path.ends_with(".csv") || path == "log.txt") {
        EXPECT_EQ(now.at(path).rfind(contents, 0), 0U) << path;
      } else if (path != "models/best" && path != "elapsed_minutes") {
        EXPECT_EQ(now.at(path), contents) << path;
      }
    }
    before = now;
  }
  ASSERT_EQ(wait_exit(start_train(run, false)), 0) << "resume failed";
  for (const auto& entry : fs::directory_iterator(run + "/games")) EXPECT_NO_THROW(read_chunk(entry.path()));
  const auto after = file_contents(run);
  for (const auto& [path, contents] : before)
    if ((path.ends_with(".zst") || path.ends_with(".ckpt") || path.ends_with(".net")) &&
        !(path.starts_with("checkpoints/gen-") && pruned(path, after))) {
      ASSERT_TRUE(after.count(path)) << path << " was lost on resume";
      EXPECT_EQ(after.at(path), contents) << path << " changed on resume";
    }
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_FALSE(metrics.empty());
  EXPECT_EQ(metrics.back()[0], "3");  // the run reached its last candidate
  EXPECT_EQ(csv_rows(run + "/gating.csv").back()[0], "gen-0003");
  expect_gating_consistent(run);
}

std::int64_t games_written(const std::string& output) {
  std::ifstream in(output);
  std::string line;
  std::int64_t games = -1;
  while (std::getline(in, line)) std::sscanf(line.c_str(), "Self-play wrote %ld games.", &games);
  return games;
}

bool chunk_of_model_exists(const std::string& games_dir, const std::string& model) {
  for (const auto& entry : fs::directory_iterator(games_dir)) {
    const std::string name = entry.path().filename();
    if (name.find(".tmp.") != std::string::npos || !name.ends_with(".zst")) continue;  // still being written
    for (const TrainingSample& sample : read_chunk(entry.path()))
      if (sample.model == model) return true;
  }
  return false;
}

TEST(TrainingRun, SlowTwoSelfPlayProcessesAndTheTrainerShareARun) {
  const std::string run = testing::TempDir() + "/shared-run";
  fs::remove_all(run);
  const pid_t train = start_train(run, true);
  // The second as on a machine of its own, with one thread.
  const std::vector<pid_t> extra = {start_selfplay(run, run + ".1.out"),
                                    start_selfplay(run, run + ".2.out", {"--set", "selfplay.threads=1"})};
  ASSERT_EQ(wait_exit(train), 0);
  const std::string best = best_model(run);
  // A promotion at the run's very end reaches the extra processes after the trainer has stopped:
  // they go on playing until a chunk of the final best is on disk (or a minute has passed).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (best != "gen-0000" && !chunk_of_model_exists(run + "/games", best) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  for (const pid_t pid : extra) kill(pid, SIGTERM);
  for (const pid_t pid : extra) EXPECT_EQ(wait_exit(pid), 0);

  std::map<pid_t, std::int64_t> games_on_disk;
  std::set<std::string> models;
  // Every sample on disk once: two processes, or two chunks of one, that wrote the same games
  // (as with one seed) show as the same sample in two places, whatever else the chunks hold.
  std::map<std::string, std::string> where_sample;
  for (const auto& entry : fs::directory_iterator(run + "/games")) {
    const std::string name = entry.path().filename();
    for (const pid_t pid : extra)
      if (name.find("-" + std::to_string(pid) + "-") != std::string::npos) games_on_disk[pid] += chunk_counts(entry.path()).games;
    const std::vector<TrainingSample> samples = read_chunk(entry.path());
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const TrainingSample& sample = samples[i];
      models.insert(sample.model);
      std::string key = sample.position.fen() + fmt::format(" {} {}", sample.root_value, sample.visits.size());
      for (const auto& [move, visits] : sample.visits) key += fmt::format(" {}{}:{}", move.from, move.to, visits);
      const auto [at, fresh] = where_sample.emplace(key, name + " #" + std::to_string(i));
      EXPECT_TRUE(fresh) << name << " #" << i << " repeats " << at->second;
    }
  }
  // Every game a process says it wrote is on disk.
  for (int i = 0; i < 2; ++i) {
    const std::int64_t said = games_written(run + "." + std::to_string(i + 1) + ".out");
    EXPECT_GT(said, 0);
    EXPECT_EQ(games_on_disk[extra[i]], said) << "self-play process " << i + 1;
  }
  // Each move names the model that played it, one of the run's.
  for (const std::string& model : models) EXPECT_TRUE(fs::exists(run + "/models/" + model + ".net")) << model;
  if (best != "gen-0000") {
    EXPECT_GT(models.size(), 1U) << "self-play should follow promotions";
  }
}

}  // namespace
}  // namespace ataxx
