#include "analysis/tree_ownership.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ataxx::analysis {
namespace {

struct Node {
  std::size_t parent;
  int visits;
};

// The root (5 visits) with children of 3 and 1 visits, the first with a child of 2; one cell,
// owned 0.5, -1, 1 and 0 by the net at each.
const std::vector<Node> kTree = {{0, 5}, {0, 3}, {0, 1}, {1, 2}};
const std::vector<std::vector<float>> kOwners = {{0.5f}, {-1.0f}, {1.0f}, {0.0f}};

OwnershipSpread spread_of(std::size_t from, double min_weight = 0.0) {
  return TreeOwnership<Node>(kTree, min_weight).of(from, [](std::size_t node) { return kOwners[node]; });
}

// The root keeps 1 / (4 + 1) of the weight; its children share the rest as 9 : 1 (0.72 and 0.08);
// the first keeps a third of its 0.72 (0.24) and gives its child the rest (0.48).
TEST(TreeOwnership, NodesWeighAsKataGosTreeOwnership) {
  const OwnershipSpread spread = spread_of(0);
  ASSERT_EQ(spread.mean.size(), 1U);
  EXPECT_NEAR(spread.mean[0], 0.2 * 0.5 + 0.24 * -1 + 0.08 * 1 + 0.48 * 0, 1e-6);
  const double squares = 0.2 * 0.25 + 0.24 + 0.08;
  EXPECT_NEAR(spread.stdev[0], std::sqrt(squares - 0.06 * 0.06), 1e-6);
}

TEST(TreeOwnership, AChildBelowTheLeastWeightLeavesItsWeightToItsParent) {
  EXPECT_NEAR(spread_of(0, 0.1).mean[0], 0.28 * 0.5 + 0.24 * -1 + 0.48 * 0, 1e-6);
}

TEST(TreeOwnership, ASubtreeIsAveragedOnItsOwn) {
  const OwnershipSpread spread = spread_of(1);
  EXPECT_NEAR(spread.mean[0], -1.0 / 3, 1e-6);
  EXPECT_NEAR(spread.stdev[0], std::sqrt(1.0 / 3 - 1.0 / 9), 1e-6);
}

TEST(TreeOwnership, ALeafIsTheNetsOwnershipWithNoSpread) {
  const OwnershipSpread spread = spread_of(2);
  EXPECT_FLOAT_EQ(spread.mean[0], 1.0f);
  EXPECT_FLOAT_EQ(spread.stdev[0], 0.0f);
}

}  // namespace
}  // namespace ataxx::analysis
