#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "games/ataxx/perft.h"

namespace ataxx {
namespace {

struct PerftCase {
  std::string fen;
  std::vector<std::uint64_t> counts;  // depth 1, 2, ...
};

// Published values (libataxx); the halfmove-clock position is over before it starts.
const std::vector<PerftCase> kPerftTable = {
    {"x5o/7/7/7/7/7/o5x x 0 1", {16, 256, 6460, 155888, 4752668, 141865520}},
    {"x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", {14, 196, 4184, 86528, 2266352, 58227084}},
    {"x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", {14, 196, 4100, 83104, 2114588, 52807880}},
    {"7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", {1, 75, 249, 14270, 452980, 23059832}},
    {"7/7/7/2x1o2/7/7/7 x 0 1", {23, 419, 7887, 168317, 4266992, 117217171}},
    {"7/7/7/7/-------/-------/x5o x 0 1", {2, 4, 13, 30, 73, 174}},
    {"x5o/7/7/7/7/7/o5x x 100 1", {0, 0, 0, 0, 0, 0}},
};

// The same position with the colours swapped and o to move.
std::string swap_colours(const std::string& fen) {
  std::string out = fen;
  for (char& c : out) c = c == 'x' ? 'o' : c == 'o' ? 'x' : c;
  return out;
}

void check_table(int max_depth) {
  for (const auto& [fen, counts] : kPerftTable) {
    for (const std::string& variant : {fen, swap_colours(fen)}) {
      const Position pos = Position::from_fen(variant);
      for (int depth = 1; depth <= max_depth; ++depth)
        EXPECT_EQ(perft(pos, depth), counts[depth - 1]) << variant << " depth " << depth;
    }
  }
}

TEST(Perft, PublishedTableToDepth5) { check_table(5); }

TEST(Perft, SlowPublishedTableToDepth6) { check_table(6); }

TEST(Perft, SlowStartPositionDepth7) { EXPECT_EQ(perft(Position::startpos(), 7), 5023479496ULL); }

TEST(Perft, DepthZeroIsOneNode) { EXPECT_EQ(perft(Position::startpos(), 0), 1U); }

TEST(Perft, SplitSumsToTotal) {
  const Position pos = Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
  const auto split = perft_split(pos, 4);
  ASSERT_EQ(split.size(), 14U);
  std::uint64_t total = 0;
  for (const auto& entry : split) total += entry.second;
  EXPECT_EQ(total, 86528U);
}

TEST(Perft, BulkCountingMatchesMakingEveryMove) {
  // perft(depth 1) counts without making moves; the generated list must agree.
  const Position pos = Position::from_fen("7/7/7/2x1o2/7/7/7 x 0 1");
  for (const auto& [move, nodes] : perft_split(pos, 3)) {
    Position child = pos;
    child.make_move(move);
    std::uint64_t made = 0;
    MoveList moves;
    child.generate_moves(moves);
    for (const Move reply : moves) {
      Position grandchild = child;
      grandchild.make_move(reply);
      MoveList leaves;
      grandchild.generate_moves(leaves);
      made += leaves.size();
    }
    EXPECT_EQ(made, nodes) << to_string(move, pos.board());
  }
}

// Perft 2 works the children's bitboards out from each move; making every move must agree, on
// every board, with passes and with the halfmove clock one or two plies from its limit.
TEST(Perft, TheLastTwoPliesCountedMatchMakingEveryMoveOnEveryBoard) {
  std::mt19937_64 rng(5);
  int positions = 0;
  for (const char* start : {"x5o/7/7/7/7/7/o5x x 0 1", "x6o/8/8/8/8/8/8/o6x x 0 1", "x2o/4/4/o2x x 0 1",
                            "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1", "7/7/7/7/-------/-------/x5o x 0 1"})
    for (int game = 0; game < 20; ++game) {
      Position pos = Position::from_fen(start);
      for (int ply = 0; ply < 120; ++ply) {
        for (const int clock : {pos.halfmove_clock(), 98, 99}) {
          const Position at = Position::from_bitboards(pos.board(), pos.pieces(Color::kX), pos.pieces(Color::kO),
                                                       pos.gaps(), pos.side_to_move(), clock, pos.fullmove_number());
          std::uint64_t made = 0;
          MoveList moves;
          if (at.halfmove_clock() < 100) at.generate_moves(moves);
          for (const Move move : moves) {
            Position child = at;
            child.make_move(move);
            MoveList replies;
            if (child.halfmove_clock() < 100) child.generate_moves(replies);
            made += replies.size();
          }
          ASSERT_EQ(perft(at, 2), made) << at.fen();
          ++positions;
        }
        MoveList moves;
        pos.generate_moves(moves);
        if (moves.empty()) break;
        pos.make_move(moves[static_cast<int>(rng() % moves.size())]);
      }
    }
  EXPECT_GT(positions, 5000);
}

}  // namespace
}  // namespace ataxx
