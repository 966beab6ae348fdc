// `ataxx-zero play` through the real binary, its moves typed on standard input.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tests/tools/run_binary.h"

namespace ataxx {
namespace {

// `ataxx-zero play ARGS` with `typed` (lines) as its standard input.
Ran play(const std::string& typed, const std::string& args) {
  return run_shell("printf '" + typed + "' | " + ATAXX_ZERO_BINARY + " play " + args);
}

// The FEN under each board drawn, in order.
std::vector<std::string> boards_drawn(const std::string& output) {
  std::vector<std::string> fens;
  const std::regex line(R"((?:x|o|White|Black) to move   ([^\n]+)\n)");
  for (auto it = std::sregex_iterator(output.begin(), output.end(), line); it != std::sregex_iterator(); ++it)
    fens.push_back((*it)[1]);
  return fens;
}

const std::string kStart = "x5o/7/7/7/7/7/o5x x 0 1";

TEST(PlayCommand, UndoTakesBackYourMoveAndTheEnginesReply) {
  const Ran ran = play("undo\\ng2\\nundo\\nquit\\n", "--engine greedy");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("your move: no move of yours to take back"), std::string::npos) << ran.output;
  const std::vector<std::string> fens = boards_drawn(ran.output);
  ASSERT_EQ(fens.size(), 5U) << ran.output;
  EXPECT_EQ(fens[0], kStart);
  EXPECT_EQ(fens[1], kStart) << "an undo with nothing to take back leaves the game";
  EXPECT_EQ(fens[2], "x5o/7/7/7/7/6x/o5x o 0 1");
  EXPECT_EQ(fens[3].substr(fens[3].size() - 6), " x 0 2") << "the engine replied: " << ran.output;
  EXPECT_EQ(fens[4], kStart) << "back at your turn before your move";
}

TEST(PlayCommand, AsOUndoGoesBackToTheTurnAfterTheEnginesFirstMove) {
  const Ran ran = play("a2\\nundo\\nquit\\n", "--engine greedy --human o");
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::vector<std::string> fens = boards_drawn(ran.output);
  ASSERT_EQ(fens.size(), 5U) << ran.output;
  EXPECT_EQ(fens[0], kStart);
  EXPECT_EQ(fens[1].substr(fens[1].size() - 6), " o 0 1") << "the engine, x, moved first: " << ran.output;
  // Ranks 2 and 1 both start with o (the engine's first move may have cloned to f1).
  EXPECT_TRUE(std::regex_search(fens[2], std::regex("/o[^/]*/o[^/]* x 0 2$"))) << "a2 clones o's a1 man: " << fens[2];
  EXPECT_EQ(fens[4], fens[1]) << ran.output;
}

TEST(PlayCommand, AnIllegalMoveIsExplainedWithTheLegalOnes) {
  const Ran ran = play("a7b6\\nquit\\n", "--engine greedy");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("invalid move 'a7b6': a jump must go exactly 2 cells"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("legal moves: f1 f2 g2 a6 b6 b7 "), std::string::npos) << ran.output;
  EXPECT_EQ(boards_drawn(ran.output), std::vector<std::string>({kStart, kStart}));
}

// The help's examples are moves of the board played: g2 and a7c5, the 7x7 start's, are no cells
// of the hexagon. The first line names the program run (ataxx-engine had called itself ataxx-zero).
TEST(PlayCommand, TheHelpsMovesAreMovesOfTheBoard) {
  const Ran ran = play("quit\n", "--engine greedy --fen 'x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1'");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("ataxx-zero play: Ataxx; you are x against greedy. Moves: b1 (clone), a1c1 (jump), 0000 "
                            "(pass)"),
            std::string::npos)
      << ran.output;
  const Ran engine = run_shell(std::string("printf 'quit\\n' | ") + ATAXX_ENGINE_BINARY + " play --engine greedy");
  EXPECT_TRUE(engine.output.starts_with("ataxx-engine play: Ataxx; you are x against greedy.")) << engine.output;
}

// Before, `help` was read as a move ("'he' is not a cell"), and a blank line or a move with a
// trailing blank as an invalid one.
TEST(PlayCommand, HelpSaysTheCommandsAndBlanksAroundAMoveAreIgnored) {
  const Ran ran = play("help\n\n g2 \r\nquit\n", "--engine greedy");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_EQ(ran.output.find("invalid move"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("your move: Moves: f1 (clone), g1e1 (jump), 0000 (pass); undo to take back your last move, "
                            "help for this, quit to stop.\nlegal moves: f1 f2 g2 "),
            std::string::npos)
      << ran.output;
  const std::vector<std::string> fens = boards_drawn(ran.output);
  ASSERT_GE(fens.size(), 3U) << ran.output;
  EXPECT_EQ(fens[fens.size() - 2], "x5o/7/7/7/7/6x/o5x o 0 1") << "g2 was played: " << ran.output;
}

TEST(PlayCommand, WatchesTwoEnginesPlayAGameToItsEnd) {
  const Ran ran = play("", "--engine greedy --human none --fen 'x2o/4/4/o2x x 0 1'");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_TRUE(std::regex_search(ran.output, std::regex(R"(\ngame over: [^\n]+ \([^\n]+\)\n$)"))) << ran.output;
  EXPECT_EQ(ran.output.find("your move"), std::string::npos) << ran.output;
}

// --movetime replaces the engine's own budget (a model's visits, alpha-beta's depth).
TEST(PlayCommand, AMovetimeReplacesTheEnginesVisits) {
  for (const std::string limit : {"", " --movetime 300"}) {
    const Ran ran = play("g2\\nquit\\n", "--visits 10" + limit);
    ASSERT_EQ(ran.status, 0) << ran.output;
    std::smatch nodes;
    ASSERT_TRUE(std::regex_search(ran.output, nodes, std::regex(R"(engine plays \S+ +eval [-+]\d+ cp, (\d+) nodes)")))
        << ran.output;
    if (limit.empty())
      EXPECT_EQ(std::stoi(nodes[1]), 10) << ran.output;
    else
      EXPECT_GT(std::stoi(nodes[1]), 10) << ran.output;
  }
}

TEST(PlayCommand, UndoesASchataxxMove) {
  const Ran ran = play("Q@b3\\nundo\\nquit\\n", "--engine random --fen 'k6n/8/8/8/8/8/P7/K6N[Qq] w - - 0 1'");
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::vector<std::string> fens = boards_drawn(ran.output);
  ASSERT_EQ(fens.size(), 4U) << ran.output;
  EXPECT_EQ(fens[1], "k6n/8/8/8/8/1Q6/P7/K6N[q] b - - 0 1") << "the drop: " << ran.output;
  EXPECT_NE(fens[2], fens[1]) << "the engine replied: " << ran.output;
  EXPECT_EQ(fens[3], fens[0]) << ran.output;
}

// Before, --variant was read only beside a Schataxx --fen: `play --variant schataxx-balanced` played
// Ataxx, and an unknown variant went unnoticed.
TEST(PlayCommand, AVariantAloneStartsSchataxxInIt) {
  const Ran ran = play("Q@b2\\nquit\\n", "--engine random --variant schataxx-balanced");
  ASSERT_EQ(ran.status, 0) << ran.output;
  const std::vector<std::string> fens = boards_drawn(ran.output);
  ASSERT_EQ(fens.size(), 2U) << ran.output;
  EXPECT_EQ(fens[0], "k6N/8/8/8/8/8/8/K6n[QRRBBNPPPPPPPPqrrbbnpppppppp] w - - 0 1");
  EXPECT_NE(ran.output.find("move Q@b2 is not legal"), std::string::npos) << "no queen drop early: " << ran.output;
  EXPECT_NE(ran.output.find("legal moves: B@b1 "), std::string::npos) << ran.output;
}

TEST(PlayCommand, RefusesAnUnknownVariantOrOneWithAnAtaxxFen) {
  const Ran unknown = play("quit\\n", "--engine random --variant chess");
  EXPECT_NE(unknown.status, 0);
  EXPECT_NE(unknown.output.find("--variant: chess not in {schataxx,schataxx-balanced,schataxx-unlimited}"),
            std::string::npos)
      << unknown.output;
  const Ran ataxx = play("quit\\n", "--engine random --variant schataxx --fen '" + kStart + "'");
  EXPECT_NE(ataxx.status, 0);
  EXPECT_NE(ataxx.output.find("--variant plays Schataxx, but the FEN '" + kStart + "' is an Ataxx position"),
            std::string::npos)
      << ataxx.output;
  EXPECT_TRUE(boards_drawn(ataxx.output).empty()) << ataxx.output;
}

// A net of another board had been found out only at the engine's first move, once the game was drawn.
TEST(PlayCommand, RefusesANetOfAnotherBoardBeforeTheGame) {
  const Ran ran = play("quit\\n", "--human o --fen 'x6o/8/8/8/8/8/8/o6x x 0 1' --model " +
                                      std::string(ATAXX_SOURCE_DIR) + "/nets/ataxx-7x7.net");
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("was trained on 7x7 and does not play 8x8"), std::string::npos) << ran.output;
  EXPECT_TRUE(boards_drawn(ran.output).empty()) << ran.output;
}

TEST(PlayCommand, RefusesAModelAndAnEngineSpecTogether) {
  const Ran ran = play("quit\\n", "--engine greedy --model " + std::string(ATAXX_ZERO_BINARY));
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.output.find("--model excludes --engine"), std::string::npos) << ran.output;
}

}  // namespace
}  // namespace ataxx
