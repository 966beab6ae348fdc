#include "trainer/gatekeeper.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/inference_server.h"
#include "players/network_player.h"

namespace ataxx {
namespace {

// check_run_matches' refusal, or "" where it accepted the baselines.
std::string refusal_of(const RunConfig& config) {
  try {
    check_run_matches<AtaxxGame>(config);
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

TEST(Gatekeeper, ALadderBaselineThatCannotPlayIsRefusedBeforeTheRunStarts) {
  RunConfig config;
  config.ladder.baselines = {"random", "nn:model=/nonexistent/anchor.net,visits=8"};
  const std::string missing_model = refusal_of(config);
  EXPECT_NE(missing_model.find("ladder.baselines: 'nn:model=/nonexistent/anchor.net,visits=8'"), std::string::npos)
      << "a missing model was accepted as a ladder baseline: " << missing_model;
  // An engine that cannot start passed (it was only made), and a match of the ladder, which now
  // checks its players before its first game, would have ended the run a generation later.
  config.ladder.baselines = {"uai:cmd=/nonexistent/engine"};
  const std::string no_engine = refusal_of(config);
  EXPECT_NE(no_engine.find("ladder.baselines: 'uai:cmd=/nonexistent/engine' cannot play: cannot start"),
            std::string::npos)
      << "an engine that cannot start was accepted as a ladder baseline: " << no_engine;
  config.ladder.games = 0;  // a ladder that plays nothing has no baselines to check
  EXPECT_NO_THROW(check_run_matches<AtaxxGame>(config));
  config.ladder.games = 10;
  config.ladder.baselines = {"random", "greedy", "alphabeta:depth=2"};
  EXPECT_NO_THROW(check_run_matches<AtaxxGame>(config));
}

// A baseline that checked at the run's start and cannot play later (its engine gone) is said and
// passed over; the ladder's other baselines are still played and recorded.
TEST(Gatekeeper, ALadderBaselineThatCannotPlayMidRunIsSaidAndPassedOver) {
  const std::string root = testing::TempDir() + "/ladder-mid-run";
  std::filesystem::remove_all(root);
  const RunDirectory dir(root);
  std::filesystem::create_directories(std::filesystem::path(dir.model_path(1)).parent_path());
  write_random_play_file(dir.model_path(1), {1, 8}, 1);
  dir.set_best("gen-0001");
  RunConfig config;
  config.ladder.games = 2;
  config.ladder.visits = 4;
  config.gating.concurrency = 1;
  const std::string gone = "uai:cmd=" + root + "/engine-removed";
  config.ladder.baselines = {gone, "random"};
  const auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100);
  spdlog::logger log("gate", sink);
  play_ladder<AtaxxGame>(
      config, dir, [] { return false; }, log);

  const std::vector<PairResult> played = dir.matches();
  ASSERT_EQ(played.size(), 1U);
  EXPECT_EQ(played[0].first, "gen-0001");
  EXPECT_EQ(played[0].second, "random");
  EXPECT_EQ(played[0].first_wins + played[0].second_wins + played[0].draws, 2);
  const std::vector<std::string> said = sink->last_formatted();
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said[0].find("ladder: gen-0001 vs " + gone + " not played: "), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("cannot play this match"), std::string::npos) << said[0];
}

// PATH set to one folder for the test's lifetime, then restored.
class PathOfOneFolder {
 public:
  explicit PathOfOneFolder(const std::string& folder) : saved_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    std::filesystem::create_directories(folder);
    ::setenv("PATH", folder.c_str(), 1);
  }
  ~PathOfOneFolder() { ::setenv("PATH", saved_.c_str(), 1); }

 private:
  std::string saved_;
};

TEST(Gatekeeper, AMissingGnuplotIsSaidOnceAndAFailingOneEachTime) {
  const std::string root = testing::TempDir() + "/plots-without-gnuplot";
  std::filesystem::remove_all(root);
  const RunDirectory dir(root + "/run");
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "1,3,2,1,0.5");
  const auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100);
  spdlog::logger log("gate", sink);
  RatingsAndPlots ratings_and_plots;
  {
    const PathOfOneFolder path(root + "/empty");
    EXPECT_EQ(dir.plot(), RunDirectory::PlotResult::kNoGnuplot);
    for (int candidate = 0; candidate < 3; ++candidate) ratings_and_plots.update(dir, log);
  }
  ASSERT_EQ(sink->last_formatted().size(), 1u);
  EXPECT_NE(sink->last_formatted()[0].find("no gnuplot"), std::string::npos) << sink->last_formatted()[0];
  {
    const PathOfOneFolder path(root + "/failing");
    const std::string gnuplot = root + "/failing/gnuplot";
    std::ofstream(gnuplot) << "#!/bin/sh\nexit 1\n";
    ::chmod(gnuplot.c_str(), 0755);
    for (int candidate = 0; candidate < 2; ++candidate) ratings_and_plots.update(dir, log);
  }
  const std::vector<std::string> said = sink->last_formatted();
  ASSERT_EQ(said.size(), 3u);
  EXPECT_NE(said[1].find("gnuplot failed"), std::string::npos) << said[1];
  EXPECT_NE(said[2].find("gnuplot failed"), std::string::npos) << said[2];
}

TEST(Gatekeeper, GatingPlaysWithTheRunsInferenceSettings) {
  RunConfig config;
  config.inference = {.device = "cuda:1", .bf16 = true, .cuda_graphs = true, .max_batch = 96, .threads = 3,
                      .cache_entries = 5000};
  const NetworkPlayerOptions options = run_network_options(config, "/runs/a/models/gen-0007.net", 40);
  EXPECT_EQ(options.model, "/runs/a/models/gen-0007.net");
  EXPECT_EQ(options.search.visits, 40);
  EXPECT_EQ(options.inference.device, "cuda:1");
  EXPECT_TRUE(options.inference.bf16);
  EXPECT_TRUE(options.inference.cuda_graphs);
  EXPECT_EQ(options.inference.max_batch, 96);
  EXPECT_EQ(options.inference.threads, 3);
  EXPECT_EQ(options.inference.cache_entries, 5000);
}

TEST(Gatekeeper, ARunsModelPlaysFromAPathWithCommasAndEquals) {
  // Before: the path went into "nn:model=PATH,...", and "run,x=1" split it into two options.
  const std::string dir = testing::TempDir() + "/run,x=1";
  std::filesystem::create_directories(dir);
  write_random_play_file(dir + "/gen-0001.net", {1, 8}, 1);
  RunConfig config;
  const PlayerSource source = run_network_player(config, "gen-0001", dir + "/gen-0001.net", 4);
  EXPECT_EQ(source.name, "gen-0001");
  const auto player = source.make();
  player->new_game(1);
  const Game game;
  EXPECT_TRUE(game.position().is_legal(player->choose_move(game)));
}

TEST(Gatekeeper, GatingMatchesPlayUnderTheRunsRules) {
  // The models search under the run's rules (their play files hold them): halfmove 50 here. An
  // opening at halfmove 49 ends after one jump; before, the match went on under the default 100,
  // the next search's root was a finished game, and the process died reading its empty move list.
  const std::string dir = testing::TempDir() + "/gating-rules";
  std::filesystem::create_directories(dir);
  RunConfig config;
  config.rules.halfmove_limit = 50;
  config.gating.concurrency = 1;
  write_random_play_file(dir + "/a.net", {1, 8}, 1, {}, config.rules);
  write_random_play_file(dir + "/b.net", {1, 8}, 2, {}, config.rules);
  { std::ofstream(dir + "/openings.txt") << "x-4o/--5/7/7/7/5--/o4-x x 49 30\n"; }  // only jumps for x
  config.boards.openings = {dir + "/openings.txt"};
  const MatchConfig match = run_match_config(config, run_network_player(config, "a", dir + "/a.net", 8),
                                             run_network_player(config, "b", dir + "/b.net", 8), 2, 1);
  EXPECT_EQ(match.rules.halfmove_limit, 50);
  const MatchResult result = run_match(match);
  ASSERT_EQ(result.games.size(), 2U);
  for (const GameRecord& game : result.games) {
    EXPECT_EQ(game.failure, "");
    EXPECT_EQ(game.moves.size(), 1U);  // x's jump takes the clock to 50: a draw
    EXPECT_EQ(game.outcome.result, Result::kDraw);
  }
}

TEST(Gatekeeper, ATimeShareRestsUntilItsBusyTimeIsItsShareOfTheWallTime) {
  TimeShare quarter(0.25);
  EXPECT_EQ(quarter.rest(0), 0);  // nothing played yet
  quarter.add_busy(10);
  EXPECT_DOUBLE_EQ(quarter.rest(10), 30);
  EXPECT_DOUBLE_EQ(quarter.rest(25), 15);
  EXPECT_EQ(quarter.rest(40), 0);
  quarter.add_busy(5);  // 15 busy seconds: a quarter of 60
  EXPECT_DOUBLE_EQ(quarter.rest(45), 15);

  TimeShare all(1);
  all.add_busy(10);
  EXPECT_EQ(all.rest(10), 0);  // always playing
}

// `train` ends by printing this table: it names the player it rates 0, or says that nothing was rated.
TEST(Gatekeeper, TheRatingsTableNamesItsAnchorOrSaysThatNoGamesWereRated) {
  const std::string root = testing::TempDir() + "/ratings-table";
  std::filesystem::remove_all(root);
  const RunDirectory dir(root);
  EXPECT_EQ(ratings_table(dir), "No ratings: gating and the ladder played no games.\n");
  dir.record_match(1, {"gen-0001", "gen-0000", 5, 1, 2}, "gating");
  EXPECT_TRUE(ratings_table(dir).starts_with("Ratings (gen-0001 = 0):\n")) << ratings_table(dir);
  dir.record_match(1, {"gen-0001", "random", 7, 1, 0}, "ladder");
  const std::string table = ratings_table(dir);
  EXPECT_TRUE(table.starts_with("Ratings (random = 0):\n")) << table;
  EXPECT_NE(table.find("gen-0000"), std::string::npos) << table;
}

}  // namespace
}  // namespace ataxx
