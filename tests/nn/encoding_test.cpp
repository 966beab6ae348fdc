#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "nn/encoding.h"

namespace ataxx {
namespace {

std::vector<Position> sample_positions() {
  std::vector<Position> out;
  std::mt19937 rng(3);
  for (const char* fen : {"x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", "x5o/1-5/7/7/7/7/o5x x 0 1"}) {
    Position pos = Position::from_fen(fen);
    for (int ply = 0; ply < 40 && !pos.outcome().is_over(); ++ply) {
      out.push_back(pos);
      MoveList moves;
      pos.generate_moves(moves);
      pos.make_move(moves[rng() % moves.size()]);
    }
  }
  return out;
}

TEST(PolicyIndex, EveryLegalMoveHasItsOwnIndexThatRoundTrips) {
  for (const Position& pos : sample_positions()) {
    MoveList moves;
    pos.generate_moves(moves);
    std::set<int> seen;
    for (const Move m : moves) {
      const int index = policy_index(m);
      ASSERT_GE(index, 0);
      ASSERT_LT(index, kPolicySize);
      EXPECT_TRUE(seen.insert(index).second);
      EXPECT_EQ(move_from_policy_index(index), m);
    }
  }
  EXPECT_EQ(policy_index(Move::pass()), kPassIndex);
  EXPECT_EQ(kPolicySize, 834);
}

TEST(Symmetry, SquaresFormAPermutationAndInvert) {
  for (int s = 0; s < kNumSymmetries; ++s) {
    std::set<Square> image;
    for (Square sq = 0; sq < kNumSquares; ++sq) {
      image.insert(transform_square(s, sq));
      EXPECT_EQ(transform_square(inverse_symmetry(s), transform_square(s, sq)), sq) << s;
    }
    EXPECT_EQ(image.size(), std::size_t(kNumSquares));
  }
  // All eight are different maps.
  std::set<std::vector<Square>> maps;
  for (int s = 0; s < kNumSymmetries; ++s) {
    std::vector<Square> map;
    for (Square sq = 0; sq < kNumSquares; ++sq) map.push_back(transform_square(s, sq));
    maps.insert(map);
  }
  EXPECT_EQ(maps.size(), 8U);
}

TEST(Symmetry, LegalMovesOfTheTransformedPositionAreTheTransformedMoves) {
  for (const Position& pos : sample_positions()) {
    MoveList moves;
    pos.generate_moves(moves);
    for (int s = 0; s < kNumSymmetries; ++s) {
      const Position image = transform_position(s, pos);
      MoveList image_moves;
      image.generate_moves(image_moves);
      std::set<int> expected, actual;
      for (const Move m : moves) expected.insert(policy_index(transform_move(s, m)));
      for (const Move m : image_moves) actual.insert(policy_index(m));
      EXPECT_EQ(actual, expected) << pos.fen() << " symmetry " << s;
      // Making a move commutes with the symmetry.
      Position after = pos;
      after.make_move(moves[0]);
      Position image_after = image;
      image_after.make_move(transform_move(s, moves[0]));
      EXPECT_EQ(transform_position(s, after).fen(), image_after.fen());
      EXPECT_EQ(transform_position(inverse_symmetry(s), image), pos);
    }
  }
}

TEST(Encoding, PlanesAreFromTheSideToMovesView) {
  std::array<float, kInputSize> x_view, o_view;
  const Position x_to_move = Position::from_fen("x5o/7/7/3-3/7/7/o5x x 50 1");
  const Position o_to_move = Position::from_fen("o5x/7/7/3-3/7/7/x5o o 50 1");  // colours swapped
  encode_position(x_to_move, x_view);
  encode_position(o_to_move, o_view);
  EXPECT_EQ(x_view, o_view);
  const Square a7 = make_square(0, 6), d4 = make_square(3, 3), b2 = make_square(1, 1);
  EXPECT_EQ(x_view[0 * kNumSquares + a7], 1.0f);  // own
  EXPECT_EQ(x_view[1 * kNumSquares + a7], 0.0f);
  EXPECT_EQ(x_view[2 * kNumSquares + d4], 1.0f);  // gap
  EXPECT_EQ(x_view[3 * kNumSquares + b2], 1.0f);  // empty
  EXPECT_EQ(x_view[4 * kNumSquares + b2], 0.5f);  // halfmove clock / 100
  EXPECT_EQ(x_view[5 * kNumSquares + b2], 1.0f);
}

}  // namespace
}  // namespace ataxx
