#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "games/ataxx/symmetry.h"
#include "games/ataxx/encoding.h"

namespace ataxx {
namespace {

std::vector<Position> sample_positions() {
  std::vector<Position> out;
  std::mt19937 rng(3);
  for (const char* fen : {"x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", "x5o/1-5/7/7/7/7/o5x x 0 1",
                          "x2o/4/4/o2x x 0 1", "x6o/8/8/3--3/8/8/8/o6x x 0 1", "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
                          "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"}) {
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

TEST(PolicyIndex, EveryLegalMoveHasItsOwnIndexThatRoundTripsOnEveryCanvas) {
  for (const Position& pos : sample_positions()) {
    const Board& board = pos.board();
    for (int canvas = board.size; canvas <= kMaxBoardSize; ++canvas) {
      const Encoding encoding(canvas);
      MoveList moves;
      pos.generate_moves(moves);
      std::set<int> seen;
      for (const Move m : moves) {
        const int index = encoding.policy_index(board, m);
        ASSERT_GE(index, 0);
        ASSERT_LT(index, encoding.policy_size());
        EXPECT_TRUE(seen.insert(index).second);
        EXPECT_EQ(encoding.move_at(board, index), m);
      }
    }
  }
  const Encoding seven(7);
  EXPECT_EQ(seven.policy_index(board_7x7(), Move::pass()), seven.pass_index());
  EXPECT_EQ(seven.policy_size(), kMoveTypes * 49 + 1);
}

TEST(PolicyIndex, HexJumpsAlongTheShortDiagonalHaveTheirOwnTypes) {
  const Board& hex = board(BoardId::kHexagon);
  const Encoding encoding(9);
  const Move up_left = parse_move("e5d6", hex), down_right = parse_move("e5f4", hex);
  // Types count offsets from destination to source: d6 -> e5 is (+1, -1), f4 -> e5 is (-1, +1).
  EXPECT_EQ(encoding.policy_index(hex, up_left) / encoding.area(), kMoveTypes - 2);
  EXPECT_EQ(encoding.policy_index(hex, down_right) / encoding.area(), kMoveTypes - 1);
  // Entries that are no move of a board give the pass back.
  EXPECT_EQ(encoding.move_at(board_7x7(), encoding.policy_index(hex, down_right)), Move::pass());
  EXPECT_EQ(encoding.move_at(hex, 8), Move::pass());  // i1 is not a cell of the hexagon
}

TEST(Symmetry, LegalMovesOfTheTransformedPositionAreTheTransformedMoves) {
  for (const Position& pos : sample_positions()) {
    const Board& board = pos.board();
    MoveList moves;
    pos.generate_moves(moves);
    for (int s = 0; s < board.num_symmetries; ++s) {
      const Position image = transform_position(s, pos);
      MoveList image_moves;
      image.generate_moves(image_moves);
      std::set<std::pair<int, int>> expected, actual;
      for (const Move m : moves) expected.insert({transform_move(board, s, m).from, transform_move(board, s, m).to});
      for (const Move m : image_moves) actual.insert({m.from, m.to});
      EXPECT_EQ(actual, expected) << pos.fen() << " symmetry " << s;
      // Making a move commutes with the symmetry.
      Position after = pos;
      after.make_move(moves[0]);
      Position image_after = image;
      image_after.make_move(transform_move(board, s, moves[0]));
      EXPECT_EQ(transform_position(s, after).fen(), image_after.fen());
      EXPECT_EQ(transform_position(board.inverse[s], image), pos);
    }
  }
}

TEST(Encoding, PlanesAreFromTheSideToMovesView) {
  const Encoding encoding(7);
  std::vector<float> x_view(encoding.input_size()), o_view(encoding.input_size());
  const Position x_to_move = Position::from_fen("x5o/7/7/3-3/7/7/o5x x 50 1");
  const Position o_to_move = Position::from_fen("o5x/7/7/3-3/7/7/x5o o 50 1");  // colours swapped
  encoding.encode(x_to_move, x_view);
  encoding.encode(o_to_move, o_view);
  EXPECT_EQ(x_view, o_view);
  const int a7 = 6 * 7 + 0, d4 = 3 * 7 + 3, b2 = 1 * 7 + 1;
  EXPECT_EQ(x_view[0 * 49 + a7], 1.0f);  // own
  EXPECT_EQ(x_view[1 * 49 + a7], 0.0f);
  EXPECT_EQ(x_view[2 * 49 + d4], 1.0f);  // gap
  EXPECT_EQ(x_view[3 * 49 + b2], 1.0f);  // empty
  EXPECT_EQ(x_view[4 * 49 + b2], 0.5f);  // halfmove clock / 100
  EXPECT_EQ(x_view[kMaskPlane * 49 + b2], 1.0f);
}

TEST(Encoding, ASmallerBoardLiesInTheCanvasCornerWithTheRestMaskedOut) {
  const Encoding encoding(9);
  std::vector<float> planes(encoding.input_size());
  encoding.encode(Position::startpos(board(BoardId::k5x5)), planes);
  const float* mask = planes.data() + kMaskPlane * 81;
  EXPECT_EQ(std::count(mask, mask + 81, 1.0f), 25);
  for (int row = 0; row < 9; ++row)
    for (int column = 0; column < 9; ++column) {
      const bool on_board = row < 5 && column < 5;
      EXPECT_EQ(mask[row * 9 + column], on_board ? 1.0f : 0.0f);
      for (int plane = 0; plane < kInputPlanes && !on_board; ++plane) EXPECT_EQ(planes[plane * 81 + row * 9 + column], 0.0f);
    }
  // The hexagon's mask holds its 61 cells, removed ones included (they are gaps).
  encoding.encode(Position::startpos(board(BoardId::kHexagon)), planes);
  EXPECT_EQ(std::count(mask, mask + 81, 1.0f), 61);
  EXPECT_EQ(std::count(planes.begin() + 2 * 81, planes.begin() + 3 * 81, 1.0f), 3);
}

TEST(Encoding, ABoardLargerThanTheCanvasIsAnErrorNotAWriteOutsideThePlanes) {
  const Encoding seven(7);
  std::vector<float> planes(seven.input_size());
  const Position eight = Position::startpos(board(BoardId::k8x8));
  EXPECT_THROW(seven.encode(eight, planes), std::invalid_argument);
  EXPECT_THROW(seven.policy_index(eight.board(), parse_move("h8f6", eight.board())), std::invalid_argument);
  std::vector<float> short_planes(seven.input_size() - 1);
  EXPECT_THROW(seven.encode(Position::startpos(), short_planes), std::invalid_argument);
}

TEST(BoardSet, NamesRoundTripAndPickTheCanvas) {
  const BoardSet set = BoardSet::parse("7x7, 8x8,hexagon");
  EXPECT_EQ(set.names(), "7x7,8x8,hexagon");
  EXPECT_EQ(set.encoding().canvas(), 9);
  EXPECT_TRUE(set.contains(board(BoardId::k8x8)));
  EXPECT_FALSE(set.contains(board(BoardId::k5x5)));
  EXPECT_EQ(BoardSet{}.names(), "7x7");
  EXPECT_EQ(BoardSet::parse("4x4,6x6").encoding().canvas(), 6);
  EXPECT_THROW(BoardSet::parse("7x7,7x7"), std::invalid_argument);
  EXPECT_THROW(BoardSet::parse("7x7,"), std::invalid_argument);
  EXPECT_THROW(BoardSet::parse("hex"), std::invalid_argument);
  EXPECT_THROW(Encoding(10), std::invalid_argument);
}

}  // namespace
}  // namespace ataxx
