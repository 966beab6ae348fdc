#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "games/schataxx/game.h"
#include "match/match.h"
#include "match/openings.h"
#include "nn/inference_server.h"
#include "players/engine_process.h"
#include "tests/test_paths.h"
#include "uai/uai_engine.h"
#include "util/read_file.h"
#include "util/text.h"

namespace ataxx {
namespace {

// Drives a UaiEngine line by line, reading its output only once it is idle (so never while its
// thread writes).
class UaiSession {
 public:
  // Sends a line and waits until the engine has carried it out; returns what it wrote since the
  // last send (a posted line's output included).
  std::string send(const std::string& line) {
    const std::size_t before = posted_at_.value_or(out_.str().size());
    posted_at_.reset();
    engine_.handle(line);
    engine_.wait_until_idle();
    return out_.str().substr(before);
  }
  // Sends a line without waiting (for `go infinite`, which only `stop` ends); the engine may write
  // from then on, so the next send's output starts here.
  void post(const std::string& line) {
    if (!posted_at_) posted_at_ = out_.str().size();
    engine_.handle(line);
  }
  std::string go(const std::string& go_line) { return send(go_line); }
  // The move of the last bestmove line (without its ponder move).
  static std::string bestmove(const std::string& output) {
    const auto at = output.rfind("bestmove ");
    return split_words(output.substr(at, output.find('\n', at) - at)).at(1);
  }

 private:
  std::ostringstream out_;
  std::optional<std::size_t> posted_at_;  // the output's length when a line was posted, until the next send
  UaiEngine engine_{out_};
};

// Whether every multi-byte UTF-8 character of text is whole.
bool is_whole_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80           ? 1
                               : (byte >> 5) == 0x6  ? 2
                               : (byte >> 4) == 0xE  ? 3
                               : (byte >> 3) == 0x1E ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    i += length;
  }
  return true;
}

// Whether the engine's output ends in a bestmove legal at the 7x7 start.
bool answers_legally_from_start(const std::string& output) {
  return Position::startpos().is_legal(parse_move(UaiSession::bestmove(output), board_7x7()));
}

TEST(Uai, HandshakeListsOptions) {
  UaiSession uai;
  const std::string out = uai.send("uai");
  EXPECT_EQ(out.rfind("id name ataxx-zero " ATAXX_PROJECT_VERSION "\n", 0), 0U);
  for (const char* option : {"UCI_Variant", "Model", "Player", "Visits", "Threads", "BatchSize", "Device", "CacheSize",
                             "Hash", "MoveOverhead", "Ponder", "UCI_ShowWDL", "MultiPV", "VerboseMoveStats",
                             "PolicyTemperature", "CPuct", "FpuValue", "Transpositions"})
    EXPECT_NE(out.find(std::string("option name ") + option + " type"), std::string::npos) << option;
  EXPECT_TRUE(out.ends_with("uaiok\n"));
  EXPECT_EQ(uai.send("isready"), "readyok\n");
  EXPECT_EQ(uai.send("uainewgame"), "");
  EXPECT_EQ(uai.send("xyzzy 3"), "");  // unknown commands are ignored
  EXPECT_EQ(uai.send(""), "");
}

TEST(Uai, PlaysLegalMovesUnderEachKindOfLimit) {
  UaiSession uai;
  uai.send("position startpos moves g2 a2");
  Game game;
  game.play("g2");
  game.play("a2");
  for (const char* go : {"go depth 2", "go movetime 50", "go nodes 200", "go wtime 2000 btime 2000 winc 10 binc 10",
                         "go btime 500 wtime 500 movestogo 5"}) {
    const std::string out = uai.go(go);
    EXPECT_NE(out.find("info depth"), std::string::npos) << go;
    EXPECT_NE(out.find(" pv "), std::string::npos) << go;
    EXPECT_TRUE(game.position().is_legal(parse_move(UaiSession::bestmove(out), board_7x7()))) << go << ": " << out;
  }
}

// For a GUI that ponders, bestmove names the reply the search expects: its PV's second move.
TEST(Uai, BestmoveNamesTheReplyItExpectsToPonderOn) {
  for (const char* player : {"", "alphabeta"}) {
    UaiSession uai;
    if (*player) uai.send(std::string("setoption name Player value ") + player);
    uai.send("position startpos moves g2");
    const std::string out = uai.go("go depth 3");
    const std::string line = out.substr(out.rfind("bestmove "));
    const std::vector<std::string> words = split_words(line);
    ASSERT_EQ(words.size(), 4U) << player << ": " << line;
    EXPECT_EQ(words[2], "ponder");
    Game game;
    game.play("g2");
    game.play(words[1]);
    EXPECT_TRUE(game.position().is_legal(parse_move(words[3], board_7x7()))) << player << ": " << line;
    const auto pv_at = out.rfind(" pv ");
    EXPECT_EQ(split_words(out.substr(pv_at + 4, out.find('\n', pv_at) - pv_at - 4)).at(1), words[3]) << out;
  }
}

TEST(Uai, PlaysEveryBoardFromItsFenInItsNotation) {
  for (int id = 0; id < kNumBoards; ++id) {
    const Board& board = ataxx::board(static_cast<BoardId>(id));
    Game game(Position::startpos(board));
    MoveList moves;
    game.position().generate_moves(moves);
    const std::string first = to_string(moves[moves.size() - 1], board);
    game.play(first);
    UaiSession uai;
    uai.send("position fen " + std::string(board.start_fen) + " moves " + first);
    const std::string out = uai.go("go depth 2");
    EXPECT_TRUE(game.position().is_legal(parse_move(UaiSession::bestmove(out), board))) << board.name << ": " << out;
  }
}

// Writes a random 7x7 play file (1 block of 8 channels) named `name` and makes it uai's Model;
// returns its path.
std::string load_random_model(UaiSession& uai, const std::string& name) {
  const std::string model = temp_path(name);
  write_random_play_file(model, {1, 8}, 3);
  uai.send("setoption name Model value " + model);
  return model;
}

TEST(Uai, AModelAskedForABoardItWasNotTrainedOnLeavesItToThePlayerOption) {
  UaiSession uai;
  const std::string model = load_random_model(uai, "seven-only.net");
  uai.send("position fen " + std::string(board(BoardId::kHexagon).start_fen));
  std::string out = uai.go("go depth 2");
  EXPECT_NE(out.find("info string model '" + model + "' plays ataxx on 7x7, not hexagon: Player alphabeta plays this board"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_TRUE(Position::startpos(board(BoardId::kHexagon)).is_legal(parse_move(UaiSession::bestmove(out), board(BoardId::kHexagon))));
  uai.send("position startpos");
  out = uai.go("go nodes 20");
  EXPECT_NE(out.find("info string searching with " + model), std::string::npos) << "back on its board: " << out;
}

// The nodes of a search's last info line.
long long last_nodes(const std::string& output) {
  long long nodes = -1;
  const std::regex pattern(" nodes ([0-9]+)");
  for (auto it = std::sregex_iterator(output.begin(), output.end(), pattern); it != std::sregex_iterator(); ++it)
    nodes = std::stoll((*it)[1]);
  return nodes;
}

TEST(Uai, UciLimitStrengthPlaysTheLevelOfUciElo) {
  UaiSession uai;
  const std::string handshake = uai.send("uai");
  const std::string elo_option = "option name UCI_Elo type spin default " + std::to_string(kLevelRatings.front().elo) +
                                 " min " + std::to_string(kLevelRatings.front().elo) + " max " +
                                 std::to_string(kLevelRatings.back().elo) + "\n";
  EXPECT_NE(handshake.find("option name UCI_LimitStrength type check default false\n"), std::string::npos) << handshake;
  EXPECT_NE(handshake.find(elo_option), std::string::npos) << handshake;
  load_random_model(uai, "levels.net");
  uai.send("position startpos");
  EXPECT_GE(last_nodes(uai.go("go nodes 400")), 400);
  uai.send("setoption name UCI_LimitStrength value true");
  uai.send("setoption name UCI_Elo value 0");  // below the lowest: the lowest, 1 visit
  EXPECT_LE(last_nodes(uai.go("go nodes 400")), 8);
  const auto skill_50 = std::ranges::find(kLevelRatings, 50, &LevelRating::skill);
  ASSERT_NE(skill_50, kLevelRatings.end());
  uai.send("setoption name UCI_Elo value " + std::to_string(skill_50->elo));  // 32 visits
  const long long middle = last_nodes(uai.go("go nodes 400"));
  EXPECT_GE(middle, 32);
  EXPECT_LT(middle, 32 + 8);
  uai.send("setoption name UCI_LimitStrength value false");
  EXPECT_GE(last_nodes(uai.go("go nodes 400")), 400);
}

TEST(Uai, WithoutAModelEachBoardIsPlayedByTheFirstNetTrainedOnIt) {
  const std::string dir = testing::TempDir() + "/shelf";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write_random_play_file(dir + "/a-seven.net", {1, 8}, 3);
  write_random_play_file(dir + "/b-family.net", {1, 8}, 3, BoardSet::parse("7x7,hexagon"));
  std::ostringstream output;
  UaiEngine engine(output);
  engine.use_nets(NetShelf("", dir));
  for (const std::string& fen : {std::string(Position::kStartFen), std::string(board(BoardId::kHexagon).start_fen),
                                std::string(board(BoardId::k5x5).start_fen)}) {
    engine.handle("position fen " + fen);
    engine.handle("go nodes 16");
  }
  engine.finish();
  const std::string out = output.str();
  const std::size_t seven = out.find("info string searching with " + dir + "/a-seven.net");
  const std::size_t hexagon = out.find("info string searching with " + dir + "/b-family.net");
  EXPECT_NE(seven, std::string::npos) << out;
  EXPECT_NE(hexagon, std::string::npos) << out;
  EXPECT_LT(seven, hexagon) << "7x7 first, by the first net that plays it";
  EXPECT_NE(out.find("info string none of the nets (" + dir + ") plays ataxx on 5x5: Player alphabeta plays it"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("error"), std::string::npos) << "5x5, which no net plays, by the Player option: " << out;
}

// A number of a go's last info line: " nodes ", " hashfull ".
int reported(const std::string& output, const std::string& field) {
  const auto last_info = output.rfind("info depth");
  const auto at = output.find(field, last_info);
  if (at == std::string::npos || at > output.find('\n', last_info)) throw std::runtime_error("no" + field + "in " + output);
  return std::stoi(output.substr(at + field.size()));
}
int reported_nodes(const std::string& output) { return reported(output, " nodes "); }
std::vector<std::string> reported_pv(const std::string& output) {
  const auto last_info = output.rfind("info depth");
  const auto pv_at = output.find(" pv ", last_info) + 4;
  std::istringstream words(output.substr(pv_at, output.find('\n', pv_at) - pv_at));
  std::vector<std::string> moves;
  for (std::string move; words >> move;) moves.push_back(move);
  return moves;
}

// The search a `go` reported, without its timing: depth, nodes, score and principal variation.
std::string search_summary(const std::string& output) {
  const auto at = output.rfind("info depth");
  const std::string line = output.substr(at, output.find('\n', at) - at);
  const std::string search = line.substr(0, line.find(" nps "));
  return search + line.substr(line.find(" score "), line.find(" time ") - line.find(" score ")) + line.substr(line.find(" pv "));
}

// A search parameter's option (PolicyTemperature, CPuct, FpuValue) on a model's fixed-nodes search:
// its two ends search differently, `auto` as the Ataxx player's default, bad values are refused and
// leave the option as it was.
void expect_search_option(const std::string& option, const std::string& low, const std::string& high,
                          const std::string& player_default, std::initializer_list<const char*> bad_values) {
  UaiSession uai;
  load_random_model(uai, option + ".net");
  uai.send("position startpos moves g2");
  const auto search_at = [&](const std::string& value) {
    EXPECT_EQ(uai.send("setoption name " + option + " value " + value), "") << option << ' ' << value;
    return search_summary(uai.go("go nodes 400"));
  };
  const std::string at_low = search_at(low);
  EXPECT_EQ(search_at(low), at_low) << "a search of fixed nodes is the same each time";
  const std::string at_high = search_at(high);
  EXPECT_NE(at_high, at_low) << option;
  const std::string by_default = search_at("auto");
  EXPECT_EQ(search_at(player_default), by_default) << option << " auto: the Ataxx player's default";
  search_at(high);
  for (const char* bad : bad_values)
    EXPECT_NE(uai.send("setoption name " + option + " value " + bad).find("info string error: " + option),
              std::string::npos)
        << option << ' ' << bad;
  uai.send("uainewgame");
  uai.send("position startpos moves g2");
  EXPECT_EQ(search_summary(uai.go("go nodes 400")), at_high) << option << ": a refused value leaves it as it was";
}

TEST(Uai, PolicyTemperatureSetsTheModelsSearchAndRefusesWhatIsNotOne) {
  expect_search_option("PolicyTemperature", "0.1", "10", "2", {"0", "0.05", "11", "warm", ""});
}

TEST(Uai, CPuctSetsTheModelsSearchAndRefusesWhatIsNotOne) {
  expect_search_option("CPuct", "0", "100", "1.5", {"-0.5", "101", "high", ""});
}

TEST(Uai, CPuctAutoIsTheNetworkPlayersDefaultForTheBoard) {
  UaiSession uai;
  const std::string model = temp_path("c-puct-family.net");
  write_random_play_file(model, {1, 8}, 3, BoardSet::parse("7x7,8x8"));
  uai.send("setoption name Model value " + model);
  uai.send("position fen " + std::string(board(BoardId::k8x8).start_fen));
  const auto search_at = [&](const std::string& value) {
    EXPECT_EQ(uai.send("setoption name CPuct value " + value), "") << value;
    return search_summary(uai.go("go nodes 400"));
  };
  const std::string by_default = search_at("auto");
  EXPECT_EQ(search_at("1.0"), by_default) << "8x8: 1.0";
  EXPECT_NE(search_at("1.5"), by_default);
}

TEST(Uai, FpuValueSetsTheModelsSearchAndRefusesWhatIsNotOne) {
  expect_search_option("FpuValue", "-10", "10", "0.25", {"-11", "10.5", "low", ""});
}

// Off by default; on, the model's search keeps its map of positions within Hash (a seventh of it):
// at a full Hash it holds fewer nodes than without.
TEST(Uai, TranspositionsSetsTheModelsSearch) {
  UaiSession uai;
  load_random_model(uai, "transpositions.net");
  uai.send("setoption name Hash value 1");
  const auto nodes_with = [&](const std::string& value) {
    EXPECT_EQ(uai.send("setoption name Transpositions value " + value), "") << value;
    uai.send("position startpos");
    return reported_nodes(uai.go("go nodes 1000000"));
  };
  uai.send("position startpos");
  const auto by_default = reported_nodes(uai.go("go nodes 1000000"));
  const auto plain = nodes_with("false"), shared = nodes_with("true");
  EXPECT_EQ(by_default, plain) << "off by default";
  EXPECT_LT(shared, plain);
  EXPECT_GT(shared, plain / 2);
  EXPECT_NE(uai.send("setoption name Transpositions value maybe").find("info string error: Transpositions"),
            std::string::npos);
}

TEST(Uai, APositionOverUnderTheModelsRulesIsAnErrorNotACrash) {
  // Halfmove 60: the game goes on under the default limit of 100, the model's search (limit 50)
  // sees a finished game at its root. Before, the engine read past the root's empty move list.
  const std::string model = testing::TempDir() + "/limit-50.net";
  write_random_play_file(model, {1, 8}, 3, {}, RuleSettings{.halfmove_limit = 50});
  UaiSession uai;
  uai.send("setoption name Model value " + model);
  uai.send("position fen x5o/7/7/7/7/7/o5x x 60 31");
  const std::string out = uai.go("go nodes 20");
  EXPECT_NE(out.find("info string error: no move to choose: the game is over at the search's root"), std::string::npos)
      << out;
  EXPECT_TRUE(Position::from_fen("x5o/7/7/7/7/7/o5x x 60 31").is_legal(parse_move(UaiSession::bestmove(out), board_7x7())));
}

bool legal_schataxx(const schataxx::Game& game, const std::string& move) {
  try {
    return game.position().is_legal(schataxx::parse_move(move));
  } catch (const std::invalid_argument&) {
    return false;
  }
}

TEST(Uai, PlaysSchataxxFromItsFenOrItsVariant) {
  UaiSession uai;
  // Stocks in brackets: the FEN says the game.
  schataxx::Game game;
  game.play("P@b2");
  uai.send("position fen " + std::string(schataxx::Position::kStartFen) + " moves P@b2");
  std::string out = uai.go("go depth 2");
  EXPECT_TRUE(legal_schataxx(game, UaiSession::bestmove(out))) << out;
  // The variant, as Fairy-Stockfish's GUIs choose it: startpos is its start, its rules apply.
  EXPECT_EQ(uai.send("setoption name UCI_Variant value schataxx-balanced"),
            "info string UCI_Variant schataxx-balanced: the position is its start\n");
  uai.send("position startpos");
  schataxx::Game balanced(schataxx::Position::startpos(schataxx::Variant::kBalanced));
  for (int ply = 0; ply < 4; ++ply) {
    const std::string move = UaiSession::bestmove(uai.go("go depth 1"));
    ASSERT_TRUE(legal_schataxx(balanced, move)) << move;
    EXPECT_FALSE(move.starts_with("Q@") || move.starts_with("R@")) << move;
    balanced.play(move);
    std::string moves;
    for (const auto m : balanced.moves()) moves.append(" ").append(schataxx::to_string(m));
    uai.send("position startpos moves" + moves);
  }
  // Back to Ataxx.
  uai.send("setoption name UCI_Variant value ataxx");
  uai.send("position startpos");
  out = uai.go("go depth 1");
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
}

TEST(Uai, AModelPlaysItsOwnGameAndSaysSoForTheOther) {
  const std::string model = testing::TempDir() + "/schataxx-uai.net";
  write_random_play_file(model, {1, 8}, 3, {}, {}, SchataxxGame::kName);
  UaiSession uai;
  EXPECT_EQ(uai.send("setoption name Model value " + model), "");  // an Ataxx position at hand: taken all the same
  uai.send("position startpos");
  std::string out = uai.go("go nodes 30");
  EXPECT_NE(out.find("info string model '" + model + "' plays schataxx, not ataxx: Player alphabeta plays this game"),
            std::string::npos) << out;
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
  uai.send("position fen " + std::string(schataxx::Position::kStartFen));
  out = uai.go("go nodes 30");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_TRUE(legal_schataxx(schataxx::Game(), UaiSession::bestmove(out))) << out;
}

TEST(Uai, MalformedSchataxxInputIsRefusedWithTheReason) {
  UaiSession uai;
  for (const char* bad : {"setoption name UCI_Variant value chess", "position fen k6N/8/8/8/8/8/8/K6n[QX] w - - 0 1",
                          "position fen k6N/8/8/8/8/8/8/K6n[Q] w - - 0 1 moves Q@d4"}) {
    EXPECT_EQ(uai.send(bad).rfind("info string error: ", 0), 0U) << bad;
  }
}

TEST(Uai, PassAndGameOverAnswerNullMove) {
  UaiSession uai;
  uai.send("position fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
  EXPECT_EQ(UaiSession::bestmove(uai.go("go movetime 50")), "0000");
  uai.send("position fen x5o/7/7/7/7/7/o5x x 100 1");  // halfmove clock: the game is over
  EXPECT_EQ(UaiSession::bestmove(uai.go("go depth 3")), "0000");
  uai.send("position fen 7/7/7/7/7/7/x6 o");  // o has no pieces
  const std::string over = uai.go("go depth 3 searchmoves a1");
  EXPECT_EQ(UaiSession::bestmove(over), "0000");
  // Said, where a bare 0000 had left a GUI to take it for a pass.
  EXPECT_EQ(over.rfind("info string the game is over (no pieces): x wins\n", 0), 0U) << over;
}

// A player of weakened play (a level, random) played the same game after every uainewgame, and
// in every process: each game had seed 1.
TEST(Uai, EachNewGameIsPlayedWithItsOwnSeed) {
  UaiSession uai;
  uai.send("setoption name Player value random");
  std::set<std::string> first_moves;
  for (int game = 0; game < 8; ++game) {
    uai.send("uainewgame");
    uai.send("position startpos");
    first_moves.insert(UaiSession::bestmove(uai.go("go nodes 10")));
  }
  EXPECT_GT(first_moves.size(), 1U);  // 16 moves: the same one 8 times by chance once in 268 million
}

// Setting UCI_Variant to the game in play reset the position to its start, and the next go
// searched the start for the side the GUI did not have to move: an illegal bestmove.
TEST(Uai, UciVariantOfTheGameInPlayKeepsThePosition) {
  UaiSession uai;
  uai.send("setoption name Player value greedy");
  uai.send("position startpos moves g2");
  EXPECT_EQ(uai.send("setoption name UCI_Variant value ataxx"), "");
  Game game;
  game.play("g2");
  EXPECT_TRUE(game.position().is_legal(parse_move(UaiSession::bestmove(uai.go("go nodes 10")), board_7x7())));
  EXPECT_EQ(uai.send("setoption name UCI_Variant value schataxx"),
            "info string UCI_Variant schataxx: the position is its start\n");
  // The game in play is the position's, whatever the option said before it.
  uai.send("position fen x5o/7/7/7/7/7/o5x o 0 1");
  EXPECT_EQ(uai.send("setoption name UCI_Variant value ataxx"), "");
  EXPECT_TRUE(Position::from_fen("x5o/7/7/7/7/7/o5x o 0 1")
                  .is_legal(parse_move(UaiSession::bestmove(uai.go("go nodes 10")), board_7x7())));
}

// A Model that is no net was read whole before its first bytes were looked at: /dev/zero never ended.
TEST(Uai, AModelThatIsNoNetIsRefusedByItsFirstBytes) {
  UaiSession uai;
  const std::string out = uai.send("setoption name Model value /dev/zero");
  EXPECT_NE(out.find("'/dev/zero' is not an ataxx-zero model file"), std::string::npos) << out;
}

// The evaluation cache is made at once: CacheSize is bounded by the machine's memory, and a value
// above the bound is refused with it, not taken to fail later.
TEST(Uai, CacheSizeIsBoundedByTheMachinesMemory) {
  UaiSession uai;
  const std::string out = uai.send("uai");
  std::smatch found;
  ASSERT_TRUE(std::regex_search(out, found, std::regex("option name CacheSize type spin default 0 min 0 max (\\d+)")))
      << out;
  const std::int64_t largest = std::stoll(found[1]);
  const std::int64_t memory = std::int64_t{sysconf(_SC_PHYS_PAGES)} * sysconf(_SC_PAGE_SIZE);
  EXPECT_GT(largest, 0);
  EXPECT_LE(largest * 320, memory / 4) << "about 320 bytes an entry once filled";
  EXPECT_EQ(uai.send("setoption name CacheSize value " + std::to_string(largest + 1)).rfind("info string error: CacheSize", 0),
            0U);
  EXPECT_EQ(uai.send("setoption name CacheSize value 1000").find("error"), std::string::npos);
}

TEST(Uai, MalformedInputIsNamedAndTheOptionsKept) {
  UaiSession uai;
  for (const char* bad :
       {"position fen garbage", "position startpos moves a1", "position startpos moves zz", "position",
        "position sideways", "position fen", "position fen moves b6", "position startpos b6",
        "position startpos garbage moves b6", "setoption name Visits value lots", "setoption name Colour value blue",
        "setoption name Player value nobody"}) {
    EXPECT_EQ(uai.send(bad).rfind("info string error: ", 0), 0U) << bad;
  }
  // The FEN as the GUI wrote it (it had been quoted with a blank after it).
  EXPECT_EQ(uai.send("position fen x5o/7/7/7/7/7/o5 x 0 1 moves g2")
                .rfind("info string error: invalid FEN "
                       "'x5o/7/7/7/7/7/o5 x 0 1': rank 1",
                       0),
            0U);
  uai.send("position startpos");
  EXPECT_TRUE(answers_legally_from_start(uai.go("go depth 1")));
}

// A refused position had left the one before in place, and the next go answered a move of it: a
// move of another game than the GUI's.
TEST(Uai, AGoAfterARefusedPositionAnswersNoMove) {
  UaiSession uai;
  uai.send("position startpos");
  for (const char* bad : {"position startpos moves g2 zz", "position fen garbage"}) {
    EXPECT_EQ(uai.send(bad).rfind("info string error: ", 0), 0U) << bad;
    const std::string out = uai.go("go depth 1");
    EXPECT_EQ(out.rfind("info string error: no position to search: the last position command was refused (", 0), 0U)
        << bad << ": " << out;
    EXPECT_EQ(UaiSession::bestmove(out), "0000") << bad;
  }
  // A 5 MB move had been echoed whole, once for the position and again for each go.
  const std::string long_line = "position startpos moves " + std::string(100'000, 'b');
  EXPECT_LT(uai.send(long_line).size(), 500U);
  EXPECT_LT(uai.go("go depth 1").size(), 600U);
  std::string accents;  // two bytes each: the cut falls inside one unless it looks
  for (int i = 0; i < 1000; ++i) accents += "\xC3\xA9";
  const std::string cut = uai.send("position startpos moves b" + accents);
  EXPECT_TRUE(is_whole_utf8(cut)) << cut;
  for (const char* again : {"position startpos", "uainewgame"}) {
    uai.send("position fen garbage");
    uai.send(again);
    EXPECT_TRUE(answers_legally_from_start(uai.go("go depth 1"))) << again;
  }
}

// A GUI waits for the bestmove of every go: a malformed one got only an error, and the GUI waited
// for ever or lost on time.
TEST(Uai, AMalformedGoIsAnsweredAtOnceWithALegalMove) {
  UaiSession uai;
  uai.send("position startpos");
  for (const char* bad : {"go movetime abc", "go wtime 1000 btime x", "go movetime 99999999999999999999", "go depth"}) {
    const std::string out = uai.go(bad);
    EXPECT_EQ(out.rfind("info string error: ", 0), 0U) << bad << ": " << out;
    EXPECT_NE(out.find("; answering at once"), std::string::npos) << bad << ": " << out;
    EXPECT_TRUE(answers_legally_from_start(out)) << bad << ": " << out;
  }
  EXPECT_NE(uai.go("go nodes -99999999999999999999").find("go nodes '-99999999999999999999' is out of range"),
            std::string::npos);  // it had said "not an integer"
}

TEST(Uai, StopAnswersAnInfiniteSearchAtOnce) {
  UaiSession uai;
  uai.send("position startpos");
  uai.post("go infinite");
  const std::string out = uai.send("stop");
  EXPECT_NE(out.find("bestmove"), std::string::npos);
  EXPECT_TRUE(answers_legally_from_start(out));
}

// A GUI that ponders sends `go ponder` with the clocks, then ponderhit or stop: before, `ponder`
// was read as a key whose value was "wtime", and the go was refused with no bestmove at all.
TEST(Uai, APonderSearchRunsUntilPonderhitOrStopAndAnswersThem) {
  for (const char* end : {"ponderhit", "stop"}) {
    UaiSession uai;
    uai.send("setoption name Player value mcts:visits=100000000");
    uai.send("position startpos");
    uai.post("go ponder wtime 100 btime 100");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past the clocks' whole time
    const std::string out = uai.send(end);
    EXPECT_EQ(out.find("info string error"), std::string::npos) << end << ": " << out;
    EXPECT_TRUE(answers_legally_from_start(out)) << end << ": " << out;
  }
}

// Before, a ponder search ended at its go line's limits (answering before ponderhit, which a GUI
// takes for the move of a search it never started) or at ponderhit (answering at once, whatever it
// had); as lc0, it now ignores the limits until ponderhit and then searches within them, its tree kept.
TEST(Uai, APonderSearchAnswersOnlyAfterPonderhitAndThenSearchesWithinItsLimits) {
  for (const char* player : {"mcts:visits=1", "alphabeta"}) {
    UaiSession uai;
    uai.send(std::string("setoption name Player value ") + player);
    uai.send("position startpos");
    uai.post("go ponder nodes 50");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // far past 50 nodes
    const std::string out = uai.send("ponderhit");
    EXPECT_NE(out.find("bestmove "), std::string::npos) << player << ": " << out;
  }
  {  // a depth, too, waits for ponderhit: the ponder search had stopped at it and sat idle
    UaiSession uai;
    uai.send("setoption name Player value mcts:visits=100000000");
    uai.send("position startpos");
    uai.post("go ponder depth 2");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const std::string out = uai.send("stop");
    EXPECT_GT(reported_nodes(out), 2000) << out;
  }
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=1");
  uai.send("position startpos");
  uai.post("go ponder nodes 20000");
  const std::string out = uai.send("ponderhit");  // at once: the 20,000 nodes come after it
  ASSERT_NE(out.rfind("info depth"), std::string::npos) << out;
  EXPECT_GE(reported_nodes(out), 20000) << out;
}

// UCI's time counts from the go: a search that goes on after ponderhit had said only its time
// since then (and nodes a second of nodes it had not found in it).
TEST(Uai, APonderedSearchCountsItsTimeFromTheGoPonder) {
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=100000000");
  uai.send("position startpos");
  uai.post("go ponder movetime 50");
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const std::string out = uai.send("ponderhit");
  const int time = reported(out, " time "), nodes = reported_nodes(out), nps = reported(out, " nps ");
  EXPECT_GE(time, 400) << out;
  EXPECT_NEAR(nps, nodes * 1000.0 / time, 0.1 * nps) << out;  // a fresh tree: every node found since the go
}

// Alpha-beta reports each depth as it ends: its last was said again as the final report.
TEST(Uai, AlphaBetasLastDepthIsSaidOnce) {
  UaiSession uai;
  uai.send("setoption name Player value alphabeta");
  uai.send("position startpos");
  const std::string out = uai.go("go depth 3");
  int said = 0;
  for (std::size_t at = out.find("info depth 3 "); at != std::string::npos; at = out.find("info depth 3 ", at + 1))
    ++said;
  EXPECT_EQ(said, 1) << out;
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
}

// Alpha-beta's forced wins read as UCI's `score mate N`: before, as a score of 9,999 men.
TEST(Uai, AlphaBetaGivesAForcedWinAsMate) {
  UaiSession uai;
  uai.send("setoption name Player value alphabeta");
  uai.send("position fen 7/7/7/7/2o4/2o4/x6 x 0 1");  // b2 or b3 takes both o
  const std::string out = uai.go("go depth 3");
  EXPECT_NE(out.find("info depth 3 nodes "), std::string::npos) << out;
  EXPECT_NE(out.find(" score mate 1 "), std::string::npos) << out;
  EXPECT_EQ(out.find(" score cp "), std::string::npos) << out;
}

// `go mate N` was read and ignored: alpha-beta searched its own depth whatever N said.
TEST(Uai, GoMateSearchesAlphaBetaForAWinInThatManyMoves) {
  UaiSession uai;
  uai.send("setoption name Player value alphabeta");
  uai.send("position fen 7/1x3o1/3o3/7/7/7/6x x 0 1");  // x wins in 2 moves, not in 1
  const std::string one = uai.go("go mate 1");          // one ply, where alpha-beta's own depth is 3
  EXPECT_NE(one.find("info depth 1 nodes "), std::string::npos) << one;
  EXPECT_EQ(one.find("info depth 2 "), std::string::npos) << one;
  EXPECT_EQ(one.find(" score mate "), std::string::npos) << one;
  const std::string five = uai.go("go mate 5");  // stops at the win it proves at depth 3
  EXPECT_NE(five.find("info depth 3 nodes "), std::string::npos) << five;
  EXPECT_NE(five.find(" score mate 2 "), std::string::npos) << five;
  EXPECT_EQ(five.find("info depth 4 "), std::string::npos) << five;
}

// A model's tree does the same with its solver: `go mate N` searches until the win is proven (it
// had kept to the spec's visits), which reads as `score mate N`, the proof as its line.
TEST(Uai, GoMateSearchesATreeUntilItsSolverProvesTheWin) {
  UaiSession uai;
  load_random_model(uai, "uai_go_mate.net");
  const std::string fen = "7/1x3o1/3o3/7/7/7/6x x 0 1";  // x wins in 2 moves, as above
  uai.send("position fen " + fen);
  const std::string out = uai.go("go mate 2");
  const std::size_t last = out.rfind("info depth ");
  ASSERT_NE(last, std::string::npos) << out;
  const std::string info = out.substr(last, out.find('\n', last) - last);
  EXPECT_NE(info.find("info depth 3 "), std::string::npos) << out;
  EXPECT_NE(info.find(" score mate 2 "), std::string::npos) << out;
  Game game(Position::from_fen(fen));
  for (const std::string& move : split_words(info.substr(info.find(" pv ") + 4))) game.play(move);
  EXPECT_EQ(game.outcome().result, Result::kXWins) << out;
}

TEST(Uai, PonderIsAnOptionOfTrueOrFalse) {
  UaiSession uai;
  EXPECT_EQ(uai.send("setoption name Ponder value true"), "");
  EXPECT_EQ(uai.send("setoption name Ponder value false"), "");
  EXPECT_NE(uai.send("setoption name Ponder value maybe").find("info string error: Ponder 'maybe'"), std::string::npos);
}

// searchmoves: before, every move was searched (and before that the go line was refused).
// The `wdl W D L` of a go's last info line, in thousandths.
std::array<int, 3> reported_wdl(const std::string& output) {
  const auto last_info = output.rfind("info depth");
  std::istringstream words(output.substr(output.find(" wdl ", last_info) + 5));
  std::array<int, 3> wdl{};
  words >> wdl[0] >> wdl[1] >> wdl[2];
  return wdl;
}

// lc0's UCI_ShowWDL: off by default; on, a search's info lines say its win/draw/loss chances after
// the score, and the tree is kept (a display option).
TEST(Uai, ShowWdlAddsTheSearchsWinDrawAndLossAfterTheScore) {
  UaiSession uai;
  uai.send("setoption name Player value mcts");
  uai.send("position fen xxxx3/xxx4/7/7/7/7/6o x 0 1");  // x leads by six men
  EXPECT_EQ(uai.go("go nodes 300").find(" wdl "), std::string::npos) << "off by default";
  EXPECT_EQ(uai.send("setoption name UCI_ShowWDL value true"), "");
  const std::string out = uai.go("go nodes 1");
  EXPECT_EQ(reported_nodes(out), 300) << "the option keeps the tree: " << out;
  EXPECT_LT(out.find(" score cp ", out.rfind("info depth")), out.find(" wdl ", out.rfind("info depth"))) << out;
  const auto [win, draw, loss] = reported_wdl(out);
  EXPECT_EQ(win + draw + loss, 1000) << out;
  EXPECT_GT(win, 500) << out;
  EXPECT_GT(draw, 0) << out;  // the material evaluator's draw share
  EXPECT_LT(loss, win) << out;
  EXPECT_NE(uai.send("setoption name UCI_ShowWDL value maybe").find("info string error: UCI_ShowWDL 'maybe'"),
            std::string::npos);
  EXPECT_EQ(uai.send("setoption name UCI_ShowWDL value false"), "");
  EXPECT_EQ(uai.go("go nodes 1").find(" wdl "), std::string::npos);
}

// The info lines a go's answer ends with: from its last `multipv 1` line to the bestmove.
std::vector<std::string> final_multipv_lines(const std::string& output) {
  std::istringstream lines(output.substr(output.rfind(" multipv 1 ") == std::string::npos
                                             ? output.size()
                                             : output.rfind("info depth", output.rfind(" multipv 1 "))));
  std::vector<std::string> block;
  for (std::string line; std::getline(lines, line) && line.starts_with("info depth");) block.push_back(line);
  return block;
}

// MultiPV (lc0's, Stockfish's): a line for each of that many moves searched, the move to be played
// first, each with its own pv (its move first), depth and score; only moves with visits (alpha-beta:
// a line searched for each); 1 (the default) gives the one line, without `multipv`. A display
// option: the tree is kept.
TEST(Uai, MultiPvGivesALineForEachOfTheBestMoves) {
  UaiSession uai;
  uai.send("setoption name Player value mcts");
  uai.send("position startpos");
  const std::string single = uai.go("go nodes 400");
  EXPECT_EQ(single.find(" multipv "), std::string::npos) << single;
  EXPECT_EQ(uai.send("setoption name MultiPV value 3"), "");
  EXPECT_EQ(uai.send("setoption name UCI_ShowWDL value true"), "");
  const std::string out = uai.go("go nodes 1");
  EXPECT_EQ(reported_nodes(out), 400) << "the option keeps the tree";
  const std::vector<std::string> lines = final_multipv_lines(out);
  ASSERT_EQ(lines.size(), 3U) << out;
  std::set<std::string> first_moves;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NE(lines[i].find(" multipv " + std::to_string(i + 1) + " "), std::string::npos) << lines[i];
    const std::vector<std::string> pv = reported_pv(lines[i]);
    ASSERT_FALSE(pv.empty()) << lines[i];
    EXPECT_EQ(reported(lines[i], "info depth "), static_cast<int>(pv.size())) << lines[i];
    EXPECT_TRUE(Position::startpos().is_legal(parse_move(pv[0], board_7x7()))) << lines[i];
    const auto [win, draw, loss] = reported_wdl(lines[i]);
    EXPECT_EQ(win + draw + loss, 1000) << lines[i];
    first_moves.insert(pv[0]);
  }
  EXPECT_EQ(first_moves.size(), 3U) << "a line for each of three moves: " << out;
  EXPECT_EQ(reported_pv(lines[0])[0], UaiSession::bestmove(out)) << "multipv 1 is the move played";
  EXPECT_EQ(uai.send("setoption name MultiPV value 500"), "");
  uai.send("uainewgame");
  uai.send("position startpos");
  EXPECT_LE(final_multipv_lines(uai.go("go nodes 4")).size(), 4U) << "only moves with visits";
  uai.send("setoption name Player value alphabeta");
  const std::string alphabeta = uai.go("go depth 2");
  EXPECT_EQ(alphabeta.find("\n\n"), std::string::npos) << alphabeta;
  const std::vector<std::string> scored = final_multipv_lines(alphabeta);
  ASSERT_EQ(scored.size(), 16U) << "alpha-beta: a line for each of the start's 16 moves: " << alphabeta;
  EXPECT_EQ(reported_pv(scored[0])[0], UaiSession::bestmove(alphabeta));
  first_moves.clear();
  for (std::size_t i = 0; i < scored.size(); ++i) {
    EXPECT_EQ(reported(scored[i], "info depth "), 2) << scored[i];
    if (i > 0) {
      EXPECT_LE(reported(scored[i], " score cp "), reported(scored[i - 1], " score cp ")) << "best first";
    }
    first_moves.insert(reported_pv(scored[i])[0]);
  }
  EXPECT_EQ(first_moves.size(), 16U) << alphabeta;
  uai.send("setoption name MultiPV value 1");
  const std::string one = uai.go("go depth 2");
  EXPECT_EQ(one.find(" multipv "), std::string::npos) << one;
  EXPECT_EQ(reported(one, "info depth "), 2) << one;
}

// The lines of lc0's VerboseMoveStats in an output: `info string MOVE N: ...`, the root's last.
std::vector<std::string> move_stats_lines(const std::string& output) {
  std::istringstream lines(output);
  std::vector<std::string> stats;
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("info string ") && line.find(" N: ") != std::string::npos) stats.push_back(line);
  return stats;
}

// lc0's VerboseMoveStats: off by default; on, before bestmove, a line for each root move, fewest
// visits first, then the root's own, each with its visits, prior, the search's win - loss, draw,
// mean value, exploration bonus, the network's win - loss and the expected final lead in men. A
// display option: the tree is kept.
TEST(Uai, VerboseMoveStatsGivesEachRootMovesStatisticsBeforeBestmove) {
  UaiSession uai;
  uai.send("setoption name Player value mcts:cpuct=2");
  const std::string fen = "xxxx3/xxx4/7/7/7/7/5xo x 0 1";  // g2 or f2 takes o's last man: x wins by 10 men
  uai.send("position fen " + fen);
  EXPECT_TRUE(move_stats_lines(uai.go("go nodes 300")).empty()) << "off by default";
  EXPECT_EQ(uai.send("setoption name VerboseMoveStats value true"), "");
  const std::string out = uai.go("go nodes 1");
  EXPECT_EQ(reported_nodes(out), 300) << "the option keeps the tree";
  const std::vector<std::string> lines = move_stats_lines(out);
  MoveList legal;
  Position::from_fen(fen).generate_moves(legal);
  ASSERT_EQ(lines.size(), legal.size() + 1) << out;
  EXPECT_LT(out.rfind(lines.back()), out.find("bestmove")) << out;
  EXPECT_TRUE(lines.back().starts_with("info string node  N:      300 ")) << lines.back();
  EXPECT_NE(lines.back().find("(U: -)"), std::string::npos) << "the root has no bonus: " << lines.back();
  int visits = 0, previous = 0;
  double priors = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const int n = std::stoi(lines[i].substr(lines[i].find(" N: ") + 4));
    EXPECT_GE(n, previous) << "fewest visits first: " << out;
    previous = n;
    visits += n;
    const double prior = std::stod(lines[i].substr(lines[i].find("(P: ") + 4)) / 100;
    priors += prior * 100;
    const double u = std::stod(lines[i].substr(lines[i].find("(U: ") + 4));
    EXPECT_NEAR(u, 2 * prior * std::sqrt(300.0) / (1 + n), 0.002) << "c_puct P sqrt(N) / (1 + n): " << lines[i];
    if (n == 0) {
      EXPECT_NE(lines[i].find("(WL: -) (D: -) (Q: -)"), std::string::npos) << lines[i];
    }
  }
  EXPECT_EQ(visits, 299) << "every visit but the root's first is a move's";
  EXPECT_NEAR(priors, 100.0, 0.5);
  const auto win =
      std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("info string g2 "); });
  ASSERT_NE(win, lines.end()) << out;
  EXPECT_NE(win->find("(WL: +1.00000) (D: 0.000)"), std::string::npos) << *win;
  EXPECT_NE(win->find("(L: +10.0)"), std::string::npos) << *win;
  EXPECT_NE(uai.send("setoption name VerboseMoveStats value 1").find("info string error: VerboseMoveStats '1'"),
            std::string::npos);
  uai.send("setoption name Player value alphabeta");
  const std::string alphabeta = uai.go("go depth 2");
  EXPECT_TRUE(move_stats_lines(alphabeta).empty()) << "none for a search without candidates: " << alphabeta;
  EXPECT_EQ(alphabeta.find("error"), std::string::npos) << alphabeta;
  uai.send("setoption name Player value mcts");
  EXPECT_EQ(uai.send("setoption name VerboseMoveStats value false"), "");
  EXPECT_TRUE(move_stats_lines(uai.go("go nodes 50")).empty());
}

TEST(Uai, SearchmovesRestrictsTheMovesSearchedAndSaysWhichItLeavesOut) {
  for (const char* player : {"mcts:visits=5000", "alphabeta:depth=3"}) {
    UaiSession uai;
    uai.send(std::string("setoption name Player value ") + player);
    uai.send("position startpos");
    // a1 holds an o, z9 is off the board: both left out, and the rest of the line applies.
    const std::string out = uai.go("go searchmoves a7c5 z9 a1 g1e3 nodes 200");
    EXPECT_NE(out.find("info string searchmoves: 'z9' is not a legal move here"), std::string::npos) << out;
    EXPECT_NE(out.find("info string searchmoves: 'a1' is not a legal move here"), std::string::npos) << out;
    const std::string best = UaiSession::bestmove(out);
    EXPECT_TRUE(best == "a7c5" || best == "g1e3") << player << ": " << out;
  }
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=5000");
  uai.send("position startpos");
  const std::string out = uai.go("go searchmoves a1 nodes 40");
  EXPECT_NE(out.find("info string searchmoves names no legal move: every move is searched"), std::string::npos) << out;
  EXPECT_NE(out.find(" nodes 40 "), std::string::npos) << out;
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
}

// On a kept tree the root's mean holds every move's visits of the search before: a searchmoves
// search reported b6's score for g1e3. Now the score is the move's own (its Q, lc0's mapping).
TEST(Uai, ASearchmovesScoreIsThatOfTheMovePlayed) {
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=100000000");
  uai.send("setoption name VerboseMoveStats value true");
  uai.send("position startpos");
  uai.go("go nodes 2000");
  const std::string out = uai.go("go nodes 2100 searchmoves g1e3");
  EXPECT_EQ(UaiSession::bestmove(out), "g1e3") << out;
  const auto q_at = out.find("(Q: ", out.find("info string g1e3 "));
  ASSERT_NE(q_at, std::string::npos) << out;
  const double q = std::stod(out.substr(q_at + 4));
  EXPECT_NEAR(reported(out, " score cp "), 111.714640912 * std::tan(1.5620688421 * q), 1.0) << out;
}

// UCI: an unknown token is skipped and the rest of the line read. Before, an unknown word took
// the next one for its value: `nodes` was "not an integer" and the go was refused.
TEST(Uai, UnknownWordsOfAGoLineAreSkipped) {
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=5000");
  uai.send("position startpos");
  const std::string out = uai.go("go frobnicate nodes 40 sideways");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_NE(out.find("info string go: skipped 'frobnicate' 'sideways', not go's words\n"), std::string::npos) << out;
  EXPECT_NE(out.find(" nodes 40 "), std::string::npos) << out;
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
}

// Values past a spin option's bounds had been clamped without a word.
TEST(Uai, SpinValuesPastTheirBoundsAreRefusedAndTheOptionKept) {
  UaiSession uai;
  for (const char* bad : {"MultiPV value 0", "Hash value -1", "Threads value 65", "UCI_Elo value 99999",
                          "MoveOverhead value -1", "Visits value 0", "BatchSize value 0", "CacheSize value -1"}) {
    const std::string out = uai.send(std::string("setoption name ") + bad);
    EXPECT_EQ(out.rfind("info string error: ", 0), 0U) << bad << ": " << out;
    EXPECT_NE(out.find("is not a whole number from "), std::string::npos) << out;
  }
  uai.send("setoption name Player value mcts:visits=200");
  uai.send("setoption name MultiPV value 2");
  uai.send("setoption name MultiPV value 501");
  uai.send("position startpos");
  EXPECT_NE(uai.go("go nodes 200").find(" multipv 2 "), std::string::npos) << "MultiPV 2 kept";
}

// A device the program cannot run had been taken, and every go then answered its first legal move
// unsearched.
TEST(Uai, ADeviceItCannotRunIsRefusedWhenSet) {
  UaiSession uai;
  EXPECT_EQ(uai.send("setoption name Device value banana"),
            "info string error: unknown device 'banana' (expected cpu, cuda or cuda:N)\n");
  uai.send("setoption name Player value mcts:visits=50");
  uai.send("position startpos");
  const std::string out = uai.go("go");
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_NE(out.find(" nodes 50 "), std::string::npos) << out;
}

// A player that does not search had sent `info depth 0 nodes 0 ... score cp 0 ... pv`.
TEST(Uai, APlayerThatDoesNotSearchSendsNoInfoLine) {
  UaiSession uai;
  uai.send("setoption name Player value random");
  uai.send("position startpos");
  const std::string out = uai.go("go nodes 5");
  EXPECT_EQ(out.find("info "), std::string::npos) << out;
  EXPECT_TRUE(answers_legally_from_start(out)) << out;
}

// `go depth N` bounds a tree search: it stops once the line its info lines give is N moves long
// (it had kept to Visits, and said so); within Visits.
TEST(Uai, GoDepthStopsATreeSearchAtThatDepth) {
  UaiSession uai;
  const std::string model = temp_path("go-depth.net");
  write_random_play_file(model, {1, 8}, 3);
  uai.send("setoption name Model value " + model);
  uai.send("setoption name Visits value 20000");
  uai.send("position startpos");
  const std::string out = uai.go("go depth 3");
  EXPECT_GE(reported(out, "info depth "), 3) << out;
  EXPECT_LT(reported_nodes(out), 20000) << "the search kept to Visits: " << out;
  // The line after a move searchmoves allows, by the search's own visits: the kept tree's line
  // through another move had stopped it at once, unsearched, its pv one move long.
  const std::string restricted = uai.go("go depth 3 searchmoves a7a5");
  EXPECT_EQ(UaiSession::bestmove(restricted), "a7a5") << restricted;
  EXPECT_GE(reported(restricted, "info depth "), 3) << restricted;
  EXPECT_GT(reported_nodes(restricted), reported_nodes(out)) << restricted;
  uai.send("setoption name Visits value 40");
  uai.send("uainewgame");
  const std::string deep = uai.go("go depth 30");
  EXPECT_EQ(reported_nodes(deep), 40) << "Visits bounds a depth not reached: " << deep;
}

// `isready` had been answered at once whenever a go was queued, ahead of the commands before it
// (even ahead of `uai`'s lines): now only mid-search.
TEST(Uai, IsReadyIsAnsweredAfterTheCommandsBeforeItButNotAfterAQueuedSearch) {
  std::ostringstream out;
  UaiEngine engine(out);
  const std::string model = temp_path("isready.net");
  write_random_play_file(model, {2, 16}, 3);
  for (const std::string& line :
       std::vector<std::string>{"uai", "setoption name Model value " + model, "setoption name Hash value abc",
                                "position startpos", "go nodes 50", "isready"})
    engine.handle(line);
  engine.wait_until_idle();
  const std::string said = out.str();
  const auto ready = said.find("readyok");
  ASSERT_NE(ready, std::string::npos) << said;
  EXPECT_LT(said.find("uaiok"), ready) << said;
  EXPECT_LT(said.find("info string error: Hash 'abc'"), ready) << said;
  EXPECT_GT(said.find("bestmove"), ready) << "readyok does not wait for the search queued before it: " << said;
}

// A search's depth as its player counts it: alpha-beta's iterations, not its pv's one move; a tree
// search's seldepth (its deepest leaf) beside it, at least its depth.
TEST(Uai, InfoDepthIsThePlayersDepth) {
  UaiSession uai;
  uai.send("position startpos");
  const std::string alphabeta = uai.go("go depth 3");
  EXPECT_EQ(reported(alphabeta, "info depth "), 3);
  EXPECT_EQ(alphabeta.find(" seldepth "), std::string::npos) << alphabeta;
  uai.send("setoption name Player value mcts");
  const std::string mcts = uai.go("go nodes 2000");
  EXPECT_GT(reported(mcts, " seldepth "), reported(mcts, "info depth ")) << mcts;
}

TEST(Uai, SetOptionChangesThePlayer) {
  UaiSession uai;
  EXPECT_EQ(uai.send("setoption name Player value mcts:visits=50"), "");
  uai.send("position startpos");
  const std::string out = uai.go("go");  // without a limit of the go line's the spec's visits apply
  EXPECT_NE(out.find("nodes 50 "), std::string::npos) << out;
}

// Before, every `position` command started a new tree, and the engine re-rooted its tree after
// its move, before answering, at a cost of up to 30 ms.
TEST(Uai, KeepsItsTreeWhileThePositionsContinueTheGame) {
  UaiSession uai;
  uai.send("setoption name Player value mcts");
  uai.send("position startpos");
  const std::string first = uai.go("go nodes 400");
  const std::vector<std::string> pv = reported_pv(first);
  ASSERT_GE(pv.size(), 2U) << first;
  const std::string continued = "position startpos moves " + pv[0] + " " + pv[1];
  // go nodes 1: a kept tree has its visits already and stops at once; a new one makes one.
  uai.send(continued);
  EXPECT_GT(reported_nodes(uai.go("go nodes 1")), 1) << "the subtree of the game's two moves is kept";
  uai.send("uainewgame");
  uai.send(continued);
  EXPECT_EQ(reported_nodes(uai.go("go nodes 1")), 1) << "uainewgame starts a new tree";
  uai.go("go nodes 400");
  uai.send("position startpos moves " + pv[0]);
  EXPECT_EQ(reported_nodes(uai.go("go nodes 1")), 1) << "a position the tree has passed starts a new one";
}

// Hash (UCI's memory option) bounds a model's tree: its search stops where the tree reaches it.
TEST(Uai, HashBoundsTheSearchTree) {
  UaiSession uai;
  load_random_model(uai, "hash.net");
  uai.send("position startpos");
  const std::string unbounded = uai.go("go nodes 10000");
  EXPECT_EQ(reported_nodes(unbounded), 10000);
  EXPECT_LT(reported(unbounded, " hashfull "), 10);  // about 5 MiB of 1,024
  EXPECT_EQ(uai.send("setoption name Hash value 1"), "");
  uai.send("position startpos");
  const std::string bounded = uai.go("go nodes 10000");
  EXPECT_LT(reported_nodes(bounded), 10000);  // 10,000 nodes of about 40 edges of 12 bytes: about 5 MiB
  EXPECT_GT(reported_nodes(bounded), 100);
  EXPECT_GE(reported(bounded, " hashfull "), 700);
}

TEST(Uai, MctsReportsWhileSearching) {
  UaiSession uai;
  uai.send("setoption name Player value mcts");
  uai.send("position startpos");
  const std::string out = uai.go("go movetime 1800");
  int info_lines = 0;
  for (std::size_t at = out.find("info depth"); at != std::string::npos; at = out.find("info depth", at + 1)) ++info_lines;
  EXPECT_GE(info_lines, 3) << out;  // interim reports at 0.5, 1.0 and 1.5 s, and the final one
}

TEST(Uai, AGoWithoutAUsableLimitUsesThePlayersOwnBudget) {
  UaiSession uai;
  uai.send("setoption name Player value mcts:visits=60");
  uai.send("position startpos");
  // x is to move: only o's clock (wtime) is no limit for x; neither is a bare go.
  for (const char* go : {"go", "go wtime 1000 winc 10"}) {
    const std::string out = uai.go(go);
    EXPECT_NE(out.find(" nodes 60 "), std::string::npos) << go << ": " << out;
  }
}

// Schataxx's first mover is White, as in chess (Ataxx's, x, is UAI's Black): wtime is its clock.
TEST(Uai, SchataxxsFirstMoverTakesWhitesClock) {
  UaiSession uai;
  uai.send("setoption name UCI_Variant value schataxx");
  uai.send("setoption name Player value mcts:visits=60");
  uai.send("position startpos");
  EXPECT_EQ(reported_nodes(uai.go("go btime 1000 binc 10")), 60) << "Black's clock is no limit for White";
  uai.send("position startpos");
  EXPECT_GT(reported_nodes(uai.go("go wtime 5000 winc 100")), 60) << "White's clock replaces the budget";
}

// The real binary over pipes, with generous deadlines: an engine that stops reading fails them.
class UaiProcess {
 public:
  explicit UaiProcess(const std::string& arguments = "")
      : engine_(std::string(ATAXX_ZERO_BINARY) + " uai" + (arguments.empty() ? "" : " " + arguments)) {}
  void send(const std::string& line) { engine_.send(line); }
  std::string expect(const std::string& prefix) { return engine_.expect(prefix, 20'000); }
  // The lines up to the first that starts with prefix, that one last.
  std::vector<std::string> lines_through(const std::string& prefix) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::vector<std::string> lines{engine_.read_line(deadline)};
    while (!lines.back().starts_with(prefix)) lines.push_back(engine_.read_line(deadline));
    return lines;
  }

 private:
  EngineProcess engine_;
};

TEST(UaiProcess, KeepsReadingWhileAnInfiniteSearchRuns) {
  UaiProcess uai;
  uai.send("position startpos");
  uai.send("go infinite");
  for (const char* line : {"position startpos moves g2", "setoption name Player value greedy", "uainewgame"})
    uai.send(line);
  uai.send("isready");
  uai.expect("readyok");  // at once, the search still running
  uai.send("stop");
  EXPECT_TRUE(Position::startpos().is_legal(parse_move(UaiSession::bestmove(uai.expect("bestmove")), board_7x7())));
  // The commands sent during the search took effect after it, in order.
  uai.send("position startpos moves g2");
  uai.send("go depth 1");
  Game game;
  game.play("g2");
  const std::string answer = uai.expect("bestmove");
  EXPECT_TRUE(game.position().is_legal(parse_move(UaiSession::bestmove(answer), board_7x7()))) << answer;
  uai.send("quit");
}

// Before, a search that ended on its own (alpha-beta, through every depth at once with one move
// left to play) answered `go infinite` at once; UAI answers it only when stopped.
TEST(UaiProcess, GoInfiniteAnswersOnlyWhenStoppedThoughTheSearchEndedBefore) {
  UaiProcess uai("--player alphabeta");
  const std::string fen = "ooooooo/ooooooo/ooooooo/ooooooo/xxxxxxx/xxxxxxx/xxxxxx1 x 0 1";
  uai.send("position fen " + fen);
  uai.send("go infinite");
  uai.expect("info depth");  // the search runs; a few milliseconds end it
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  uai.send("isready");
  for (const std::string& line : uai.lines_through("readyok")) EXPECT_FALSE(line.starts_with("bestmove")) << line;
  uai.send("stop");
  const std::string answer = uai.expect("bestmove");
  EXPECT_TRUE(Position::from_fen(fen).is_legal(parse_move(UaiSession::bestmove(answer), board_7x7()))) << answer;
  uai.send("isready");
  uai.expect("readyok");
}

// Sends `position`, then `go`, and expects no bestmove before `end` (stop or ponderhit), then
// bestmove 0000: a search with nothing to search answers only when a GUI expects it.
void expect_bestmove_0000_only_at(const std::string& position, const std::string& go, const std::string& end) {
  UaiProcess uai("--player alphabeta");
  uai.send(position);
  uai.send(go);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  uai.send("isready");
  for (const std::string& line : uai.lines_through("readyok")) EXPECT_FALSE(line.starts_with("bestmove")) << line;
  uai.send(end);
  EXPECT_EQ(uai.expect("bestmove"), "bestmove 0000");
  uai.send("isready");
  uai.expect("readyok");
}

// A go ponder with nothing to search (the game over) is answered at its ponderhit, not at once: a
// GUI that ponders reads the bestmove after the ponderhit as the answer to the next move.
TEST(UaiProcess, GoPonderWithNothingToSearchAnswersOnlyAtPonderhit) {
  expect_bestmove_0000_only_at("position fen ooooooo/ooooooo/ooooooo/ooooooo/xxxxxxx/xxxxxxx/xxxxxxx x 0 1",
                               "go ponder", "ponderhit");
}

// After a refused position, a go infinite had been answered at once, before its stop.
TEST(UaiProcess, AGoInfiniteAfterARefusedPositionAnswersOnlyAtStop) {
  expect_bestmove_0000_only_at("position startpos moves zz", "go infinite", "stop");
}

TEST(UaiProcess, StopBeforeTheSearchStartsStillStopsIt) {
  UaiProcess uai;
  uai.send("position startpos\ngo infinite\nstop");
  EXPECT_TRUE(Position::startpos().is_legal(parse_move(UaiSession::bestmove(uai.expect("bestmove")), board_7x7())));
  uai.send("isready");
  uai.expect("readyok");
}

// Scripts and test harnesses write every line at once: before, `quit` dropped the ones before it.
TEST(UaiProcess, QuitRunsTheCommandsReceivedBeforeIt) {
  {
    UaiProcess uai;
    uai.send("uai\nisready\nquit");
    uai.expect("uaiok");
    uai.expect("readyok");
  }
  UaiProcess uai;
  uai.send("position startpos\ngo movetime 300\nquit");  // the search stops at the quit, and answers
  EXPECT_TRUE(Position::startpos().is_legal(parse_move(UaiSession::bestmove(uai.expect("bestmove")), board_7x7())));
}

TEST(Uai, APlayerOptionCannotStartAProgramUnlessAllowed) {
  const auto marker = std::filesystem::temp_directory_path() / ("uai-option-ran-" + std::to_string(::getpid()));
  std::filesystem::remove(marker);
  UaiSession uai;
  const std::string out = uai.send("setoption name player value uai:cmd=touch " + marker.string());
  EXPECT_NE(out.find("info string error: Player: external engines (uai:...) are refused over UAI"), std::string::npos)
      << out;
  EXPECT_FALSE(std::filesystem::exists(marker));
  uai.send("position startpos");
  EXPECT_TRUE(answers_legally_from_start(uai.go("go depth 1")));

  std::ostringstream trusted_out;
  UaiEngine trusted(trusted_out, true);
  trusted.handle("setoption name Player value uai:cmd=" + std::string(ATAXX_ZERO_BINARY) + " uai --player greedy");
  trusted.wait_until_idle();
  EXPECT_EQ(trusted_out.str().find("error"), std::string::npos) << trusted_out.str();
}

TEST(EngineProcess, StartsTheProgramWithoutAShell) {
  // A shell would expand the variable and run the second command.
  const auto marker = std::filesystem::temp_directory_path() / ("engine-shell-ran-" + std::to_string(::getpid()));
  EngineProcess echo("echo uaiok $HOME ; touch " + marker.string());
  EXPECT_EQ(echo.expect("uaiok", 5'000), "uaiok $HOME ; touch " + marker.string());
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_THROW(EngineProcess("   "), std::runtime_error);
}

// The lines of a file, as a scripted engine logged what it was sent.
std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

MatchConfig engine_match(const std::string& engine, int games) {
  MatchConfig c;
  c.player1 = engine;
  c.player2 = "random";
  c.games = games;
  c.openings = default_openings();
  return c;
}

TEST(UaiPlayer, OurBinaryThroughPipesPlaysWholeGames) {
  const std::string engine = std::string("uai:cmd=") + ATAXX_ZERO_BINARY + " uai --player greedy,movetime=10";
  const MatchResult result = run_match(engine_match(engine, 4));
  ASSERT_EQ(result.games.size(), 4U);
  for (const GameRecord& game : result.games) EXPECT_EQ(game.failure, "") << game.failure;
  EXPECT_EQ(result.score.wins, 4);  // greedy beats random
}

// A timed match tells the engine both clocks in UAI's words (x is btime), its own as it runs down.
TEST(UaiPlayer, SendsTheMatchClocks) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-clock-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string log = (dir / "go.log").string();
  std::ofstream(dir / "engine.sh") << "while read -r line; do case \"$line\" in\n"
                                      "  uai) echo uaiok;; isready) echo readyok;;\n"
                                      "  go*) echo \"$line\" >> " << log << "; echo bestmove 0000;;\n"
                                      "esac; done\n";
  MatchConfig c = engine_match("uai:cmd=sh " + (dir / "engine.sh").string(), 2);
  c.player2 = "greedy";
  c.time_control = parse_time_control("3+0.25");
  const MatchResult result = run_match(c);
  const std::vector<std::string> lines = lines_of(log);
  std::filesystem::remove_all(dir);
  // The engine answers a pass it may not play, so each game ends at its first move: as x, then
  // as o after greedy's move, whose few milliseconds came off x's 3,000 before the increment.
  EXPECT_EQ(result.score.losses, 2);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0], "go btime 3000 wtime 3000 binc 250 winc 250");
  EXPECT_TRUE(lines[1].starts_with("go btime 32")) << lines[1];
  EXPECT_TRUE(lines[1].ends_with(" wtime 3000 binc 250 winc 250")) << lines[1];
}

// With ponder=1 the engine thinks on its opponent's time: after each bestmove, a go ponder on the
// reply it named, on its clock as it will be; then ponderhit where that reply came, else stop.
TEST(UaiPlayer, PondersOnTheReplyItExpectsAndIsToldWhetherItCame) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-ponder-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string log = (dir / "sent.log").string();
  std::ofstream(dir / "engine.sh") << "tee -a " << log << " | exec " << ATAXX_ZERO_BINARY << " uai --player alphabeta\n";
  MatchConfig c = engine_match("uai:cmd=sh " + (dir / "engine.sh").string() + ",ponder=1", 2);
  c.player2 = "greedy";
  c.time_control = parse_time_control("2+0.02");
  const MatchResult result = run_match(c);
  const std::vector<std::string> lines = lines_of(log);
  std::filesystem::remove_all(dir);
  for (const GameRecord& game : result.games) EXPECT_EQ(game.failure, "") << game.failure;
  int ponders = 0, hits = 0, stops = 0;
  bool pondering = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("go ponder")) {
      ++ponders;
      pondering = true;
      const std::vector<std::string> go = split_words(lines[i]);
      ASSERT_GE(go.size(), 6U) << lines[i];
      EXPECT_EQ(go[2], "btime");
      EXPECT_LE(std::stoi(go[3]) + std::stoi(go[5]), 2 * 2000 + 2 * 20) << "clocks run down: " << lines[i];
      ASSERT_GT(i, 0U);
      EXPECT_TRUE(lines[i - 1].starts_with("position fen ")) << "the position after the reply";
    }
    if (lines[i] == "ponderhit" || lines[i] == "stop") pondering = false;
    EXPECT_FALSE(pondering && lines[i].starts_with("position")) << "a pondering neither hit nor stopped, line " << i;
    hits += lines[i] == "ponderhit";
    stops += lines[i] == "stop";
  }
  EXPECT_NE(std::find(lines.begin(), lines.end(), "setoption name Ponder value true"), lines.end());
  EXPECT_GT(ponders, 10);
  EXPECT_GT(hits, 0) << "greedy played the reply alpha-beta expected at least once";
  EXPECT_GE(hits + stops, ponders - 1) << "each pondering ends (the last one at quit)";
}

// Schataxx through the same player: the engine told the variant (UCI_Variant, where the FEN cannot
// say it), White's clock as wtime (White moves first, as in chess), and its moves read as Schataxx's.
TEST(UaiPlayer, TellsASchataxxEngineItsVariantAndWhitesClock) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-schataxx-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string log = (dir / "sent.log").string();
  std::ofstream(dir / "engine.sh") << "while read -r line; do case \"$line\" in\n"
                                      "  uai) echo uaiok;; isready) echo readyok;;\n"
                                      "  setoption*) echo \"$line\" >> "
                                   << log
                                   << ";;\n"
                                      "  go*) echo \"$line\" >> "
                                   << log
                                   << "; echo bestmove P@b2;;\n"
                                      "esac; done\n";
  BasicMatchConfig<SchataxxGame> c;
  c.player1 = "uai:cmd=sh " + (dir / "engine.sh").string();
  c.player2 = "greedy";
  c.games = 1;
  c.openings = {schataxx::Position::startpos(schataxx::Variant::kBalanced)};
  c.time_control = parse_time_control("3+0.25");
  const BasicMatchResult<SchataxxGame> result = run_match(c);
  const std::vector<std::string> lines = lines_of(log);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(result.games.size(), 1U);
  ASSERT_GE(result.games[0].moves.size(), 1U);
  EXPECT_EQ(schataxx::to_string(result.games[0].moves[0]), "P@b2");  // legal: next to White's king on a1
  EXPECT_TRUE(result.games[0].failure.starts_with("White played the illegal move P@b2")) << result.games[0].failure;
  ASSERT_GE(lines.size(), 2U);
  EXPECT_EQ(lines[0], "setoption name UCI_Variant value schataxx-balanced");
  EXPECT_EQ(lines[1], "go wtime 3000 btime 3000 winc 250 binc 250");
  EXPECT_EQ(std::count(lines.begin(), lines.end(), lines[0]), 1);  // once, not before every move
}

// Our own engine plays whole Schataxx games through pipes, from a match with --variant.
TEST(UaiPlayer, OurBinaryPlaysWholeSchataxxGames) {
  BasicMatchConfig<SchataxxGame> c;
  c.player1 = std::string("uai:cmd=") + ATAXX_ZERO_BINARY + " uai --player greedy,movetime=10";
  c.player2 = "random";
  c.games = 2;
  c.openings = {schataxx::Position::startpos()};
  const BasicMatchResult<SchataxxGame> result = run_match(c);
  ASSERT_EQ(result.games.size(), 2U);
  for (const auto& game : result.games) {
    EXPECT_EQ(game.failure, "") << game.failure;
    EXPECT_TRUE(game.outcome.is_over());
  }
}

// The engine's last info line with a score is the move's report: `score cp N`, `score mate N` or a
// bare `score N` (as some Ataxx engines send), its nodes, time and nps; lines without a score change nothing.
TEST(UaiPlayer, ReportsTheEnginesLastScoredInfoLine) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-info-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto report_of = [&](const std::string& name, const std::string& info_lines) {
    std::ofstream(dir / name) << "while read -r line; do case \"$line\" in\n"
                                 "  uai) echo uaiok;; isready) echo readyok;;\n"
                                 "  go*) "
                              << info_lines
                              << " echo bestmove g2;;\n"
                                 "esac; done\n";
    const std::unique_ptr<Player> player = make_player("uai:cmd=sh " + (dir / name).string());
    player->new_game(1);
    EXPECT_EQ(player->choose_move(Game()), parse_move("g2", board_7x7()));
    return player->last_report();
  };
  const MoveReport cp = report_of(
      "cp.sh",
      "echo 'info depth 3 nodes 120 score cp -37 pv g2 a2'; echo 'info depth 4 currmove g2'; echo 'info string done';");
  EXPECT_EQ(cp.depth, 3);
  EXPECT_EQ(cp.nodes, 120U);
  EXPECT_EQ(cp.score_cp, -37);
  EXPECT_FALSE(cp.mate);
  const MoveReport mate = report_of("mate.sh",
                                    "echo 'info depth 2 score cp 10'; echo 'info depth 5 score mate -2 nodes 300'; "
                                    "echo 'info depth 5 multipv 2 score cp -80 nodes 300';");
  EXPECT_EQ(mate.depth, 5);
  EXPECT_EQ(mate.nodes, 300U);
  EXPECT_EQ(mate.mate, -2);
  const MoveReport bare = report_of("bare.sh", "echo 'info depth 6 time 1 score 4 nodes 9000 nps 1 pv g2';");
  EXPECT_EQ(bare.depth, 6);
  EXPECT_EQ(bare.score_cp, 4);
  EXPECT_DOUBLE_EQ(bare.seconds, 0.001);
  EXPECT_DOUBLE_EQ(bare.nodes_per_second(), 1) << "the engine's own nps, not 9000 nodes over a millisecond";
  EXPECT_FALSE(cp.engine_nps) << "no nps said";
  EXPECT_EQ(report_of("silent.sh", "").nodes, 0U) << "no info: no search reported";
  std::filesystem::remove_all(dir);
}

// A match's PGN carries each move's comment as cutechess-cli writes it: the engine's score (in men
// of a hundred centipawns, or M and the moves to a forced win) and depth, and the move's time; a
// player that does not search only the time.
TEST(UaiPlayer, AMatchsPgnCommentsEachMoveWithTheEnginesScoreAndTime) {
  const std::string engine = std::string("uai:cmd=") + ATAXX_ZERO_BINARY + " uai --player alphabeta,movetime=5";
  const MatchResult result = run_match(engine_match(engine, 2));
  ASSERT_EQ(result.games.size(), 2U);
  for (const GameRecord& game : result.games) {
    ASSERT_EQ(game.failure, "");
    ASSERT_EQ(game.comments.size(), game.moves.size());
    const std::string pgn = to_pgn(game, "engine", "random", "test");
    const auto count = [&](const std::regex& comment) {
      return static_cast<std::size_t>(
          std::distance(std::sregex_iterator(pgn.begin(), pgn.end(), comment), std::sregex_iterator()));
    };
    const std::size_t scored = count(std::regex(R"(\{([+-]\d+\.\d\d|[+-]M\d+)/\d+ \d+\.\d{3}s\})"));
    const std::size_t timed_only = count(std::regex(R"(\{\d+\.\d{3}s\})"));
    EXPECT_EQ(scored + timed_only, game.moves.size()) << pgn;
    EXPECT_GT(scored, 0U) << pgn;
    EXPECT_GT(timed_only, 0U) << pgn;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
      // The openings start with x to move; a forced pass is answered without a search.
      const bool engine_searched = (i % 2 == 0) == game.player1_is_x && !game.moves[i].is_pass();
      EXPECT_EQ(game.comments[i].score_cp.has_value() || game.comments[i].mate.has_value(), engine_searched) << i;
      if (engine_searched) {
        EXPECT_GT(game.comments[i].depth, 0) << i;
      }
    }
  }
}

// An engine that cannot start a game (missing, exiting at once, never answering `uai`) is a
// setup error, as cutechess-cli takes it: the match ends before its first game, naming it. Before,
// each game was scored a loss for it and the match "succeeded".
TEST(UaiPlayer, AnEngineThatCannotStartEndsTheMatchBeforeItsFirstGame) {
  for (const std::string engine : {"uai:cmd=/bin/false", "uai:cmd=cat,timeout=200", "uai:cmd=/nonexistent/engine"}) {
    try {
      run_match(engine_match(engine, 2));
      ADD_FAILURE() << engine << " played a match";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(engine + " cannot play this match: "), std::string::npos) << e.what();
    }
  }
}

// An option value the engine refused was dropped without a word, and the match measured the engine
// without it: now the match ends before its first game.
TEST(UaiPlayer, AnOptionTheEngineRefusesEndsTheMatchBeforeItsFirstGame) {
  const std::string engine = std::string("uai:cmd=") + ATAXX_ZERO_BINARY + " uai --player greedy,movetime=10";
  const auto error_of = [&](const std::string& options) {
    try {
      run_match(engine_match(engine + "," + options, 2));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string refused = error_of("Hash=lots");
  EXPECT_NE(refused.find("cannot play this match: the engine refused its options: info string error: Hash"),
            std::string::npos)
      << refused;
  const std::string unknown = error_of("NoSuchOpt=1");  // this engine answers an option it lacks with an error
  EXPECT_NE(unknown.find("info string error: unknown option 'NoSuchOpt'"), std::string::npos) << unknown;
  EXPECT_EQ(error_of("hash=16"), "no error");
}

// An option goes under the engine's own spelling of its name (UCI's names ignore case, an engine's
// code may not); one it does not list is still sent, after a warning, as cutechess-cli does.
TEST(UaiPlayer, SendsOptionsUnderTheEnginesNamesAndWarnsOfUnlistedOnes) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-options-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script = (dir / "engine.sh").string(), log = (dir / "input.log").string();
  std::ofstream(script) << "#!/bin/sh\nwhile read line; do echo \"$line\" >> " << log
                        << "; case \"$line\" in\nuai) echo 'option name Hash type spin default 16 min 1 max 1024'; "
                           "echo uaiok;;\nisready) echo readyok;;\nquit) exit 0;;\nesac; done\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  testing::internal::CaptureStderr();
  make_player("uai:cmd=" + script + ",hash=32,Hidden=1,ponder=1")->new_game(1);
  const std::string warned = testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("Hidden is not among its options (Hash); sent as given"), std::string::npos) << warned;
  const std::string sent = read_whole_file(log);
  EXPECT_NE(sent.find("setoption name Hash value 32\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("setoption name Hidden value 1\n"), std::string::npos) << sent;
  EXPECT_EQ(sent.find("Ponder"), std::string::npos) << "an engine that does not offer Ponder is not sent it: " << sent;
  std::filesystem::remove_all(dir);
}

// A match stopped by a signal sends `stop` to the engine thinking (cutechess-cli's way), and does
// not wait out its move time: this engine answers only when stopped.
TEST(UaiPlayer, AMatchInterruptedInMidMoveStopsTheEngine) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-interrupt-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script = (dir / "engine.sh").string(), log = (dir / "input.log").string();
  std::ofstream(script)
      << "#!/bin/sh\nwhile read line; do echo \"$line\" >> " << log
      << "; case \"$line\" in\nuai) echo uaiok;;\nisready) echo readyok;;\n"
         "go*) echo 'info depth 1 score cp 0';;\nstop) echo 'bestmove a7b6';;\nquit) exit 0;;\nesac; done\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  std::atomic<bool> interrupt{false};
  MatchConfig c = engine_match("uai:cmd=" + script + ",movetime=1000,timeout=1000", 2);
  c.interrupt = &interrupt;
  std::thread signal([&] {  // once the engine thinks
    const auto thinks = [](const std::string& line) { return line.starts_with("go "); };
    while (std::ranges::none_of(lines_of(log), thinks)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    interrupt = true;
  });
  const MatchResult result = run_match(c);
  signal.join();
  const std::vector<std::string> sent = lines_of(log);
  std::filesystem::remove_all(dir);
  EXPECT_TRUE(result.stopped);
  EXPECT_TRUE(result.games.empty());
  const auto go = std::ranges::find_if(sent, [](const std::string& line) { return line.starts_with("go "); });
  ASSERT_NE(go, sent.end());
  ASSERT_NE(go + 1, sent.end());
  EXPECT_EQ(*(go + 1), "stop");  // without it the engine is left to time out, then told to quit
}

// Once the match is under way, a crash or silence in a game loses that game and the match goes on.
TEST(UaiPlayer, CrashesAndSilenceInAGameAreScoredLosses) {
  const auto dir = std::filesystem::temp_directory_path() / ("uai-crash-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const std::string at_go : {"exit 1", "sleep 1"}) {
    const std::string script = (dir / "engine.sh").string();
    std::ofstream(script) << "#!/bin/sh\nwhile read line; do case \"$line\" in\n"
                             "uai) echo 'id name flaky'; echo uaiok;;\nisready) echo readyok;;\ngo*) "
                          << at_go << ";;\nquit) exit 0;;\nesac; done\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    const MatchResult result = run_match(engine_match("uai:cmd=" + script + ",movetime=10,timeout=200", 2));
    ASSERT_EQ(result.games.size(), 2U) << at_go;
    EXPECT_EQ(result.score.losses, 2) << at_go;
    for (const GameRecord& game : result.games) EXPECT_NE(game.failure, "") << at_go;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ataxx
