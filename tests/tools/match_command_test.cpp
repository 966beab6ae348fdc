// `ataxx-zero match` through the real binary, for the games the command line chooses.
#include <gtest/gtest.h>

#include <regex>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

TEST(MatchCommand, PlaysSchataxxFromItsTwoPlySuiteWithSchataxxsBaselines) {
  const Ran ran = run("match --variant schataxx-balanced --p1 alphabeta:depth=1 --p2 random --games 6 --quiet");
  ASSERT_EQ(ran.status, 0) << ran.output;
  std::smatch score;
  ASSERT_TRUE(std::regex_search(ran.output, score, std::regex(R"(Score of alphabeta:depth=1 vs random: (\d+) - (\d+) - (\d+))")))
      << ran.output;
  EXPECT_EQ(std::stoi(score[1]) + std::stoi(score[2]) + std::stoi(score[3]), 6);
  EXPECT_GE(std::stoi(score[1]), 5) << ran.output;
}

TEST(MatchCommand, RefusesAnUnknownVariantAndWhatSchataxxCannotDoYet) {
  Ran ran = run("match --variant chess --p1 greedy --p2 random --games 2");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("unknown Schataxx variant 'chess'"), std::string::npos) << ran.output;
  ran = run("match --variant schataxx --p1 greedy --p2 random --games 2 --pgn /tmp/x.pgn");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("--pgn writes Ataxx games only"), std::string::npos) << ran.output;
}

}  // namespace
}  // namespace ataxx
