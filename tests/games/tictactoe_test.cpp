// The tests' own game holds the whole contract: its rules, its encoder's symmetries and its chunk
// codec, checked here before the pipeline plays it (tests/games/pipeline_test.cpp).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "games/game_type.h"
#include "tests/games/tictactoe/traits.h"

namespace ataxx {
namespace {

using tictactoe::Position;
using G = TicTacToeGame;

static_assert(GameType<TicTacToeGame>);

Position after(const std::string& moves) {
  G::Game game;
  for (std::size_t i = 0; i + 1 < moves.size(); i += 3) game.play(tictactoe::parse_move(moves.substr(i, 2)));
  return game.position();
}

TEST(TicTacToe, PerftCountsEveryGameTree) {
  const std::uint64_t expected[] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
  for (int depth = 0; depth <= 9; ++depth) EXPECT_EQ(G::perft(G::start(), depth), expected[depth]) << depth;
}

TEST(TicTacToe, ALineWinsAndAFullBoardDraws) {
  EXPECT_EQ(after("a1 a2 b1 b2 c1").outcome().result, Result::kXWins);
  EXPECT_EQ(after("a1 a2 b1 b2 c3 c2").outcome().result, Result::kOWins);
  EXPECT_EQ(after("b2 a1 c3 a3 a2 c2 b3 b1 c1").outcome().result, Result::kDraw);
  tictactoe::MoveList moves;
  after("a1 a2 b1 b2 c1").generate_moves(moves);
  EXPECT_TRUE(moves.empty());
  EXPECT_FALSE(after("a1 a2 b1 b2").outcome().is_over());
}

TEST(TicTacToe, FenRoundTripsAndBadFensAreRefused) {
  const Position pos = after("b2 a1 c3");
  EXPECT_EQ(pos.fen(), "..x/.x./o.. o");
  EXPECT_EQ(Position::from_fen(pos.fen()).hash(), pos.hash());
  for (const char* bad : {"", "..x/.x./o..  o", "..x/.x./o.q o", "..x/.x./o.. z", "xxx/.../... x", "ooo/.../... o",
                          "xxx/ooo/... x"})
    EXPECT_THROW(Position::from_fen(bad), std::invalid_argument) << bad;
  EXPECT_TRUE(G::claims_fen("..x/.x./o.. o"));
  EXPECT_FALSE(G::claims_fen("x5o/7/7/7/7/7/o5x x 0 1"));
}

TEST(TicTacToe, MovesReadAsTheyAreWrittenAndIllegalOnesAreRefused) {
  for (int cell = 0; cell < tictactoe::kCells; ++cell) {
    const tictactoe::Move move{static_cast<std::int8_t>(cell)};
    EXPECT_EQ(tictactoe::parse_move(tictactoe::to_string(move)), move);
    EXPECT_FALSE(move.is_pass());
  }
  EXPECT_EQ(tictactoe::parse_move(tictactoe::to_string(tictactoe::Move::pass())), tictactoe::Move::pass());
  EXPECT_THROW(tictactoe::parse_move("d1"), std::invalid_argument);
  G::Game game;
  game.play("b2");
  EXPECT_EQ(game.position(), after("b2"));
  EXPECT_FALSE(game.position() == G::start());
  EXPECT_FALSE(game.position().is_legal(tictactoe::parse_move("b2")));
  EXPECT_TRUE(game.position().is_legal(tictactoe::parse_move("a1")));
  EXPECT_THROW(game.play("b2"), std::invalid_argument);
  EXPECT_THROW(game.play(tictactoe::Move::pass()), std::invalid_argument);  // no side ever passes
  const Position won = after("a1 a2 b1 b2 c1");
  EXPECT_FALSE(won.is_legal(tictactoe::parse_move("c3")));  // the game is over
}

TEST(TicTacToe, TheSearchesShortcutsFindTheWinAndTheBlock) {
  const Position pos = after("a1 a2 b1 b2");  // x to move, c1 wins; o threatens c2
  tictactoe::MoveList moves;
  pos.generate_moves(moves);
  ASSERT_TRUE(G::winning_move(pos, moves));
  EXPECT_EQ(tictactoe::to_string(*G::winning_move(pos, moves)), "c1");
  EXPECT_EQ(G::Play::greedy_value(pos, tictactoe::parse_move("c1")), 3);
  EXPECT_EQ(G::Play::greedy_value(pos, tictactoe::parse_move("c2")), 2);
  EXPECT_EQ(G::Play::greedy_value(pos, tictactoe::parse_move("a3")), 0);
}

TEST(TicTacToe, EachSymmetryCarriesAPositionAndItsMovesAlike) {
  const Position pos = after("b1 a1 c3");
  std::set<std::string> images;
  const SymmetryList all = G::Encoder::augmentations(pos);
  ASSERT_EQ(all.count, 8);
  for (int i = 0; i < all.count; ++i) {
    const int s = all.symmetries[static_cast<std::size_t>(i)];
    const Position image = G::Encoder::transformed(s, pos);
    images.insert(image.fen());
    tictactoe::MoveList moves;
    pos.generate_moves(moves);
    for (const tictactoe::Move move : moves) {
      Position child = pos, child_image = image;
      child.make_move(move);
      child_image.make_move(G::Encoder::transformed(s, pos, move));
      EXPECT_EQ(G::Encoder::transformed(s, child).fen(), child_image.fen());
    }
  }
  EXPECT_EQ(images.size(), 8u);  // this position has no symmetry of its own
}

TEST(TicTacToe, ChunkCodecReadsWhatItWritesAndRefusesTheImpossible) {
  const Position pos = after("b2 a1 c3");
  std::string bytes;
  G::Chunk::put_position(bytes, pos);
  G::Chunk::put_move(bytes, tictactoe::parse_move("a3"));
  ByteReader in(bytes);
  const Position read = G::Chunk::read_position(in, 1);
  EXPECT_EQ(read.fen(), pos.fen());
  EXPECT_EQ(G::Chunk::MoveReader(read, 1).read(in), tictactoe::parse_move("a3"));
  std::string taken;
  G::Chunk::put_move(taken, tictactoe::parse_move("b2"));
  ByteReader on_a_man(taken);
  EXPECT_THROW(G::Chunk::MoveReader(read, 1).read(on_a_man), std::invalid_argument);
  std::string impossible;
  put_bytes<std::uint16_t>(impossible, 0x3);  // two x men, no o, x to move
  put_bytes<std::uint16_t>(impossible, 0);
  put_bytes<std::uint8_t>(impossible, 0);
  ByteReader bad(impossible);
  EXPECT_THROW(G::Chunk::read_position(bad, 1), std::invalid_argument);
}

TEST(TicTacToe, ItsOpeningSuiteIsEveryPositionTwoPliesIn) {
  const std::vector<Position> suite = G::openings_of("tictactoe", "");
  EXPECT_EQ(suite.size(), 72u);
  std::set<std::uint64_t> distinct;
  for (const Position& pos : suite) distinct.insert(pos.hash());
  EXPECT_EQ(distinct.size(), 72u);
}

}  // namespace
}  // namespace ataxx
