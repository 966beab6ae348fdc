#include "util/text.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ataxx {
namespace {

using Fields = std::vector<std::string>;

TEST(Split, KeepsEmptyFields) {
  EXPECT_EQ(split("a,,b", ','), (Fields{"a", "", "b"}));
  EXPECT_EQ(split("a,", ','), (Fields{"a", ""}));
  EXPECT_EQ(split(",", ','), (Fields{"", ""}));
  EXPECT_EQ(split("abc", ','), (Fields{"abc"}));
  EXPECT_EQ(split("", ','), Fields{});
}

TEST(SplitWords, AnyRunOfBlanksSeparates) {
  EXPECT_EQ(split_words("  go  movetime\t100\r\n"), (Fields{"go", "movetime", "100"}));
  EXPECT_EQ(split_words(" \t "), Fields{});
  EXPECT_EQ(split_words("one"), (Fields{"one"}));
}

// An engine's command: a path with a space had been cut at it.
TEST(CommandWords, SplitsAsAShellWithoutExpansion) {
  using Words = std::vector<std::string>;
  EXPECT_EQ(command_words("  engine  --x 1 "), (Words{"engine", "--x", "1"}));
  EXPECT_EQ(command_words("'/my engines/z' uai"), (Words{"/my engines/z", "uai"}));
  EXPECT_EQ(command_words(R"("/a \"b\" \\c" d\ e 'it''s' $HOME)"), (Words{R"(/a "b" \c)", "d e", "its", "$HOME"}));
  EXPECT_EQ(command_words("x''"), (Words{"x"}));
  EXPECT_EQ(command_words("''"), (Words{""}));
  EXPECT_TRUE(command_words(" \t").empty());
  EXPECT_THROW(command_words("'/my engines/z uai"), std::invalid_argument);
  EXPECT_THROW(command_words(R"("a \")"), std::invalid_argument);
}

TEST(Trim, RemovesBlanksAtBothEnds) {
  EXPECT_EQ(trim("  a b \t"), "a b");
  EXPECT_EQ(trim(" \n "), "");
  EXPECT_EQ(trim("x"), "x");
}

TEST(ParseNumbers, AcceptOnlyTheWholeText) {
  EXPECT_EQ(parse_integer("42"), 42);
  EXPECT_EQ(parse_integer("+7"), 7);
  EXPECT_EQ(parse_integer("-3"), -3);
  for (const char* bad : {"", " 1", "1 ", "1.5", "0x10", "12a", "+", "--1", "99999999999999999999"})
    EXPECT_FALSE(parse_integer(bad).has_value()) << bad;
  EXPECT_EQ(parse_number("0.25"), 0.25);
  EXPECT_EQ(parse_number("-1e-3"), -1e-3);
  EXPECT_EQ(parse_number("+2"), 2.0);
  for (const char* bad : {"", "nan", "inf", "1e999", "1,5", "0.5x", " 1"})
    EXPECT_FALSE(parse_number(bad).has_value()) << bad;
}

TEST(Utf8Length, CountsCharactersNotBytes) {
  EXPECT_EQ(utf8_length(""), 0U);
  EXPECT_EQ(utf8_length("abc"), 3U);
  EXPECT_EQ(utf8_length("\xc3\xa9t\xc3\xa9"), 3U);             // été
  EXPECT_EQ(utf8_length("\xe2\x99\x9f\xf0\x9f\x98\x80"), 2U);  // a pawn and a face: 3 and 4 bytes
}

TEST(NaturalLess, OrdersRunsOfDigitsByTheirValue) {
  std::vector<std::string> names = {"gen-10000-a-00001.zst", "gen-9999-b-00010.zst", "gen-9999-b-00009.zst",
                                    "gen-0002-x.zst", "gen-2-x.zst", "unknown-a.zst", "gen-9999-a-00011.zst"};
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  const std::vector<std::string> expected = {"gen-0002-x.zst",       "gen-2-x.zst",          "gen-9999-a-00011.zst",
                                             "gen-9999-b-00009.zst", "gen-9999-b-00010.zst", "gen-10000-a-00001.zst",
                                             "unknown-a.zst"};
  EXPECT_EQ(names, expected);
  EXPECT_FALSE(natural_less("a", "a"));
  EXPECT_TRUE(natural_less("a", "ab"));
  EXPECT_FALSE(natural_less("ab", "a"));
  EXPECT_TRUE(natural_less("x9", "x10"));
  EXPECT_FALSE(natural_less("x10", "x9"));
}

}  // namespace
}  // namespace ataxx
