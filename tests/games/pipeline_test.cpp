// The proof that a game is a folder: tic-tac-toe, which the programs do not play, self-plays, trains
// candidates, gates them, plays the ladder and a match through the same pipeline as Ataxx, compiled
// here from the pipeline's template definitions for the tests' registry alone.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "match/match_impl.h"
#include "mcts/search_impl.h"
#include "mcts/search_threads_impl.h"
#include "nn/batched_evaluator_impl.h"
#include "nn/inference_server_impl.h"
#include "players/alphabeta_impl.h"
#include "players/baseline_players_impl.h"
#include "players/mcts_player_impl.h"
#include "players/network_player_impl.h"
#include "players/player_impl.h"
#include "players/uai_player_impl.h"
#include "selfplay/selfplay_worker_impl.h"
#include "selfplay/training_data_impl.h"
#include "tests/games/test_registry.h"
#include "trainer/batch_impl.h"
#include "trainer/gatekeeper_impl.h"
#include "trainer/replay_buffer_impl.h"
#include "trainer/selfplay_loop_impl.h"
#include "trainer/trainer_impl.h"
#include "trainer/training_run_impl.h"
#include "util/text.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

using G = TicTacToeGame;

constexpr const char* kConfig = R"(run:
  game: tictactoe
  seed: 5
  max_minutes: 60
  max_generations: 2
network:
  blocks: 1
  channels: 16
selfplay:
  concurrent_games: 16
  visits: 24
  games_per_chunk: 16
training:
  batch_size: 64
  min_samples: 400
  steps_per_candidate: 60
  max_sample_reuse: 8
  min_window: 500
  learning_rate: 0.05
gating:
  games: 12
  visits: 16
  threshold: 0.5
ladder:
  baselines: [random]
  games: 8
  visits: 16
)";

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) rows.push_back(split(line, ','));
  return rows;
}

TEST(ThirdGame, TheProgramsDoNotPlayIt) {
  EXPECT_FALSE(Games::has(G::kName));
  EXPECT_THROW(parse_run_config(kConfig, "tictactoe.yaml"), std::runtime_error);
  EXPECT_EQ(parse_run_config(kConfig, "tictactoe.yaml", RunGames::of<TestGames>()).run.game, "tictactoe");
}

TEST(ThirdGame, SelfPlaysTrainsGatesAndPlaysAMatchThroughThePipeline) {
  const std::string run = testing::TempDir() + "/tictactoe-run";
  fs::remove_all(run);
  const std::string config_path = run + ".yaml";
  std::ofstream(config_path) << kConfig;
  const std::atomic<bool> stop{false};

  const TrainingSummary summary = run_training_of<TestGames>(config_path, run, std::nullopt, stop);

  EXPECT_EQ(summary.game, "tictactoe");
  EXPECT_EQ(summary.generations, 2);
  // Self-play wrote tic-tac-toe's chunks, whose samples the game's codec reads back.
  std::size_t samples = 0;
  for (const auto& chunk : fs::directory_iterator(run + "/games"))
    if (chunk.path().extension() == ".zst") samples += read_chunk<G>(chunk.path().string()).size();
  EXPECT_GE(samples, 400u);
  // Two candidates trained, the loss falling; each gated in 12 games; the best played the ladder.
  const auto metrics = csv_rows(run + "/metrics.csv");
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_LT(std::stod(metrics.back()[7]), std::stod(metrics.front()[7]));
  const auto gating = csv_rows(run + "/gating.csv");
  ASSERT_FALSE(gating.empty());
  for (const auto& row : gating) EXPECT_EQ(std::stoi(row[2]) + std::stoi(row[3]) + std::stoi(row[4]), 12);
  EXPECT_NE(summary.ratings_table.find("random"), std::string::npos) << summary.ratings_table;

  // The best model, through the network player and the match runner, against random: both colours,
  // from the game's own openings.
  RunConfig config = parse_run_config(kConfig, "tictactoe.yaml", RunGames::of<TestGames>());
  const BasicMatchResult<G> match = run_match<G>(run_match_config<G>(
      config, run_network_player<G>(config, "best", summary.best_model_path, 64), BasicPlayerSource<G>("random"), 24, 11));
  EXPECT_EQ(match.score.games(), 24);
  EXPECT_GE(match.score.score(), 0.75) << "the trained net and its search against random";
}

}  // namespace
}  // namespace ataxx
