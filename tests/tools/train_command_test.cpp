// `ataxx-zero train` from the command line: what a user reads at its end runs as printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// The command of the closing line "Label:   command".
std::string closing_command(const std::string& output, const std::string& label) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(label + ":")) return line.substr(line.find_first_not_of(' ', label.size() + 1));
  return "";
}

// A run whose folder holds a comma, an equals sign, a blank and a quote: each command the run
// ends with runs as printed, its best model found through models/best.
TEST(TrainCommand, SlowTheCommandsItEndsWithRunAsPrintedWhateverTheRunsPath) {
  const std::string scratch = testing::TempDir() + "/train-command";
  std::filesystem::remove_all(scratch);
  const std::string run_dir = scratch + "/a,b=c d'e/run";
  std::filesystem::create_directories(run_dir);
  const std::string config = scratch + "/one.yaml";
  std::ofstream(config) << "run:\n  max_generations: 1\nnetwork:\n  blocks: 1\n  channels: 8\n"
                        << "selfplay:\n  visits: 8\n  fast_visits: 4\ntraining:\n  batch_size: 32\n  min_samples: 100\n"
                        << "  steps_per_candidate: 10\n  min_window: 100\ngating:\n  games: 0\nladder:\n  games: 0\n";
  const Ran trained = run("train --config " + config + " --run-dir \"" + run_dir + "\"");
  ASSERT_EQ(trained.status, 0) << trained.output;
  std::map<std::string, std::string> commands;
  for (const char* label : {"Resume", "Play it", "In a GUI (UAI engine)", "In the browser", "Measure it"}) {
    commands[label] = closing_command(trained.output, label);
    ASSERT_FALSE(commands[label].empty()) << label << " missing from:\n" << trained.output;
  }

  std::string measure = commands.at("Measure it");
  measure.replace(measure.find("--games 20"), 10, "--games 2");
  const Ran measured = run_shell(measure);
  EXPECT_EQ(measured.status, 0) << measure << "\n" << measured.output;
  EXPECT_NE(measured.output.find("Score of"), std::string::npos) << measured.output;

  const Ran played = run_shell("printf 'quit\\n' | " + commands.at("Play it"));
  EXPECT_EQ(played.status, 0) << commands.at("Play it") << "\n" << played.output;

  const Ran engine = run_shell("printf 'uai\\nposition startpos\\ngo nodes 20\\nquit\\n' | " +
                               commands.at("In a GUI (UAI engine)"));
  EXPECT_EQ(engine.status, 0) << engine.output;
  EXPECT_NE(engine.output.find("bestmove"), std::string::npos) << commands.at("In a GUI (UAI engine)") << "\n"
                                                               << engine.output;
  EXPECT_NE(engine.output.find("searching with"), std::string::npos) << engine.output;
}

}  // namespace
}  // namespace ataxx
