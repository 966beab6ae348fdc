#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "games/ataxx/position.h"

namespace ataxx {
namespace {

Square sq(const char* name) { return *board_7x7().find(name[0] - 'a', name[1] - '1'); }

TEST(Fen, StartPosition) {
  const Position pos = Position::startpos();
  EXPECT_EQ(pos.pieces(Color::kX), bit(sq("a7")) | bit(sq("g1")));
  EXPECT_EQ(pos.pieces(Color::kO), bit(sq("g7")) | bit(sq("a1")));
  EXPECT_EQ(pos.gaps(), 0U);
  EXPECT_EQ(pos.side_to_move(), Color::kX);
  EXPECT_EQ(pos.fen(), Position::kStartFen);
}

TEST(Fen, RoundTrips) {
  for (const char* fen : {"x5o/7/2-1-2/3-3/2-1-2/7/o5x o 17 42", "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
                          "7/7/7/7/-------/-------/x5o x 3 9", "-------/-------/-------/-------/-------/-------/------x o 0 1",
                          "xoxoxox/oxoxoxo/7/3-3/7/1x3o1/7 x 99 100"})
    EXPECT_EQ(Position::from_fen(fen).fen(), fen);
}

TEST(Fen, MissingTrailingFieldsDefault) {
  EXPECT_EQ(Position::from_fen("x5o/7/7/7/7/7/o5x").fen(), "x5o/7/7/7/7/7/o5x x 0 1");
  EXPECT_EQ(Position::from_fen("x5o/7/7/7/7/7/o5x o").fen(), "x5o/7/7/7/7/7/o5x o 0 1");
  EXPECT_EQ(Position::from_fen("x5o/7/7/7/7/7/o5x o 12").fen(), "x5o/7/7/7/7/7/o5x o 12 1");
  EXPECT_EQ(Position::from_fen("  x5o/7/7/7/7/7/o5x   o  ").fen(), "x5o/7/7/7/7/7/o5x o 0 1");
}

TEST(Fen, RejectsMalformedText) {
  for (const char* fen : {"", "   ", "x5o/7/7/7/7/7", "x5o/7/7/7/7/7/o5x/7", "x5o/7/7/7/7/7/o6x", "x5o/7/7/7/7/7/o4x",
                          "x5o/7/7/7/7/7/o5xx", "x5o/7/7/7/7/7/7x", "x5o/7/7/7/7/7/o5b", "x5o/7/7/7/7/7/o0o5x",
                          "x5o/7/7/7/7/7/o5x w", "x5o/7/7/7/7/7/o5x x -1", "x5o/7/7/7/7/7/o5x x a 1",
                          "x5o/7/7/7/7/7/o5x x 0 0", "x5o/7/7/7/7/7/o5x x 0 1 extra", "x5o//7/7/7/7/o5x",
                          "x5o/7/7/7/7/7/o5x x 1.5 1", "x5o/7/7/7/7/7/o8"})
    EXPECT_THROW(Position::from_fen(fen), std::invalid_argument) << '"' << fen << '"';
}

TEST(Fen, CountersAreBoundedSoThatNoGameFromThereOverflowsThem) {
  // Before: "o 0 2147483647" was read, and o's move overflowed the fullmove number (UBSan).
  for (const char* fen : {"x5o/7/7/7/7/7/o5x o 0 2147483647", "x5o/7/7/7/7/7/o5x o 2147483647 1",
                          "x5o/7/7/7/7/7/o5x o 1000001 1", "x5o/7/7/7/7/7/o5x o 0 1000001"})
    EXPECT_THROW(Position::from_fen(fen), std::invalid_argument) << fen;
  // In play they stop at the bound, so that the FEN of every position reached reads back (the fen
  // fuzzer's find: a jump from "... x 1000000" wrote a halfmove clock of 1000001, refused).
  Position pos = Position::from_fen("x5o/7/7/7/7/7/o5x o 999999 1000000");
  pos.make_move(parse_move("g7e5", pos.board()));
  EXPECT_EQ(pos.halfmove_clock(), 1'000'000);
  EXPECT_EQ(pos.fullmove_number(), 1'000'000);
  pos.make_move(parse_move("g1e3", pos.board()));
  EXPECT_EQ(pos.halfmove_clock(), 1'000'000);
  EXPECT_EQ(Position::from_fen(pos.fen()), pos);
  EXPECT_THROW(Position::from_bitboards(board_7x7(), 1, 2, 0, Color::kX, 1'000'001, 1), std::invalid_argument);
}

TEST(Fen, ErrorSaysWhatIsWrong) {
  try {
    Position::from_fen("x5o/7/7/7/7/7/o5b");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unexpected character 'b' on rank 1"), std::string::npos) << e.what();
  }
  // A trailing '/' had been read as an eighth rank: "rank 8 'x5o' covers 7 cells, expected 8".
  for (const char* fen : {"x5o/7/7/7/7/7/o5x/ x 0 1", "x5o/7//7/7/7/7/o5x x 0 1"}) {
    try {
      Position::from_fen(fen);
      ADD_FAILURE() << fen;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("a rank is empty (a '/' too many?)"), std::string::npos) << e.what();
    }
  }
}

TEST(MakeMove, SingleClonesAndCaptures) {
  Position pos = Position::from_fen("7/7/7/2o4/1x1o3/7/7 x 7 3");
  pos.make_move(Move::single(sq("c3")));
  EXPECT_EQ(pos.fen(), "7/7/7/2x4/1xxx3/7/7 o 0 3");
}

TEST(MakeMove, JumpLeavesItsOriginAndAdvancesClocks) {
  Position pos = Position::from_fen("7/7/7/7/7/7/x5o o 4 9");
  pos.make_move(Move::jump(sq("g1"), sq("e1")));
  EXPECT_EQ(pos.fen(), "7/7/7/7/7/7/x3o2 x 5 10");
}

TEST(MakeMove, PassCountsOnTheHalfmoveClock) {
  Position pos = Position::from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 5 1");
  MoveList moves;
  pos.generate_moves(moves);
  ASSERT_EQ(moves.size(), 1);
  EXPECT_TRUE(moves[0].is_pass());
  pos.make_move(moves[0]);
  EXPECT_EQ(pos.fen(), "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 6 1");
}

TEST(MoveGeneration, OneSinglePerDestination) {
  // Two pieces reach b2 by a clone: still one move.
  const Position pos = Position::from_fen("6o/7/7/7/7/x1x4/7 x 0 1");
  MoveList moves;
  pos.generate_moves(moves);
  int to_b2 = 0;
  for (const Move m : moves) to_b2 += m.is_single() && m.to == sq("b2");
  EXPECT_EQ(to_b2, 1);
}

TEST(MoveGeneration, PassOnlyWhenNothingElse) {
  MoveList moves;
  Position::startpos().generate_moves(moves);
  for (const Move m : moves) EXPECT_FALSE(m.is_pass());
  EXPECT_FALSE(Position::startpos().is_legal(Move::pass()));
  EXPECT_TRUE(Position::from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x").is_legal(Move::pass()));
}

TEST(MoveGeneration, IsLegalAgreesWithGeneration) {
  std::mt19937 rng(7);
  Position pos = Position::from_fen("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1");
  for (int ply = 0; ply < 60 && !pos.outcome().is_over(); ++ply) {
    MoveList moves;
    pos.generate_moves(moves);
    int legal = 0;
    for (Square from = 0; from <= kMaxCells; ++from)
      for (Square to = 0; to <= kMaxCells; ++to) {
        const Move m{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
        if (from != to && (from == kMaxCells || to == kMaxCells)) continue;
        if (pos.is_legal(m)) {
          ++legal;
          EXPECT_NE(std::find(moves.begin(), moves.end(), m), moves.end()) << to_string(m, pos.board());
        }
      }
    EXPECT_EQ(legal, moves.size());
    pos.make_move(moves[rng() % moves.size()]);
  }
}

TEST(Hash, IncrementalEqualsFromScratchAlongRandomGames) {
  std::mt19937 rng(42);
  for (const char* fen : {"x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2-1-2/3-3/2-1-2/7/o5x o 0 1"}) {
    for (int game = 0; game < 50; ++game) {
      Position pos = Position::from_fen(fen);
      while (!pos.outcome().is_over()) {
        MoveList moves;
        pos.generate_moves(moves);
        pos.make_move(moves[rng() % moves.size()]);
        ASSERT_EQ(pos.hash(), pos.compute_hash()) << pos.fen();
        ASSERT_EQ(pos.hash(), Position::from_fen(pos.fen()).hash());
      }
    }
  }
}

TEST(Hash, DependsOnSideToMoveAndGaps) {
  EXPECT_NE(Position::from_fen("x5o/7/7/7/7/7/o5x x").hash(), Position::from_fen("x5o/7/7/7/7/7/o5x o").hash());
  EXPECT_NE(Position::from_fen("x5o/7/7/3-3/7/7/o5x x").hash(), Position::startpos().hash());
  EXPECT_EQ(Position::from_fen("x5o/7/7/7/7/7/o5x x 5 9").hash(), Position::startpos().hash());
}

TEST(Outcome, NoPiecesLosesWhoeverIsToMove) {
  EXPECT_EQ(Position::from_fen("7/7/7/7/7/7/x6 x").outcome(), (Outcome{Result::kXWins, EndReason::kNoPieces}));
  EXPECT_EQ(Position::from_fen("7/7/7/7/7/7/x6 o").outcome(), (Outcome{Result::kXWins, EndReason::kNoPieces}));
  EXPECT_EQ(Position::from_fen("7/7/7/7/7/7/o6 x").outcome(), (Outcome{Result::kOWins, EndReason::kNoPieces}));
}

TEST(Outcome, NeitherCanMoveCountsPieces) {
  EXPECT_EQ(Position::from_fen("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo o").outcome(),
            (Outcome{Result::kXWins, EndReason::kNoMoves}));
  // Blocked by gaps with empty squares left: empty squares are never awarded.
  EXPECT_EQ(Position::from_fen("x-o----/-------/-------/7/7/7/7 x").outcome(),
            (Outcome{Result::kDraw, EndReason::kNoMoves}));
  EXPECT_EQ(Position::from_fen("xx-o---/-------/-------/7/7/7/7 o").outcome(),
            (Outcome{Result::kXWins, EndReason::kNoMoves}));
  EXPECT_FALSE(Position::from_fen("x1o----/-------/-------/7/7/7/7 o").outcome().is_over());
}

TEST(Outcome, HalfmoveClockIsADrawAtTheConfiguredLimit) {
  EXPECT_FALSE(Position::from_fen("x5o/7/7/7/7/7/o5x x 99 1").outcome().is_over());
  EXPECT_EQ(Position::from_fen("x5o/7/7/7/7/7/o5x x 100 1").outcome(), (Outcome{Result::kDraw, EndReason::kHalfmoveClock}));
  EXPECT_FALSE(Position::from_fen("x5o/7/7/7/7/7/o5x x 100 1").outcome({.halfmove_limit = 0}).is_over());
  EXPECT_TRUE(Position::from_fen("x5o/7/7/7/7/7/o5x x 50 1").outcome({.halfmove_limit = 50}).is_over());
}

TEST(Outcome, NoPiecesIsCheckedBeforeTheClock) {
  EXPECT_EQ(Position::from_fen("7/7/7/7/7/7/x6 o 100 1").outcome().reason, EndReason::kNoPieces);
}

}  // namespace
}  // namespace ataxx
