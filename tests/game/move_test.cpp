#include <gtest/gtest.h>

#include <stdexcept>

#include "game/move.h"

namespace ataxx {
namespace {

TEST(Move, ParsesAndWritesEachKind) {
  EXPECT_EQ(parse_move("g2"), Move::single(make_square(6, 1)));
  EXPECT_EQ(parse_move("a7c5"), Move::jump(make_square(0, 6), make_square(2, 4)));
  EXPECT_EQ(parse_move("0000"), Move::pass());
  for (const char* text : {"a1", "g7", "d4", "a7c5", "c5a7", "a1c3", "b2d1", "0000"})
    EXPECT_EQ(to_string(parse_move(text)), text);
}

TEST(Move, KindPredicates) {
  EXPECT_TRUE(parse_move("d4").is_single());
  EXPECT_TRUE(parse_move("b2d4").is_jump());
  EXPECT_TRUE(parse_move("0000").is_pass());
  EXPECT_FALSE(parse_move("0000").is_single());
  EXPECT_FALSE(parse_move("0000").is_jump());
}

TEST(Move, RejectsMalformedText) {
  for (const char* text : {"", "a", "h1", "a8", "a0", "A1", "a1a1", "a1b2", "a1a4", "a1h3", "000", "00000", "a1c3 "})
    EXPECT_THROW(parse_move(text), std::invalid_argument) << '"' << text << '"';
}

TEST(Move, ErrorNamesTheText) {
  try {
    parse_move("a1b2");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a1b2"), std::string::npos);
  }
}

}  // namespace
}  // namespace ataxx
