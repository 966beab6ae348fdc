#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "games/ataxx/game.h"
#include "games/ataxx/perft.h"
#include "games/ataxx/symmetry.h"

namespace ataxx {
namespace {

const Board& hexagon() { return board(BoardId::kHexagon); }

Square cell(const Board& b, const char* name) { return *b.find(name[0] - 'a', name[1] - '1'); }

struct FamilyPerftCase {
  std::string fen;
  std::vector<std::uint64_t> counts;  // depth 1..4
};

// The counts of the issue that brought the board family (#12).
const std::vector<FamilyPerftCase> kFamilyPerft = {
    {"x3o/5/5/5/o3x x 0 1", {16, 244, 4592, 86956}},
    {"x4o/6/6/6/6/o4x x 0 1", {16, 256, 5884, 131140}},
    {"x6o/8/8/8/8/8/8/o6x x 0 1", {16, 256, 6496, 162628}},
    {"x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1", {24, 570, 16548, 476406}},
};

TEST(BoardFamily, PerftMatchesTheTable) {
  for (const auto& [fen, counts] : kFamilyPerft) {
    const Position pos = Position::from_fen(fen);
    for (int depth = 1; depth <= 4; ++depth) EXPECT_EQ(perft(pos, depth), counts[depth - 1]) << fen << " depth " << depth;
  }
}

// Deeper than any published count: every symmetric image of a position, and the position with
// the colours swapped, must have the same tree.
TEST(BoardFamily, SlowPerftDepth6AgreesUnderSymmetryAndColourSwap) {
  for (const auto& [fen, counts] : kFamilyPerft) {
    const Position pos = Position::from_fen(fen);
    const std::uint64_t nodes = perft(pos, 6);
    for (const int s : {1, 2, 5, 6}) {
      if (s >= pos.board().num_symmetries) continue;
      EXPECT_EQ(perft(transform_position(s, pos), 6), nodes) << fen << " symmetry " << s;
    }
    const Position swapped = Position::from_bitboards(pos.board(), pos.pieces(Color::kO), pos.pieces(Color::kX),
                                                      pos.gaps(), Color::kO);
    EXPECT_EQ(perft(swapped, 6), nodes) << fen;
  }
}

TEST(BoardFamily, EachBoardStartsFromItsStartFen) {
  for (int id = 0; id < kNumBoards; ++id) {
    const Board& b = board(static_cast<BoardId>(id));
    const Position pos = Position::startpos(b);
    EXPECT_EQ(&pos.board(), &b);
    EXPECT_EQ(pos.fen(), b.start_fen);
    EXPECT_EQ(popcount(pos.pieces(Color::kX)), b.hexagonal ? 3 : 2) << b.name;
    EXPECT_EQ(find_board(b.name), &b);
  }
  EXPECT_EQ(find_board("9x9"), nullptr);
}

TEST(BoardFamily, SquareStartsHaveXInTheTopLeftAndBottomRightCorners) {
  for (const BoardId id : {BoardId::k4x4, BoardId::k5x5, BoardId::k6x6, BoardId::k8x8}) {
    const Board& b = board(id);
    const int last = b.size - 1;
    const Position pos = Position::startpos(b);
    EXPECT_EQ(pos.pieces(Color::kX), bit(*b.find(0, last)) | bit(*b.find(last, 0))) << b.name;
    EXPECT_EQ(pos.pieces(Color::kO), bit(*b.find(last, last)) | bit(*b.find(0, 0))) << b.name;
  }
}

TEST(BoardFamily, HexagonHas58PlayableCellsAndTheRulesGeometry) {
  const Board& b = hexagon();
  const Position start = Position::startpos(b);
  EXPECT_EQ(b.num_cells, 61);
  EXPECT_EQ(popcount(start.empty() | start.pieces(Color::kX) | start.pieces(Color::kO)), 58);
  EXPECT_EQ(start.gaps(), bit(cell(b, "e4")) | bit(cell(b, "d5")) | bit(cell(b, "f6")));
  EXPECT_EQ(start.pieces(Color::kX), bit(cell(b, "a1")) | bit(cell(b, "i5")) | bit(cell(b, "e9")));
  EXPECT_FALSE(b.find(5, 0));  // f1: |column - row| > 4
  EXPECT_FALSE(b.find(0, 5));  // a6
  EXPECT_EQ(popcount(b.clone_targets[cell(b, "e5")]), 6);
  EXPECT_EQ(popcount(b.jump_targets[cell(b, "e5")]), 12);
  EXPECT_EQ(popcount(b.clone_targets[cell(b, "a1")]), 3);
  EXPECT_EQ(b.clone_targets[cell(b, "e5")],
            bit(cell(b, "d5")) | bit(cell(b, "f5")) | bit(cell(b, "e4")) | bit(cell(b, "e6")) | bit(cell(b, "f6")) |
                bit(cell(b, "d4")));
  // (+1, -1) and (-1, +1) are at distance 2 on the hexagon: jumps, not neighbours.
  EXPECT_TRUE(b.jump_targets[cell(b, "e5")] & bit(cell(b, "f4")));
  EXPECT_TRUE(b.jump_targets[cell(b, "e5")] & bit(cell(b, "d6")));
}

TEST(BoardFamily, CaptureTurnsTheSixHexNeighboursOnly) {
  // o on the six neighbours of e5 and on f4 and d6, which are two cells away on the hexagon.
  const Position pos = Position::from_fen("5/6/7/2ooo3/3o1o3/2xooo2/7/6/5 x 0 1");
  const Board& b = pos.board();
  Position after = pos;
  after.make_move(parse_move("c4e5", b));
  Bitboard turned = 0;
  for (const char* name : {"e5", "d5", "f5", "e4", "e6", "f6", "d4"}) turned |= bit(cell(b, name));
  EXPECT_EQ(after.pieces(Color::kX), turned);
  EXPECT_EQ(after.pieces(Color::kO), bit(cell(b, "d6")) | bit(cell(b, "f4")));
  EXPECT_EQ(after.hash(), after.compute_hash());
}

TEST(BoardFamily, EightByEightUsesAll64Bits) {
  const Position pos = Position::from_fen("7x/8/8/8/8/8/8/o7 x 0 1");
  EXPECT_EQ(pos.pieces(Color::kX), bit(63));
  EXPECT_EQ(popcount(pos.empty()), 62);
  MoveList moves;
  pos.generate_moves(moves);
  std::set<std::string> names;
  for (const Move m : moves) names.insert(to_string(m, pos.board()));
  EXPECT_EQ(names, (std::set<std::string>{"g8", "g7", "h7", "h8f8", "h8f7", "h8f6", "h8g6", "h8h6"}));
  Position after = pos;
  after.make_move(parse_move("h8f6", pos.board()));
  EXPECT_EQ(after.pieces(Color::kX), bit(cell(pos.board(), "f6")));
  EXPECT_EQ(after.hash(), after.compute_hash());
}

TEST(BoardFamily, MovesRoundTripInEachBoardsNotation) {
  for (int id = 0; id < kNumBoards; ++id) {
    Game game(Position::startpos(board(static_cast<BoardId>(id))));
    for (int ply = 0; ply < 12 && !game.outcome().is_over(); ++ply) {
      const Position& pos = game.position();
      MoveList moves;
      pos.generate_moves(moves);
      for (const Move m : moves) EXPECT_EQ(parse_move(to_string(m, pos.board()), pos.board()), m);
      game.play(moves[(ply * 7) % moves.size()]);
    }
  }
}

TEST(BoardFamily, NotationIsCheckedAgainstTheBoard) {
  EXPECT_EQ(to_string(parse_move("e5f4", hexagon()), hexagon()), "e5f4");
  EXPECT_THROW(parse_move("e5f4", board_7x7()), std::invalid_argument);  // a neighbour on a square board
  EXPECT_THROW(parse_move("e5f6", hexagon()), std::invalid_argument);   // a neighbour on the hexagon
  EXPECT_THROW(parse_move("f1", hexagon()), std::invalid_argument);     // not a cell
  EXPECT_THROW(parse_move("h8", board_7x7()), std::invalid_argument);
  EXPECT_EQ(to_string(parse_move("h8", board(BoardId::k8x8)), board(BoardId::k8x8)), "h8");
  EXPECT_THROW(parse_move("e5", board(BoardId::k4x4)), std::invalid_argument);
  EXPECT_EQ(parse_move("i9", hexagon()), Move::single(60));
}

TEST(BoardFamily, FensRoundTripOnEveryBoard) {
  for (const char* fen : {"x2o/4/1-2/o2x o 3 7", "x3o/5/2-2/5/o3x x 0 1", "x4o/6/2--2/6/6/o4x x 5 2",
                          "x6o/8/8/3--3/8/8/8/o6x o 0 9", "xoxoxoxo/8/8/8/8/8/8/-------x x 0 1",
                          "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1", "x3o/6/7/8/o7x/8/7/6/x3o o 4 3",
                          "-----/------/-------/--------/---------/--------/-------/------/x---o x 0 1"})
    EXPECT_EQ(Position::from_fen(fen).fen(), fen);
}

TEST(BoardFamily, TheBoardIsKnownFromTheFensShape) {
  EXPECT_EQ(&Position::from_fen("4/4/4/4").board(), &board(BoardId::k4x4));
  EXPECT_EQ(&Position::from_fen("8/8/8/8/8/8/8/8 o").board(), &board(BoardId::k8x8));
  EXPECT_EQ(&Position::from_fen("5/6/7/8/9/8/7/6/5").board(), &hexagon());
}

TEST(BoardFamily, MalformedShapesAreRejectedWithTheReason) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"3/3/3", "3 ranks; expected 4 to 8"},
      {"9/9/9/9/9/9/9/9/9", "Hexxagon rows 9 to 1 hold 5,6,7,8,9,8,7,6,5"},
      {"5/6/7/8/9/8/7/6/6", "rank 1 '6' covers 6 cells, expected 5"},
      {"8/8/8/8/8/8/8/7", "as many cells per rank as ranks"},
      {"5/5/5/5/5/5/5/5/5/5", "10 ranks"},
      {"4/4/4/4/4", "rank 5 '4' covers 4 cells, expected 5"},
  };
  for (const auto& [fen, reason] : cases) {
    try {
      Position::from_fen(fen);
      ADD_FAILURE() << fen << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
  }
}

TEST(BoardFamily, SameBitsOnTwoBoardsHashApart) {
  const Position five = Position::from_bitboards(board(BoardId::k5x5), 1, 2, 0, Color::kX);
  const Position six = Position::from_bitboards(board(BoardId::k6x6), 1, 2, 0, Color::kX);
  EXPECT_NE(five.hash(), six.hash());
  EXPECT_NE(five, six);
  EXPECT_THROW(Position::from_bitboards(board(BoardId::k4x4), bit(16), 0, 0, Color::kX), std::invalid_argument);
}

// A symmetry maps cells onto cells, neighbours onto neighbours and jumps onto jumps, and has an inverse.
TEST(BoardFamily, SymmetriesPreserveTheGeometry) {
  for (int id = 0; id < kNumBoards; ++id) {
    const Board& b = board(static_cast<BoardId>(id));
    EXPECT_EQ(b.num_symmetries, b.hexagonal ? 12 : 8);
    std::set<std::vector<int>> distinct;
    for (int s = 0; s < b.num_symmetries; ++s) {
      std::vector<int> image;
      for (Square from = 0; from < b.num_cells; ++from) {
        image.push_back(b.symmetries[s][from]);
        EXPECT_EQ(b.symmetries[b.inverse[s]][b.symmetries[s][from]], from);
        EXPECT_EQ(transform_bitboard(b, s, b.clone_targets[from]), b.clone_targets[b.symmetries[s][from]]);
        EXPECT_EQ(transform_bitboard(b, s, b.jump_targets[from]), b.jump_targets[b.symmetries[s][from]]);
      }
      EXPECT_EQ(std::set<int>(image.begin(), image.end()).size(), static_cast<std::size_t>(b.num_cells));
      distinct.insert(image);
    }
    EXPECT_EQ(distinct.size(), static_cast<std::size_t>(b.num_symmetries)) << b.name;
  }
}

TEST(BoardFamily, HexAugmentationKeepsTheRemovedCells) {
  EXPECT_EQ(augmentation_symmetries(Position::startpos(hexagon())).count, 6);
  EXPECT_EQ(augmentation_symmetries(Position::from_fen("x3o/6/7/8/o7x/8/7/6/x3o")).count, 12);
  EXPECT_EQ(augmentation_symmetries(Position::from_fen("x5o/7/7/3-3/1-5/7/o5x")).count, 8);  // square: all 8
  const Position start = Position::startpos(hexagon());
  for (int i = 0; i < 6; ++i) {
    const int s = augmentation_symmetries(start).symmetries[i];
    EXPECT_EQ(transform_position(s, start).gaps(), start.gaps());
    EXPECT_EQ(perft(transform_position(s, start), 3), 16548U);
  }
}

}  // namespace
}  // namespace ataxx
