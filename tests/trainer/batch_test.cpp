// Batch assembly end to end: each symmetry maps the input, the policy target, the ownership
// target and the value perspective consistently.
#include "trainer/batch.h"

#include <gtest/gtest.h>

#include "nn/encoding.h"

namespace ataxx {
namespace {

TrainingSample sample_of(const std::string& fen, std::int8_t result) {
  TrainingSample s;
  s.position = Position::from_fen(fen);
  MoveList moves;
  s.position.generate_moves(moves);
  s.visits = {{static_cast<std::uint16_t>(policy_index(moves[0])), 3},
              {static_cast<std::uint16_t>(policy_index(moves[moves.size() - 1])), 1}};
  s.result = result;
  s.final_x = Position::from_fen("xxo4/x6/7/7/7/7/o5x x 0 1").pieces(Color::kX);
  s.final_o = Position::from_fen("xxo4/x6/7/7/7/7/o5x x 0 1").pieces(Color::kO);
  return s;
}

TEST(Batch, EverySymmetryMapsInputPolicyOwnershipAndValueAlike) {
  const TrainingSample samples[] = {sample_of("x5o/1x5/2-1-2/7/2-1-2/7/o5x o 3 2", -1),
                                    sample_of("x4oo/7/7/3-3/7/7/o5x x 0 1", 1)};
  for (const TrainingSample& s : samples) {
    for (int symmetry = 0; symmetry < kNumSymmetries; ++symmetry) {
      const TrainingSample* one[] = {&s};
      const int symmetries[] = {symmetry};
      const TrainingBatch batch = assemble_batch(one, symmetries);
      const Position image = transform_position(symmetry, s.position);

      std::array<float, kInputSize> planes;
      encode_position(image, planes);
      const auto input = batch.input.flatten();
      for (int i = 0; i < kInputSize; ++i) ASSERT_EQ(input[i].item<float>(), planes[i]) << symmetry;

      const auto policy = torch::zeros({1, kPolicySize}).scatter_add(1, batch.policy_indices, batch.policy_targets)[0];
      float total = policy.sum().item<float>();
      EXPECT_FLOAT_EQ(total, 1.0f);
      for (const auto& [index, visits] : s.visits) {
        const Move moved = transform_move(symmetry, move_from_policy_index(index));
        EXPECT_TRUE(image.is_legal(moved)) << symmetry;
        EXPECT_FLOAT_EQ(policy[policy_index(moved)].item<float>(), visits / 4.0f) << symmetry;
      }

      // The value target is the side to move's, which no symmetry changes.
      EXPECT_EQ(batch.wdl[0].item<std::int64_t>(), s.result > 0 ? 0 : 2);
      // Ownership: the final board under the same symmetry, from the side to move's view.
      const Position final_image =
          transform_position(symmetry, Position::from_bitboards(s.final_x, s.final_o, 0, s.position.side_to_move()));
      const Color us = s.position.side_to_move();
      for (Square sq = 0; sq < kNumSquares; ++sq) {
        const float expected = (final_image.pieces(us) & bit(sq))    ? 1.0f
                               : (final_image.pieces(~us) & bit(sq)) ? -1.0f
                                                                     : 0.0f;
        EXPECT_EQ(batch.ownership[0][sq].item<float>(), expected) << "symmetry " << symmetry << " square " << sq;
      }
      const int own = popcount(final_image.pieces(us)), theirs = popcount(final_image.pieces(~us));
      EXPECT_FLOAT_EQ(batch.piece_diff[0].item<float>(), static_cast<float>(own - theirs) / kNumSquares);
      EXPECT_EQ(batch.final_board_known[0].item<float>(), 1.0f);
    }
  }
}

TEST(Batch, ResignedGamesCarryNoOwnershipOrPieceTargets) {
  TrainingSample resigned = sample_of("x5o/7/7/7/7/7/o5x x 0 1", -1);
  resigned.final_board_known = false;
  const TrainingSample played = sample_of("x5o/7/7/7/7/7/o5x x 0 1", 1);
  const TrainingSample* samples[] = {&resigned, &played};
  const int symmetries[] = {3, 3};
  const TrainingBatch batch = assemble_batch(samples, symmetries);
  EXPECT_EQ(batch.final_board_known[0].item<float>(), 0.0f);
  EXPECT_EQ(batch.final_board_known[1].item<float>(), 1.0f);
  EXPECT_EQ(batch.ownership[0].abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(batch.piece_diff[0].item<float>(), 0.0f);
  EXPECT_GT(batch.ownership[1].abs().sum().item<float>(), 0.0f);
}

}  // namespace
}  // namespace ataxx
