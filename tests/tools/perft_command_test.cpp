// `ataxx-zero perft` through the real binary.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// Before, --variant was read only beside a Schataxx FEN: alone it counted Ataxx's 16 moves.
TEST(PerftCommand, AVariantAloneCountsFromSchataxxsStartInIt) {
  // White's first moves: 3 king steps, 2 knight jumps, and drops of Q R B N P on the 6 empty cells
  // beside its two men; the balanced variant keeps the queen and the rooks in the stock.
  const Ran standard = run("perft 1 --variant schataxx");
  ASSERT_EQ(standard.status, 0) << standard.output;
  EXPECT_EQ(standard.output, "35\n");
  const Ran balanced = run("perft 1 --variant schataxx-balanced");
  ASSERT_EQ(balanced.status, 0) << balanced.output;
  EXPECT_EQ(balanced.output, "23\n");
}

// The split's total is the count: at depth 0 the position itself (it had said "Nodes: 0").
TEST(PerftCommand, TheSplitsTotalIsTheCount) {
  EXPECT_EQ(run("perft 0").output, "1\n");
  EXPECT_EQ(run("perft 0 --split").output, "\nNodes: 1\n");
  const Ran split = run("perft 2 --split");
  EXPECT_NE(split.output.find("\nNodes: 256\n"), std::string::npos) << split.output;
}

TEST(PerftCommand, RefusesAnUnknownVariantOrOneWithAnAtaxxFen) {
  const Ran unknown = run("perft 1 --variant chess");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.output.find("--variant: chess not in"), std::string::npos) << unknown.output;
  const Ran ataxx = run("perft 1 'x5o/7/7/7/7/7/o5x x 0 1' --variant schataxx");
  EXPECT_NE(ataxx.status, 0);
  EXPECT_NE(ataxx.output.find("is an Ataxx position"), std::string::npos) << ataxx.output;
}

}  // namespace
}  // namespace ataxx
