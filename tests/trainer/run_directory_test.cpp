#include "trainer/run_directory.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "selfplay/training_data.h"
#include "tests/test_paths.h"
#include "util/process.h"
#include "util/read_file.h"

namespace fs = std::filesystem;

namespace ataxx {
namespace {

std::string fresh(const std::string& name) {
  const std::string dir = temp_path(name);
  fs::remove_all(dir);
  return dir;
}

TEST(RunDirectory, ANewRunHasRoomOnlyWhereNoOnesWorkIs) {
  const std::string root = temp_path("room-for-a-run");
  fs::remove_all(root);
  EXPECT_TRUE(RunDirectory::has_room_for_a_run(root)) << "a folder that is not there yet";
  fs::create_directories(root + "/lost+found");
  std::ofstream(root + "/.DS_Store") << "x";
  RunDirectory{root};  // the folders a start makes before it fails
  std::ofstream(root + "/train.lock");
  EXPECT_TRUE(RunDirectory::has_room_for_a_run(root));
  std::ofstream(root + "/notes.txt") << "mine\n";
  EXPECT_FALSE(RunDirectory::has_room_for_a_run(root));
  fs::remove(root + "/notes.txt");
  std::ofstream(root + "/games/chunk.zst") << "x";
  EXPECT_FALSE(RunDirectory::has_room_for_a_run(root)) << "a run's folder that is not empty";
}

TEST(RunDirectory, PlotsInAFolderWithQuotesInItsName) {
  const RunDirectory dir(fresh("it's \"a\" run; $(true)"));
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "1,3,2,1,0.5");
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "2,2,1.5,0.7,0.4");
  dir.write_ratings({{"random", 0, 0, 10}, {"gen-0001", 100, 30, 10}}, "random");
  EXPECT_EQ(dir.plot(), RunDirectory::PlotResult::kDrawn);
  EXPECT_TRUE(fs::exists(dir.root() + "/plots/losses.png"));
  EXPECT_TRUE(fs::exists(dir.root() + "/plots/ratings.png"));
}

TEST(RunDirectory, TheRatingsPlotNamesItsAnchor) {
  const RunDirectory dir(fresh("anchor"));
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "1,3,2,1,0.5");
  dir.write_ratings({{"gen-0002", 40, 30, 10}, {"gen-0001's", 0, 0, 10}}, "gen-0001's");
  EXPECT_EQ(dir.plot(), RunDirectory::PlotResult::kDrawn);
  const std::string text = read_whole_file(dir.root() + "/plots/plot.gp");
  EXPECT_NE(text.find("set title 'Elo of each model (gen-0001''s = 0), 95% error bars'"), std::string::npos) << text;
  EXPECT_TRUE(fs::exists(dir.root() + "/plots/ratings.png"));
}

TEST(RunDirectory, PlotsTheLossesOfARunThatHasNoRatings) {
  const RunDirectory dir(fresh("no-ratings"));
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "1,3,2,1,0.5");
  dir.record_metrics("step,loss,policy_loss,value_loss,ownership_loss", "2,2,1.5,0.7,0.4");
  EXPECT_EQ(dir.plot(), RunDirectory::PlotResult::kDrawn);
  EXPECT_TRUE(fs::exists(dir.root() + "/plots/losses.png"));
  EXPECT_FALSE(fs::exists(dir.root() + "/plots/ratings.png"));
}

TEST(RunDirectory, AMetricsHeaderThatGainedColumnsIsRewrittenAndTheRowsKept) {
  const RunDirectory dir(fresh("metrics-columns"));
  dir.record_metrics("step,loss", "1,3");
  dir.record_metrics("step,loss,soft_policy_loss", "2,2,4");
  dir.record_metrics("step,loss,soft_policy_loss", "3,1,3");
  const std::string text = read_whole_file(dir.root() + "/metrics.csv");
  EXPECT_EQ(text, "step,loss,soft_policy_loss\n1,3\n2,2,4\n3,1,3\n");
}

TEST(RunDirectory, CleansOnlyThisHostsAbandonedTemporaries) {
  const std::string root = fresh("temporaries");
  fs::create_directories(root + "/models");
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  const std::string ours = root + "/models/gen-0001.net.tmp." + host_name() + "." + std::to_string(dead);
  const std::string theirs = root + "/models/gen-0002.net.tmp.other-machine." + std::to_string(dead);
  const std::string live = root + "/models/gen-0003.net.tmp." + host_name() + "." + std::to_string(getpid());
  for (const auto& path : {ours, theirs, live}) std::ofstream(path) << "partial";
  const RunDirectory dir(root);
  EXPECT_FALSE(fs::exists(ours));
  EXPECT_TRUE(fs::exists(theirs));  // a writer on another machine sharing the folder may be alive
  EXPECT_TRUE(fs::exists(live));
}

TEST(RunDirectory, ChunkPathsNeverRepeat) {
  const RunDirectory dir(fresh("chunk-paths"));
  std::set<std::string> paths;
  for (int i = 0; i < 100; ++i) {
    const std::string path = dir.new_chunk_path(i % 2 ? "gen-0001" : "");
    EXPECT_EQ(path.rfind(dir.games_dir() + (i % 2 ? "/gen-0001-" : "/unknown-") + host_name() + "-", 0), 0U) << path;
    EXPECT_TRUE(paths.insert(path).second) << path;
  }
}

TEST(RunDirectory, SpecsWithCommasKeepTheirRow) {
  const RunDirectory dir(fresh("commas"));
  dir.record_match(1, {"gen-0001", "alphabeta:depth=2,time=100", 3, 1, 0}, "ladder");
  EXPECT_TRUE(dir.has_match(1, "gen-0001", "alphabeta:depth=2,time=100", "ladder"));  // before: never found
  EXPECT_FALSE(dir.has_match(1, "gen-0001", "alphabeta:depth=2", "ladder"));
  const auto matches = dir.matches();
  ASSERT_EQ(matches.size(), 1U);
  EXPECT_EQ(matches[0].first_wins, 3);
  EXPECT_EQ(matches[0].draws, 1);
  EXPECT_EQ(matches[0].second_wins, 0);
}

// A kill can come between a verdict and what follows from it; before, the verdict came last, so
// a kill after the match row counted the match twice once gating ran again, and a kill after
// the verdict lost the promotion for good.
TEST(RunDirectory, RepairGatingFinishesWhatAVerdictLeftUnwritten) {
  const RunDirectory dir(fresh("repair-gating"));
  for (const char* model : {"gen-0000", "gen-0001", "gen-0002"}) std::ofstream(dir.model_path(model)) << "net";
  dir.set_best("gen-0000");
  dir.record_gating("gen-0001", "gen-0000", {"gen-0001", "gen-0000", 5, 1, 2}, true);
  dir.record_match(1, {"gen-0001", "gen-0000", 5, 1, 2}, "gating");  // then killed before set_best
  dir.record_gating("gen-0002", "gen-0001", {"gen-0002", "gen-0001", 2, 0, 6}, false);  // killed before its row
  dir.repair_gating();
  EXPECT_EQ(dir.best(), "gen-0001");
  EXPECT_TRUE(dir.has_match(2, "gen-0002", "gen-0001", "gating"));
  const auto once = dir.matches();
  ASSERT_EQ(once.size(), 2U);
  EXPECT_EQ(once[1].first_wins, 2);
  EXPECT_EQ(once[1].second_wins, 6);
  dir.repair_gating();  // nothing left to do: nothing written twice
  EXPECT_EQ(dir.matches().size(), 2U);
  dir.record_gating("gen-0003", "gen-0001", {"gen-0003", "gen-0001"}, true);  // gating off: no games, no row
  std::ofstream(dir.model_path("gen-0003")) << "net";
  dir.repair_gating();
  EXPECT_EQ(dir.matches().size(), 2U);
  EXPECT_EQ(dir.best(), "gen-0003");
}

TEST(RunDirectory, DamagedFilesOfTheRunAreErrorsNamingThem) {
  const RunDirectory dir(fresh("damaged-files"));
  std::ofstream(dir.root() + "/elapsed_minutes") << "nan\n";  // before: a budget that was never spent
  EXPECT_THROW(dir.elapsed_minutes(), std::runtime_error);
  dir.record_match(1, {"gen-0001", "random", 3, 1, 0}, "ladder");
  std::ofstream(dir.root() + "/matches.csv", std::ios::app) << "2,gen-0002,random,x,0,0,ladder\n";
  try {
    dir.matches();
    ADD_FAILURE() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("matches.csv' holds 'x'"), std::string::npos) << e.what();
  }
}

TEST(RunDirectory, PruningKeepsTheNewestCheckpointsAndEveryPromotedNet) {
  const RunDirectory dir(fresh("prune"));
  for (int g = 0; g <= 10; ++g) {
    std::ofstream(dir.model_path(g)) << "net";
    std::ofstream(dir.checkpoint_path(g)) << "ckpt";
    if (g > 0) dir.record_gating(generation_name(g), "x", {generation_name(g), "x", 1, 0, 1}, g == 2);
  }
  dir.set_best("gen-0002");
  dir.prune(10);
  std::set<std::string> models, checkpoints;
  for (const auto& entry : fs::directory_iterator(dir.root() + "/models")) models.insert(entry.path().stem());
  for (const auto& entry : fs::directory_iterator(dir.root() + "/checkpoints")) checkpoints.insert(entry.path().stem());
  EXPECT_EQ(checkpoints, (std::set<std::string>{"gen-0008", "gen-0009", "gen-0010"}));
  EXPECT_EQ(models, (std::set<std::string>{"best", "gen-0000", "gen-0002", "gen-0006", "gen-0007", "gen-0008",
                                           "gen-0009", "gen-0010"}));
  std::ofstream(dir.model_path(11)) << "net";
  std::ofstream(dir.checkpoint_path(11)) << "ckpt";
  dir.prune(11);
  EXPECT_FALSE(fs::exists(dir.model_path(6)));
  EXPECT_FALSE(fs::exists(dir.checkpoint_path(8)));
  EXPECT_TRUE(fs::exists(dir.model_path(2)));
}

// Before, a candidate that gating was still playing when five newer ones had been exported lost
// its play file; promoted, it was the best with no file, and the run stopped.
TEST(RunDirectory, PruningKeepsTheCandidateBeingGated) {
  const RunDirectory dir(fresh("prune-gating"));
  for (int g = 0; g <= 12; ++g) std::ofstream(dir.model_path(g)) << "net";
  for (int g = 1; g <= 4; ++g) dir.record_gating(generation_name(g), "gen-0000", {generation_name(g), "x", 0, 0, 2}, false);
  dir.set_best("gen-0000");
  dir.prune(12);  // gen-0004 rejected; gen-0005 to gen-0007 without a verdict and none newer decided: kept
  EXPECT_FALSE(fs::exists(dir.model_path(4)));
  EXPECT_TRUE(fs::exists(dir.model_path(6)));
  dir.record_gating("gen-0006", "gen-0000", {"gen-0006", "gen-0000", 2, 0, 0}, true);
  dir.set_best("gen-0006");
  dir.prune(12);
  EXPECT_TRUE(fs::exists(dir.model_path(6)));
  EXPECT_FALSE(fs::exists(dir.model_path(5)));  // passed over: gen-0006 was decided
}

// A resumed run's gating starts after the newest candidate with a verdict: before, it listed every
// candidate an earlier session had passed over as passed over again, one log line each.
TEST(RunDirectory, NewestGatedIsTheNewestCandidateWithAVerdict) {
  const RunDirectory dir(fresh("newest-gated"));
  EXPECT_EQ(dir.newest_gated(), 0);
  dir.record_gating("gen-0003", "gen-0000", {"gen-0003", "gen-0000", 0, 0, 2}, false);
  dir.record_gating("gen-0010", "gen-0000", {"gen-0010", "gen-0000", 2, 0, 0}, true);
  dir.record_gating("gen-0007", "gen-0010", {"gen-0007", "gen-0010", 1, 0, 1}, false);
  EXPECT_EQ(dir.newest_gated(), 10);
}

TEST(RunDirectory, GenerationNumbersAreReadFromNamesAndFileNames) {
  EXPECT_EQ(generation_number("gen-0007"), 7);
  EXPECT_EQ(generation_number("gen-0012.net"), 12);
  EXPECT_EQ(generation_number(generation_name(10000)), 10000);
  EXPECT_EQ(generation_number("best"), std::nullopt);
  EXPECT_EQ(generation_number("gen-"), std::nullopt);
  EXPECT_EQ(generation_number("gen-x1"), std::nullopt);
}

}  // namespace
}  // namespace ataxx
