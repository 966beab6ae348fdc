#include "mcts/subtree_bias.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "game/game.h"
#include "mcts/search.h"
#include "mcts/simple_evaluators.h"
#include "tests/mcts/search_checks.h"

namespace ataxx {
namespace {

TEST(SubtreeBiasTable, ASlotsMeanErrorIsItsNodesErrorsWeightedAndReplaced) {
  SubtreeBiasTable table(10);
  const std::uint32_t slot = table.slot_of(42);
  ASSERT_NE(slot, SubtreeBiasTable::kNoSlot);
  EXPECT_EQ(table.slot_of(42), slot) << "one key, one slot";
  EXPECT_EQ(table.mean_error(slot), 0.0f);
  EXPECT_FLOAT_EQ(table.replace(slot, 0, 0, 0.5f * 1, 1), 0.5f);
  EXPECT_FLOAT_EQ(table.replace(slot, 0, 0, -0.1f * 4, 4), (0.5f - 0.4f) / 5);
  // The first node's error renewed: 0.5 at weight 1 becomes 0.2 at weight 2.
  EXPECT_FLOAT_EQ(table.replace(slot, 0.5f, 1, 0.2f * 2, 2), (0.4f - 0.4f) / 6);
  EXPECT_NE(table.slot_of(43), slot);
  table.clear();
  EXPECT_EQ(table.mean_error(slot), 0.0f);
}

TEST(SubtreeBiasTable, AKeyWhoseProbesAreTakenGetsNoSlot) {
  SubtreeBiasTable table(3);  // 8 slots, all probed by every key
  for (std::uint64_t key = 1; key <= 8; ++key) EXPECT_NE(table.slot_of(key * 2), SubtreeBiasTable::kNoSlot);
  EXPECT_EQ(table.slot_of(1000), SubtreeBiasTable::kNoSlot);
  EXPECT_NE(table.slot_of(2), SubtreeBiasTable::kNoSlot) << "a key that has a slot keeps it";
  table.clear();
  EXPECT_NE(table.slot_of(1000), SubtreeBiasTable::kNoSlot);
}

TEST(SubtreeBiasTable, ItsSizeFollowsTheTreesBound) {
  const std::size_t small = SubtreeBiasTable::for_tree_bytes(16 << 20).bytes();
  const std::size_t large = SubtreeBiasTable::for_tree_bytes(std::size_t{1} << 30).bytes();
  EXPECT_LE(small, (16 << 20) / 20);
  EXPECT_GT(small, (16 << 20) / 80);
  EXPECT_LE(large, (std::size_t{1} << 30) / 20);
  EXPECT_GT(large, (std::size_t{1} << 30) / 80);
}

// A net that sees x's piece on d4 as worth half a point more to x than it is, in positions where o
// is to move: a search finds it out one ply below.
class OverratesD4Evaluator final : public Evaluator {
 public:
  bool overrate = true;
  void evaluate(std::span<const EvalRequest> batch) override {
    material_.evaluate(batch);
    if (!overrate) return;
    for (const EvalRequest& request : batch) {
      const Position& pos = *request.position;
      if (pos.side_to_move() != Color::kO || !(pos.pieces(Color::kX) & bit(3 * 7 + 3))) continue;
      Wdl& value = *request.value;
      const float expectation = std::clamp(value.expectation() - 0.5f, -1.0f, 1.0f);
      value = Wdl{
          .win = std::max(expectation, 0.0f), .draw = 1 - std::abs(expectation), .loss = std::max(-expectation, 0.0f)};
    }
  }

 private:
  MaterialEvaluator material_;
};

SearchParams with_subtree_bias(int visits, float bias) {
  SearchParams params = with_visits(visits);
  params.subtree_bias = bias;
  return params;
}

TEST(Search, WithSubtreeBiasTheRootIsStillTheMeanOfItsOwnValueAndItsChildren) {
  OverratesD4Evaluator evaluator;
  Position pos = Position::startpos();
  for (const char* move : {"a6", "g6", "b6"}) pos.make_move(parse_move(move, pos.board()));
  Search search(with_subtree_bias(2000, 0.35f), 1);
  search.set_root(pos);
  const SearchResult result = run_search(search, evaluator);
  ASSERT_TRUE(result.root_network_value.has_value());
  // The root has no bucket (no move led to it): its own value is the network's. Each child's
  // value, corrected where its subtree's were, must reach the root's sum.
  double sum = result.root_network_value->expectation();
  for (std::size_t i = 0; i < result.moves.size(); ++i) sum += double{result.values[i]} * result.visits[i];
  EXPECT_NEAR(result.value, sum / result.total_visits, 2e-5);
  Search plain(with_visits(2000), 1);
  plain.set_root(pos);
  EXPECT_NE(run_search(plain, evaluator).value, result.value) << "the correction changed nothing";
}

// The search's value of the root's children, measured against the search with a net that does not
// overrate d4: the correction takes back most of the error the overrating net makes (at 4,000
// visits, nine tenths).
TEST(Search, SubtreeBiasTakesBackPartOfANetsRecurringError) {
  OverratesD4Evaluator evaluator;
  Position pos = Position::startpos();
  for (const char* move : {"a6", "g6", "b6", "f6"}) pos.make_move(parse_move(move, pos.board()));
  const auto root_value = [&](float bias, bool overrate) {
    evaluator.overrate = overrate;
    Search search(with_subtree_bias(4000, bias), 1);
    search.set_root(pos);
    return run_search(search, evaluator).value;
  };
  const float truth = root_value(0.0f, false);
  const float uncorrected = root_value(0.0f, true);
  const float corrected = root_value(0.35f, true);
  EXPECT_GT(std::abs(uncorrected - truth), 0.05f) << "the net's error shows in the search";
  EXPECT_LT(std::abs(corrected - truth), 0.5f * std::abs(uncorrected - truth));
}

}  // namespace
}  // namespace ataxx
