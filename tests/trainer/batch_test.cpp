// Batch assembly end to end: each symmetry maps the input, the policy target, the ownership
// target and the value perspective consistently.
#include "trainer/batch.h"

#include <gtest/gtest.h>

#include "games/ataxx/symmetry.h"
#include "games/ataxx/encoding.h"
#include "games/schataxx/encoding.h"

namespace ataxx {
namespace {

TrainingSample sample_of(const std::string& fen, const std::string& final_fen, std::int8_t result) {
  TrainingSample s;
  s.position = Position::from_fen(fen);
  MoveList moves{};
  s.position.generate_moves(moves);
  s.visits = {{moves[0], 3}, {moves[moves.size() - 1], 1}};
  s.result = result;
  s.final_x = Position::from_fen(final_fen).pieces(Color::kX);
  s.final_o = Position::from_fen(final_fen).pieces(Color::kO);
  return s;
}

// On the canvas of the hexagon (9), which holds every board.
TEST(Batch, EverySymmetryMapsInputPolicyOwnershipAndValueAlike) {
  const GameEncoder<AtaxxGame> encoder(BoardSet{{&board_7x7(), &board(BoardId::k8x8), &board(BoardId::kHexagon)}});
  const Encoding& encoding = encoder.encoding();
  ASSERT_EQ(encoding.canvas(), 9);
  const TrainingSample samples[] = {
      sample_of("x5o/1x5/2-1-2/7/2-1-2/7/o5x o 3 2", "xxo4/x6/7/7/7/7/o5x", -1),
      sample_of("x4oo/7/7/3-3/7/7/o5x x 0 1", "xxo4/x6/7/7/7/7/o5x", 1),
      sample_of("x6o/1x6/8/3--3/8/8/8/o6x o 0 1", "xxo5/x7/8/8/8/8/8/o6x", 1),
      sample_of("x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1", "xxoo1/x5/7/8/9/8/7/6/x3o", -1),
  };
  for (const TrainingSample& s : samples) {
    const Board& board = s.position.board();
    for (int symmetry = 0; symmetry < board.num_symmetries; ++symmetry) {
      const TrainingSample* one[] = {&s};
      const int symmetries[] = {symmetry};
      const TrainingBatch batch = assemble_batch<AtaxxGame>(encoder, one, symmetries);
      const Position image = transform_position(symmetry, s.position);

      std::vector<float> planes(encoding.input_size());
      encoding.encode(image, planes);
      const auto input = batch.input.flatten();
      for (int i = 0; i < encoding.input_size(); ++i) ASSERT_EQ(input[i].item<float>(), planes[i]) << symmetry;

      const auto policy =
          torch::zeros({1, encoding.policy_size()}).scatter_add(1, batch.policy_indices, batch.policy_targets)[0];
      EXPECT_FLOAT_EQ(policy.sum().item<float>(), 1.0f);
      for (const auto& [move, visits] : s.visits) {
        const Move moved = transform_move(board, symmetry, move);
        EXPECT_TRUE(image.is_legal(moved)) << symmetry;
        EXPECT_FLOAT_EQ(policy[encoding.policy_index(board, moved)].item<float>(), visits / 4.0f) << symmetry;
      }

      // The value target is the side to move's, which no symmetry changes.
      EXPECT_EQ(batch.wdl[0][s.result > 0 ? 0 : 2].item<float>(), 1.0f);
      EXPECT_EQ(batch.wdl[0].sum().item<float>(), 1.0f);
      // Ownership: the final board under the same symmetry, from the side to move's view, on the board's cells.
      const Position final_image = transform_position(
          symmetry, Position::from_bitboards(board, s.final_x, s.final_o, 0, s.position.side_to_move()));
      const Color us = s.position.side_to_move();
      EXPECT_EQ(batch.board_mask[0].sum().item<float>(), board.num_cells);
      for (Square sq = 0; sq < board.num_cells; ++sq) {
        const float expected = (final_image.pieces(us) & bit(sq))    ? 1.0f
                               : (final_image.pieces(~us) & bit(sq)) ? -1.0f
                                                                     : 0.0f;
        const int cell = encoding.canvas_cell(board, sq);
        EXPECT_EQ(batch.ownership[0][cell].item<float>(), expected) << board.name << " symmetry " << symmetry;
        EXPECT_EQ(batch.board_mask[0][cell].item<float>(), 1.0f);
      }
      const int own = popcount(final_image.pieces(us)), theirs = popcount(final_image.pieces(~us));
      EXPECT_FLOAT_EQ(batch.piece_diff[0].item<float>(), static_cast<float>(own - theirs) / board.num_cells);
      EXPECT_EQ(batch.final_board_known[0].item<float>(), 1.0f);
    }
  }
}

TEST(Batch, ResignedGamesCarryNoOwnershipOrPieceTargets) {
  TrainingSample resigned = sample_of("x5o/7/7/7/7/7/o5x x 0 1", "xxo4/x6/7/7/7/7/o5x", -1);
  resigned.final_board_known = false;
  const TrainingSample played = sample_of("x5o/7/7/7/7/7/o5x x 0 1", "xxo4/x6/7/7/7/7/o5x", 1);
  const TrainingSample* samples[] = {&resigned, &played};
  const int symmetries[] = {3, 3};
  const TrainingBatch batch = assemble_batch<AtaxxGame>(GameEncoder<AtaxxGame>(), samples, symmetries);
  EXPECT_EQ(batch.final_board_known[0].item<float>(), 0.0f);
  EXPECT_EQ(batch.final_board_known[1].item<float>(), 1.0f);
  EXPECT_EQ(batch.ownership[0].abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(batch.piece_diff[0].item<float>(), 0.0f);
  EXPECT_GT(batch.ownership[1].abs().sum().item<float>(), 0.0f);
}

TEST(Batch, ASampleOfABoardLargerThanTheCanvasIsAnErrorNotAHeapOverflow) {
  std::vector<TrainingSample> samples(2);
  samples[1].position = Position::startpos(board(BoardId::k8x8));
  const std::vector<const TrainingSample*> pointers = {&samples[0], &samples[1]};
  const std::vector<int> symmetries = {0, 0};
  EXPECT_THROW(assemble_batch<AtaxxGame>(GameEncoder<AtaxxGame>(), pointers, symmetries), std::invalid_argument);
}

TEST(Batch, EverySymmetryMapsASchataxxSampleAlike) {
  BasicTrainingSample<SchataxxGame> s;
  s.position = schataxx::Position::from_fen("k7/2b5/8/3N4/8/1p6/P7/K5Rn[QRBNPPqrbnpp] w - - 2 4");
  s.visits = {{schataxx::parse_move("Q@b1"), 6}, {schataxx::parse_move("d5e7"), 2}, {schataxx::parse_move("a2c4"), 2}};
  s.result = -1;
  s.final_x = bit(0) | bit(9) | bit(35);  // a1 b2 d5
  s.final_o = bit(56) | bit(50);          // a8 c7
  const GameEncoder<SchataxxGame> encoder;
  for (int symmetry = 0; symmetry < schataxx::kSymmetries; ++symmetry) {
    const BasicTrainingSample<SchataxxGame>* one[] = {&s};
    const int symmetries[] = {symmetry};
    const TrainingBatch batch = assemble_batch<SchataxxGame>(encoder, one, symmetries);
    ASSERT_EQ(batch.input.sizes(), (std::vector<std::int64_t>{1, schataxx::kInputPlanes, 8, 8}));
    const schataxx::Position image = s.position.transformed(symmetry);
    std::vector<float> planes(schataxx::kInputSize);
    schataxx::encode(image, planes);
    const auto input = batch.input.flatten();
    for (int i = 0; i < schataxx::kInputSize; ++i) ASSERT_EQ(input[i].item<float>(), planes[i]) << symmetry;

    const auto policy =
        torch::zeros({1, schataxx::kPolicySize}).scatter_add(1, batch.policy_indices, batch.policy_targets)[0];
    for (const auto& [move, visits] : s.visits) {
      const schataxx::Move moved = schataxx::transform_move(symmetry, move);
      EXPECT_TRUE(image.is_legal(moved)) << symmetry << " " << schataxx::to_string(moved);
      EXPECT_FLOAT_EQ(policy[schataxx::policy_index(moved)].item<float>(), visits / 10.0f) << symmetry;
    }
    EXPECT_EQ(batch.wdl[0][2].item<float>(), 1.0f);
    EXPECT_EQ(batch.board_mask[0].sum().item<float>(), 64.0f);
    // White moves: its men are "own" in every image.
    for (int sq = 0; sq < 64; ++sq) {
      const float expected = (s.final_x >> sq & 1) ? 1.0f : (s.final_o >> sq & 1) ? -1.0f : 0.0f;
      EXPECT_EQ(batch.ownership[0][schataxx::transform_square(symmetry, sq)].item<float>(), expected) << symmetry;
    }
    EXPECT_FLOAT_EQ(batch.piece_diff[0].item<float>(), 1.0f / 64);
  }
}

TEST(TrainingBatch, ValueTargetBlendsResultAndSearchValue) {
  TrainingSample won;
  won.position = Position::startpos();
  won.visits = {{Move::single(1), 1}};
  won.result = 1;
  won.root_value = -0.5f;  // the search thought x stood worse
  TrainingSample drawn = won;
  drawn.result = 0;
  const TrainingSample* samples[] = {&won, &drawn};
  const int symmetries[] = {0, 0};
  const TrainingBatch batch = assemble_batch<AtaxxGame>(GameEncoder<AtaxxGame>(), samples, symmetries, 0.25f);
  // 0.75 of the result, 0.25 of the search's value as (1 + v) / 2 win, (1 - v) / 2 loss.
  EXPECT_FLOAT_EQ(batch.wdl[0][0].item<float>(), 0.75f + 0.25f * 0.25f);
  EXPECT_FLOAT_EQ(batch.wdl[0][1].item<float>(), 0.0f);
  EXPECT_FLOAT_EQ(batch.wdl[0][2].item<float>(), 0.25f * 0.75f);
  EXPECT_FLOAT_EQ(batch.wdl[1][1].item<float>(), 0.75f);
  EXPECT_FLOAT_EQ(batch.wdl[1].sum().item<float>(), 1.0f);
}

}  // namespace
}  // namespace ataxx
