#include <gtest/gtest.h>

#include <stdexcept>

#include "games/ataxx/move.h"

namespace ataxx {
namespace {

TEST(Move, ParsesAndWritesEachKind) {
  EXPECT_EQ(parse_move("g2", board_7x7()), Move::single(1 * 7 + 6));
  EXPECT_EQ(parse_move("a7c5", board_7x7()), Move::jump(6 * 7 + 0, 4 * 7 + 2));
  EXPECT_EQ(parse_move("0000", board_7x7()), Move::pass());
  for (const char* text : {"a1", "g7", "d4", "a7c5", "c5a7", "a1c3", "b2d1", "0000"})
    EXPECT_EQ(to_string(parse_move(text, board_7x7()), board_7x7()), text);
}

TEST(Move, KindPredicates) {
  EXPECT_TRUE(parse_move("d4", board_7x7()).is_single());
  EXPECT_TRUE(parse_move("b2d4", board_7x7()).is_jump());
  EXPECT_TRUE(parse_move("0000", board_7x7()).is_pass());
  EXPECT_FALSE(parse_move("0000", board_7x7()).is_single());
  EXPECT_FALSE(parse_move("0000", board_7x7()).is_jump());
}

TEST(Move, RejectsMalformedText) {
  for (const char* text : {"", "a", "h1", "a8", "a0", "A1", "a1a1", "a1b2", "a1a4", "a1h3", "000", "00000", "a1c3 "})
    EXPECT_THROW(parse_move(text, board_7x7()), std::invalid_argument) << '"' << text << '"';
}

// KataGo's and GTP's word for it had been read as the cells 'pa' and 'ss'.
TEST(Move, APassInWordsIsToldItsNotation) {
  try {
    parse_move("pass", board_7x7());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "invalid move 'pass': a pass is written 0000");
  }
}

TEST(Move, ErrorNamesTheText) {
  try {
    parse_move("a1b2", board_7x7());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a1b2"), std::string::npos);
  }
}

}  // namespace
}  // namespace ataxx
