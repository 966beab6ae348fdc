#include "match/pgn_results.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "match/match.h"

namespace ataxx {
namespace {

std::vector<PairResult> results_of(const std::string& pgn) {
  std::vector<PairResult> results;
  std::istringstream in(pgn);
  add_pgn_results(in, "games.pgn", results);
  return results;
}

TEST(PgnResults, CountEachPairsGamesFromTheFirstMoversResult) {
  // Ataxx's x is Black and moves first: 1-0 is Black's win; Schataxx's first mover is White.
  const std::vector<PairResult> results = results_of(R"([Black "a"]
[White "b"]
[Result "1-0"]

1. g2 a1b3 1-0

[Black "b"]
[White "a"]
[Result "1/2-1/2"]

1. g2 1/2-1/2
[Black "a \"the\" one"]
[White "b"]
[Result "*"]

[White "a"]
[Black "c"]
[Result "1-0"]
[Variant "schataxx"]

1. Q@d4 {a comment that names 0-1
over two lines} 1-0
)");
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].first, "a");
  EXPECT_EQ(results[0].second, "b");
  EXPECT_EQ(results[0].first_wins, 1);
  EXPECT_EQ(results[0].draws, 1);
  EXPECT_EQ(results[0].second_wins, 0);
  EXPECT_EQ(results[1].first, "a");  // White, who moves first in Schataxx
  EXPECT_EQ(results[1].first_wins, 1);
}

// A match of one spec against itself names both sides alike: its games had counted twice for it.
TEST(PgnResults, LeaveOutAndCountTheGamesOfAPlayerAgainstItself) {
  std::vector<PairResult> results;
  std::istringstream in(
      "[Black \"random\"]\n[White \"random\"]\n[Result \"1-0\"]\n\n1. g2 1-0\n\n"
      "[Black \"random\"]\n[White \"greedy\"]\n[Result \"0-1\"]\n\n1. g2 0-1\n\n"
      "[Black \"greedy\"]\n[White \"greedy\"]\n[Result \"1/2-1/2\"]\n\n1. g2 1/2-1/2\n");
  EXPECT_EQ(add_pgn_results(in, "games.pgn", results), 2);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].first, "random");
  EXPECT_EQ(results[0].second, "greedy");
  EXPECT_EQ(results[0].first_wins + results[0].draws + results[0].second_wins, 1);
}

TEST(PgnResults, RefuseAGameWithoutItsPlayersOrWithAnUnknownResult) {
  EXPECT_THROW(results_of("[White \"a\"]\n[Result \"1-0\"]\n\n1. g2\n"), std::runtime_error);
  EXPECT_THROW(results_of("[White \"a\"]\n[Black \"b\"]\n\n1. g2\n"), std::runtime_error);  // no Result
  try {
    results_of("[Black \"a\"]\n[White \"b\"]\n[Result \"1-0\"]\n\n[Black \"a\"]\n[White \"b\"]\n[Result \"2-0\"]\n");
    FAIL() << "a result 2-0 was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("games.pgn:5: result '2-0'"), std::string::npos) << e.what();
  }
}

// Tags that did not close and moves ending in another result than the tag's had been taken.
TEST(PgnResults, RefuseATagThatIsNoTagPairAndMovesThatEndInAnotherResult) {
  const auto error_of = [](const std::string& pgn) {
    try {
      results_of(pgn);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  for (const char* tag : {"[White \"a\"", "[White a]", "[ \"a\"]", "[White \"a\" \"b\"]", "[Wh-ite \"a\"]"})
    EXPECT_NE(error_of(std::string("[Black \"b\"]\n") + tag + "\n[Result \"1-0\"]\n\n1. g2 1-0\n")
                  .find("games.pgn:2: '" + std::string(tag) + "' is not a tag pair"),
              std::string::npos)
        << tag;
  EXPECT_NE(error_of("[Black \"a\"]\n[White \"b\"]\n[Result \"1-0\"]\n\n1. g2 *\n")
                .find("games.pgn:1: the moves end with * where the Result tag says 1-0"),
            std::string::npos);
  EXPECT_EQ(error_of("[Black \"a\"]\n[White \"b \\\"c\\\"\"]\n[Result \"0-1\"]\n\n1. g2 {1-0?} 0-1\n"), "");
  EXPECT_NE(error_of("[Black \"a\"]\n[White \"b\"]\n[Result \"0-1\"]\n\n1. g2 {a comment\n\n[Black \"a\"]\n")
                .find("games.pgn:5: a comment ({) that never closes"),
            std::string::npos);
}

// A match's own PGN read back: the match's score, under names with quotes and backslashes (a
// spec's quoted value; its quotes had been written unescaped).
TEST(PgnResults, AMatchsPgnGivesTheMatchsScore) {
  MatchConfig config;
  config.player1 = "greedy";
  config.player2 = "random";
  config.games = 8;
  config.openings = {AtaxxGame::start()};
  const MatchResult match = run_match(config);
  std::string pgn;
  const std::string greedy = R"(greedy:name="a, \b")";
  for (const GameRecord& game : match.games) pgn += to_pgn(game, greedy, "random", "test") + "\n";
  const std::vector<PairResult> results = results_of(pgn);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_TRUE(results[0].first == greedy || results[0].second == greedy) << results[0].first;
  const int greedy_wins = results[0].first == greedy ? results[0].first_wins : results[0].second_wins;
  EXPECT_EQ(greedy_wins, match.score.wins);
  EXPECT_EQ(results[0].draws, match.score.draws);
}

}  // namespace
}  // namespace ataxx
