// End to end through the real binary: a tiny run that trains, and a run killed with SIGKILL at
// arbitrary moments that must resume without losing or corrupting anything.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "selfplay/training_data.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

const std::string kBinary = ATAXX_ZERO_BINARY;
const std::string kTinyConfig = std::string(ATAXX_SOURCE_DIR) + "/configs/tiny.yaml";

pid_t start_train(const std::string& run_dir, bool with_config) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string log = run_dir + ".out";
    freopen(log.c_str(), "a", stdout);
    if (with_config)
      execl(kBinary.c_str(), kBinary.c_str(), "train", "--config", kTinyConfig.c_str(), "--run-dir", run_dir.c_str(), nullptr);
    else
      execl(kBinary.c_str(), kBinary.c_str(), "train", "--run-dir", run_dir.c_str(), nullptr);
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

std::map<std::string, std::string> file_contents(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), dir);
    if (rel.find(".tmp.") != std::string::npos || rel.rfind("plots/", 0) == 0) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[rel] = std::string((std::istreambuf_iterator<char>(in)), {});
  }
  return files;
}

TEST(TrainingRun, SlowTinyRunLearnsAndGates) {
  const std::string run = testing::TempDir() + "/tiny-run";
  fs::remove_all(run);
  ASSERT_EQ(wait_exit(start_train(run, true)), 0);
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_EQ(metrics.size(), 3U);
  const double first_loss = std::stod(metrics.front()[9]), last_loss = std::stod(metrics.back()[9]);
  EXPECT_LT(last_loss, first_loss * 0.9) << "the loss should fall";
  // A decision for every candidate, by the config's threshold (0.5), and the best model is the
  // last one promoted.
  const auto gating = csv_rows(run + "/gating.csv");
  ASSERT_EQ(gating.size(), 3U);
  std::string last_promoted = "gen-0000";
  for (int i = 0; i < 3; ++i) {
    const auto& row = gating[i];
    EXPECT_EQ(row[0], "gen-000" + std::to_string(i + 1));
    EXPECT_EQ(row[1], last_promoted) << "each candidate plays the best model of its time";
    EXPECT_EQ(std::stoi(row[2]) + std::stoi(row[3]) + std::stoi(row[4]), 8);
    EXPECT_EQ(row[6], std::stod(row[5]) >= 0.5 ? "1" : "0") << "score " << row[5];
    if (row[6] == "1") last_promoted = row[0];
  }
  std::ifstream best(run + "/models/best");
  std::string name;
  best >> name;
  EXPECT_EQ(name, last_promoted);
  EXPECT_TRUE(fs::exists(run + "/models/" + name + ".net"));
  // Every promoted model played the ladder's two baselines.
  int ladder_rows = 0;
  for (const auto& row : csv_rows(run + "/matches.csv")) ladder_rows += row[6] == "ladder";
  EXPECT_GE(ladder_rows, 2);
  EXPECT_TRUE(fs::exists(run + "/ratings.csv"));
  EXPECT_TRUE(fs::exists(run + "/plots/losses.png"));
}

TEST(TrainingRun, SlowSigkillAndResumeLosesNothing) {
  const std::string run = testing::TempDir() + "/killed-run";
  fs::remove_all(run);
  std::map<std::string, std::string> before;
  for (const int delay_ms : {3500, 6000}) {
    const pid_t pid = start_train(run, before.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    wait_exit(pid);
    // What was written before the kill is still there, byte for byte (append-only files may grow).
    const auto now = file_contents(run);
    for (const auto& [path, contents] : before) {
      ASSERT_TRUE(now.count(path)) << path << " was lost";
      if (path.ends_with(".csv") || path == "log.txt") {
        EXPECT_EQ(now.at(path).rfind(contents, 0), 0U) << path;
      } else if (path != "models/best" && path != "elapsed_minutes") {
        EXPECT_EQ(now.at(path), contents) << path;
      }
    }
    before = now;
  }
  ASSERT_EQ(wait_exit(start_train(run, false)), 0) << "resume failed";
  for (const auto& entry : fs::directory_iterator(run + "/games")) EXPECT_NO_THROW(read_chunk(entry.path()));
  for (const auto& [path, contents] : before)
    if (path.ends_with(".zst") || path.ends_with(".ckpt") || path.ends_with(".net")) {
      EXPECT_EQ(file_contents(run).at(path), contents) << path << " changed on resume";
    }
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_FALSE(metrics.empty());
  EXPECT_EQ(metrics.back()[0], "3");  // the run reached its last generation
  EXPECT_EQ(csv_rows(run + "/gating.csv").size(), 3U);
}

}  // namespace
}  // namespace ataxx
