// The play protocol of one tab, without a socket: what the page sends and what comes back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "nn/inference_server.h"
#include "server/game_view.h"
#include "server/play_session.h"

namespace ataxx::server {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// The messages a session sent, as the page receives them.
class Inbox {
 public:
  SendText sender() {
    return [this](std::string text) {
      std::lock_guard lock(mutex_);
      messages_.push_back(json::parse(text));
      arrived_.notify_all();
    };
  }
  // Waits for the next message of a type (skipping others), for at most `timeout`.
  json next(const std::string& type, std::chrono::seconds timeout = 30s) {
    std::unique_lock lock(mutex_);
    json found;
    arrived_.wait_for(lock, timeout, [&] {
      while (read_ < messages_.size()) {
        const json& message = messages_[read_++];
        if (message["type"] == type) {
          found = message;
          return true;
        }
      }
      return false;
    });
    return found;
  }
  json final_think(std::chrono::seconds timeout = 30s) {
    for (json think = next("think", timeout); !think.is_null(); think = next("think", timeout))
      if (think["final"]) return think;
    return nullptr;
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return messages_.size() - read_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json> messages_;
  std::size_t read_ = 0;
};

// A shelf of one random 7x7 net (1 block of 8 channels), in a folder of its own.
NetShelf shelf_of_a_random_7x7_net(const std::string& folder) {
  const std::string dir = testing::TempDir() + "/" + folder;
  std::filesystem::create_directories(dir);
  write_random_play_file(dir + "/seven.net", {1, 8}, 5);
  return NetShelf("", dir);
}

struct Table : testing::Test {
  Inbox inbox;
  PlaySession session{PlayOptions{}, inbox.sender()};  // no nets: alpha-beta plays
  json start = inbox.next("state");

  json answer(const json& message) {
    session.on_message(message.dump());
    return message.value("type", "") == "go" ? inbox.final_think() : inbox.next("state", 5s);
  }
  std::string error_for(std::string_view text) {
    session.on_message(text);
    const json error = inbox.next("error", 5s);
    return error.is_null() ? "" : error["message"].get<std::string>();
  }
};

TEST_F(Table, StartsOn7x7WithTheLegalMovesClonesAndJumpsToldApart) {
  EXPECT_EQ(start["game"], "ataxx");
  EXPECT_EQ(start["board"]["cells"].size(), 49U);
  EXPECT_EQ(start["fen"], "x5o/7/7/7/7/7/o5x x 0 1");
  EXPECT_EQ(start["moves"].size(), 16U);  // 6 clones (one destination each), 10 jumps
  int clones = 0, jumps = 0;
  for (const auto& move : start["moves"]) {
    for (const auto& way : move["ways"]) {
      (way["kind"] == "clone" ? clones : jumps) += 1;
      EXPECT_TRUE(way["from"].is_number());
    }
  }
  EXPECT_EQ(clones, 6);
  EXPECT_EQ(jumps, 10);
  EXPECT_EQ(start["engine"], "alphabeta: no net plays 7x7");
}

TEST_F(Table, PlaysALegalMoveAndMarksWhatItTurned) {
  for (const char* move : {"b6", "f6", "c6", "e6"}) answer({{"type", "move"}, {"move", move}});
  const json state = answer({{"type", "move"}, {"move", "d6"}});
  EXPECT_EQ(state["history"], json::array({"b6", "f6", "c6", "e6", "d6"}));
  EXPECT_EQ(state["last"]["move"], "d6");
  EXPECT_EQ(state["last"]["turned"], json::array({5 * 7 + 4}));  // e6, next to d6
  EXPECT_EQ(state["men"][std::to_string(5 * 7 + 4)], "x");
}

// The page learns the games from a session's first message: each game's title, whether it is
// played on boards, and its variants; every state then says the variant played.
TEST(PlaySessionGames, TheFirstMessageListsEveryGameAndItsVariants) {
  Inbox inbox;
  PlaySession session{PlayOptions{}, inbox.sender()};
  const json games = inbox.next("games", 5s);
  ASSERT_FALSE(games.is_null());
  ASSERT_EQ(games["games"].size(), 2U);
  EXPECT_EQ(games["games"][0]["name"], "ataxx");
  EXPECT_EQ(games["games"][0]["boards"], true);
  EXPECT_EQ(games["games"][1]["title"], "Schataxx");
  EXPECT_EQ(games["games"][1]["boards"], false);
  EXPECT_EQ(games["games"][1]["variants"][2], json({{"name", "schataxx-unlimited"}, {"title", "unlimited stock"}}));
  EXPECT_EQ(inbox.next("state", 5s)["variant"], "ataxx");
}

// A FEN set up alone starts the game it is a FEN of, in the variant given where it is one of
// that game's (the page sends the variant picker's, whatever the game).
TEST_F(Table, AFenAloneStartsTheGameItIsOf) {
  const std::string schataxx = "k6N/8/8/8/8/8/8/K6n[QRRBBNqrrbbn] w - - 0 1";
  json state = answer({{"type", "new"}, {"fen", schataxx}, {"variant", "schataxx-balanced"}});
  EXPECT_EQ(state["game"], "schataxx");
  EXPECT_EQ(state["variant"], "schataxx-balanced");
  state = answer({{"type", "new"}, {"fen", "x5o/7/7/7/7/7/o5x x 0 1"}, {"variant", "schataxx-balanced"}});
  EXPECT_EQ(state["game"], "ataxx");
  state = answer({{"type", "new"}, {"fen", schataxx}, {"variant", "ataxx"}});
  EXPECT_EQ(state["game"], "schataxx");
  EXPECT_EQ(state["variant"], "schataxx");
}

TEST_F(Table, RefusesBadInputWithAMessageAndChangesNothing) {
  EXPECT_EQ(error_for("{not json"), "a message must be JSON");
  // A number past a double's range is no JSON either (found by fuzz_play_session: std::terminate).
  EXPECT_EQ(error_for("66666666666666666666e666666666666666666666"), "a message must be JSON");
  EXPECT_EQ(error_for("[1,2]"), "a message is a JSON object with a \"type\"");
  EXPECT_EQ(error_for(R"({"type":"fly"})"), "unknown message type 'fly'");
  EXPECT_EQ(error_for(R"({"type":"move","move":"a7d4"})"),
            "invalid move 'a7d4': a jump must go exactly 2 cells (a single is written as its destination)");
  EXPECT_EQ(error_for(R"({"type":"move","move":"a1a3"})"), "'a1a3' is not a legal move here") << "a1 is o's";
  EXPECT_NE(error_for(R"({"type":"move","move":"zz99"})"), "");
  EXPECT_NE(error_for(R"({"type":"move","move":7})"), "");
  EXPECT_EQ(error_for(R"({"type":"new","board":"9x9"})"), "unknown board '9x9' (4x4 .. 8x8, hexagon)");
  EXPECT_NE(error_for(R"({"type":"new","fen":"x5o/7/7 x 0 1"})"), "");
  EXPECT_NE(error_for(R"({"type":"new","game":"chess"})"), "");
  // A FEN quoted back cut inside a UTF-8 character (found by fuzz_play_session) is still sent.
  EXPECT_NE(error_for("{\"type\":\"new\",\"fen\":\"x5o/7/2-1-2/3-3/2-1-2/7/o\xc3\x87\xdf\x87 0 1%\"}"), "");
  EXPECT_EQ(error_for(R"({"type":"undo"})"), "no move to take back");
  EXPECT_EQ(error_for(R"({"type":"go","visits":0})"), "\"visits\" must be an integer from 1 to 1000000");
  EXPECT_EQ(inbox.count(), 0U) << "no state: nothing changed";
}

TEST_F(Table, UndoTakesMovesBack) {
  answer({{"type", "move"}, {"move", "b6"}});
  answer({{"type", "move"}, {"move", "f6"}});
  const json state = answer({{"type", "undo"}, {"plies", 2}});
  EXPECT_EQ(state["fen"], start["fen"]);
  EXPECT_TRUE(state["history"].empty());
}

TEST_F(Table, EveryBoardAndSchataxx) {
  const json hexagon = answer({{"type", "new"}, {"board", "hexagon"}});
  EXPECT_TRUE(hexagon["board"]["hexagonal"]);
  EXPECT_EQ(hexagon["board"]["cells"].size(), 61U);
  EXPECT_EQ(hexagon["game_number"], start["game_number"].get<int>() + 1);
  const json schataxx = answer({{"type", "new"}, {"game", "schataxx"}, {"variant", "schataxx-unlimited"}});
  EXPECT_EQ(schataxx["colours"], json::array({"white", "black"}));
  EXPECT_EQ(schataxx["counts"]["stocks"][0]["Q"], 1);
  EXPECT_EQ(schataxx["counts"]["stocks"][1]["P"], -1) << "unlimited soldiers";
  const json dropped = answer({{"type", "move"}, {"move", "Q@b2"}});
  EXPECT_EQ(dropped["men"][std::to_string(9)], "Q");
  EXPECT_EQ(dropped["counts"]["stocks"][0]["Q"], 0);
}

TEST_F(Table, TheEngineReportsAndPlaysTheSideToMove) {
  const json think = answer({{"type", "go"}, {"visits", 100}});
  EXPECT_TRUE(think["final"]);
  EXPECT_GT(think["nodes"], 0);
  const json state = inbox.next("state", 5s);
  ASSERT_EQ(state["history"].size(), 1U);
  EXPECT_EQ(state["side"], 1);
}

// The page's engine-vs-engine loop: a go sent from a state that a move or a new game has left
// (it crossed that change on the wire) must not search the new position a second time.
TEST_F(Table, AGoForAStateTheGameHasLeftIsDropped) {
  const auto go_in = [&](const json& state) {
    session.on_message(json{{"type", "go"}, {"visits", 16}, {"version", state["version"]}}.dump());
    return inbox.next("state", 5s);  // with "thinking" true when it searches
  };
  const json moved = answer({{"type", "move"}, {"move", "b6"}});
  EXPECT_GT(moved["version"].get<int>(), start["version"].get<int>());
  const json after_stale = go_in(start);
  EXPECT_FALSE(after_stale["thinking"]);
  session.on_message(json{{"type", "new"}, {"board", "4x4"}}.dump());
  const json fresh = inbox.next("state", 5s);
  EXPECT_FALSE(go_in(moved)["thinking"]) << "a go from before the new game";
  EXPECT_EQ(inbox.count(), 0U) << "no search, no error";
  EXPECT_TRUE(go_in(fresh)["thinking"]) << "a go for the state the game is in";
  EXPECT_TRUE(inbox.final_think()["final"]);
}

TEST_F(Table, AMoveWhileTheEngineThinksIsRefusedAndStopAnswersAtOnce) {
  session.on_message(json{{"type", "go"}, {"movetime", 60'000}}.dump());
  EXPECT_EQ(error_for(R"({"type":"move","move":"b6"})"), "the engine is thinking: stop it first");
  const auto asked = std::chrono::steady_clock::now();
  session.on_message(R"({"type":"stop"})");
  EXPECT_FALSE(inbox.final_think(10s).is_null());
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 10s);
}

// A review: every turn of the game searched, each answered once, while the position shown is
// analysed beside it.
TEST(PlaySession, ReviewsEveryTurnOfTheGame) {
  const NetShelf nets = shelf_of_a_random_7x7_net("play-session-review");
  Inbox inbox;
  PlaySession session(PlayOptions{.nets = &nets, .max_visits = 100'000}, inbox.sender());
  inbox.next("state");
  session.on_message(R"({"type":"analyze","on":true})");
  session.on_message(R"({"type":"new","moves":["b6","f6","a7c5"]})");
  const std::string id = "review-" + std::to_string(inbox.next("state")["version"].get<int>());
  session.on_message(R"({"type":"review","visits":32})");
  std::set<int> turns;
  for (json answer = inbox.next("analysis"); !answer.is_null() && turns.size() < 4; answer = inbox.next("analysis")) {
    if (answer["id"] != id) continue;
    ASSERT_FALSE(answer["isDuringSearch"]) << answer;
    EXPECT_TRUE(turns.insert(answer["turnNumber"].get<int>()).second) << "answered twice: " << answer;
    EXPECT_GE(answer["rootInfo"]["visits"].get<int>(), 32);
  }
  EXPECT_EQ(turns, (std::set<int>{0, 1, 2, 3}));
}

// An imported game: a start and its moves, refused whole where a move is not legal.
TEST_F(Table, ANewGameTakesTheMovesPlayedFromItsStart) {
  const json state = answer({{"type", "new"}, {"fen", "x5o/7/7/7/7/7/o5x x 0 1"}, {"moves", {"b6", "f6", "a7c5"}}});
  EXPECT_EQ(state["history"], json::array({"b6", "f6", "a7c5"}));
  EXPECT_EQ(state["start_fen"], "x5o/7/7/7/7/7/o5x x 0 1");
  const std::string refused = error_for(json{{"type", "new"}, {"moves", json::array({"b6", "b6"})}}.dump());
  EXPECT_EQ(refused.rfind("move 2 ('b6')", 0), 0U) << refused;
  EXPECT_EQ(answer({{"type", "undo"}})["history"], json::array({"b6", "f6"}));  // the game before the refusal
}

// The analysis board steps through its tree: a line's moves replace those played, from the game's
// start, in the same game; a line refused names the index of its first move that is not legal.
TEST_F(Table, ALineReplacesTheMovesPlayedAndARefusedOneNamesItsMove) {
  answer({{"type", "new"}, {"fen", "x5o/7/7/7/7/7/o5x x 0 1"}, {"moves", {"b6", "f6"}}});
  const json branched = answer({{"type", "line"}, {"moves", {"b6", "a1b3", "c7"}}});
  EXPECT_EQ(branched["history"], json::array({"b6", "a1b3", "c7"}));
  EXPECT_EQ(branched["start_fen"], "x5o/7/7/7/7/7/o5x x 0 1") << "the start kept";
  EXPECT_EQ(branched["game_number"], start["game_number"].get<int>() + 1) << "the same game as the new one";
  EXPECT_EQ(answer({{"type", "line"}, {"moves", json::array()}})["fen"], "x5o/7/7/7/7/7/o5x x 0 1");

  session.on_message(R"({"type":"line","moves":["b6","a1b3","b6"]})");
  const json refused = inbox.next("error", 5s);
  EXPECT_EQ(refused["ply"], 2) << refused;
  EXPECT_EQ(refused["message"].get<std::string>().rfind("move 3 ('b6')", 0), 0U) << refused;
  EXPECT_EQ(inbox.count(), 0U) << "no state: the game is as it was";
  EXPECT_NE(error_for(R"({"type":"line","moves":"b6"})"), "");
  EXPECT_EQ(answer({{"type", "move"}, {"move", "g2"}})["history"], json::array({"g2"})) << "after the empty line";
}

// The analysis of the position shown: the analysis engine's answers, again after each change,
// until it is turned off.
TEST(PlaySession, AnalysesThePositionShownUntilToldNotTo) {
  const NetShelf nets = shelf_of_a_random_7x7_net("play-session-analysis");
  Inbox inbox;
  PlaySession session(PlayOptions{.nets = &nets, .max_visits = 2000}, inbox.sender());
  const json start = inbox.next("state");
  session.on_message(R"({"type":"analyze","on":true})");
  json analysis = inbox.next("analysis");
  ASSERT_FALSE(analysis.is_null());
  EXPECT_EQ(analysis["id"], "shown-" + std::to_string(start["version"].get<int>()));
  EXPECT_EQ(analysis["turnNumber"], 0);
  EXPECT_EQ(analysis["ownership"].size(), 49U);
  EXPECT_FALSE(analysis["moveInfos"].empty());
  session.on_message(R"({"type":"move","move":"b6"})");
  const json moved = inbox.next("state");
  do analysis = inbox.next("analysis");
  while (!analysis.is_null() && analysis["id"] != "shown-" + std::to_string(moved["version"].get<int>()));
  ASSERT_FALSE(analysis.is_null()) << "no analysis of the position after b6";
  EXPECT_EQ(analysis["turnNumber"], 1);
  EXPECT_EQ(analysis["rootInfo"]["currentPlayer"], "o");
  session.on_message(R"({"type":"analyze","on":false})");
  std::this_thread::sleep_for(500ms);  // the last answers of the search stopped
  inbox.count();
  while (!inbox.next("analysis", 1s).is_null()) {
  }
  session.on_message(R"({"type":"move","move":"f6"})");
  inbox.next("state");
  EXPECT_TRUE(inbox.next("analysis", 2s).is_null()) << "analysed with analysis off";
}

TEST(PlaySession, ClosesAtOnceWhileTheEngineThinks) {
  Inbox inbox;
  auto session = std::make_unique<PlaySession>(PlayOptions{}, inbox.sender());
  session->on_message(json{{"type", "go"}, {"movetime", 60'000}}.dump());
  std::this_thread::sleep_for(50ms);
  const auto closing = std::chrono::steady_clock::now();
  session.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - closing, 10s);
}

// The engine thinks on the player's time: the player moves while it ponders, and its next search
// starts from the tree it grew under that move (a search without pondering reuses nothing).
TEST(PlaySession, PondersOnThePlayersTimeAndItsNextSearchKeepsTheTree) {
  const NetShelf nets = shelf_of_a_random_7x7_net("play-session-ponder");
  auto engine_reply_after_b6 = [&](bool ponder) {
    Inbox inbox;
    PlaySession session(PlayOptions{&nets}, inbox.sender());
    const int version = inbox.next("state")["version"];
    if (ponder) {
      session.on_message(json{{"type", "ponder"}, {"version", version}}.dump());
      json think;
      do think = inbox.next("think"); while (!think.is_null() && think["nodes"].get<int>() < 400);
      EXPECT_EQ(think.value("ponder", false), true) << think;
      EXPECT_EQ(think["version"], version);
    }
    session.on_message(R"({"type":"move","move":"b6"})");  // not refused: pondering is not thinking
    EXPECT_EQ(inbox.next("state")["history"], json::array({"b6"}));
    if (ponder) {
      const json last = inbox.final_think();
      EXPECT_EQ(last.value("ponder", false), true) << "the pondering stopped by the move: " << last;
    }
    session.on_message(R"({"type":"go","visits":100})");
    const json reply = inbox.final_think();
    EXPECT_FALSE(reply.contains("ponder"));
    return reply;
  };
  EXPECT_EQ(engine_reply_after_b6(false)["reused"], 0);
  const json reply = engine_reply_after_b6(true);
  EXPECT_GT(reply["reused"].get<int>(), 0) << reply;
  EXPECT_GE(reply["nodes"].get<int>(), 100) << "the go's visits count the reused ones (as lc0's)";

  Inbox inbox;
  PlaySession session(PlayOptions{&nets}, inbox.sender());
  inbox.next("state");
  session.on_message(R"({"type":"ponder","visits":0})");
  EXPECT_EQ(inbox.next("error", 5s)["message"], "\"visits\" must be an integer from 1 to 1000000");
  session.on_message(R"({"type":"ponder","version":99})");  // a state left since: nothing searched
  std::this_thread::sleep_for(600ms);  // three progress intervals
  EXPECT_EQ(inbox.count(), 0U);
  session.on_message(R"({"type":"ponder"})");
  EXPECT_FALSE(inbox.next("think", 5s).is_null());
  session.on_message(R"({"type":"ponder","on":false})");  // stopped: its last report, then nothing
  EXPECT_TRUE(inbox.final_think().value("ponder", false));
  std::this_thread::sleep_for(600ms);
  EXPECT_EQ(inbox.count(), 0U);
}

// Alpha-beta (a board no net plays) keeps no tree for its next search: it does not ponder.
TEST_F(Table, AlphaBetaDoesNotPonder) {
  session.on_message(R"({"type":"ponder"})");
  std::this_thread::sleep_for(600ms);
  EXPECT_EQ(inbox.count(), 0U);
}

// A line refused while the engine thinks changes nothing: the search goes on and its move is played.
TEST_F(Table, ALineRefusedWhileTheEngineThinksLeavesItsSearch) {
  session.on_message(R"({"type":"go","movetime":300})");
  const json thinking = inbox.next("state", 5s);
  ASSERT_TRUE(thinking["thinking"].get<bool>());
  session.on_message(R"({"type":"line","moves":["b6","b6"],"id":"x1"})");
  const json refused = inbox.next("error", 5s);
  EXPECT_EQ(refused["line_id"], "x1");
  EXPECT_EQ(refused["of"], "line");
  const json after = inbox.next("state", 10s);
  EXPECT_FALSE(after["thinking"].get<bool>()) << after;
  EXPECT_EQ(after["history"].size(), 1U) << "the engine's move, played: " << after;
  EXPECT_EQ(after["version"], thinking["version"].get<int>() + 1);
  session.on_message(R"({"type":"line","moves":[],"id":7})");
  EXPECT_EQ(inbox.next("state", 5s)["line_id"], 7);
}

// An id's limit is 64 characters, as said, not 64 bytes: 64 accented letters had been refused.
TEST_F(Table, AnIdIsSixtyFourCharactersOfAnyScript) {
  std::string accented;
  for (int i = 0; i < 64; ++i) accented += "\xc3\xa9";
  session.on_message(json{{"type", "line"}, {"moves", json::array()}, {"id", accented}}.dump());
  EXPECT_EQ(inbox.next("state", 5s)["line_id"], accented);
  EXPECT_EQ(error_for(json{{"type", "line"}, {"moves", json::array()}, {"id", accented + "e"}}.dump()),
            "a line's \"id\" is at most 64 characters");
}

TEST(PlaySession, ANetPlaysTheBoardsItWasTrainedOn) {
  const NetShelf nets = shelf_of_a_random_7x7_net("play-session-nets");
  Inbox inbox;
  PlaySession session(PlayOptions{&nets}, inbox.sender());
  const json start = inbox.next("state");
  EXPECT_EQ(start["engine"], "random-init (seven.net)");
  session.on_message(json{{"type", "go"}, {"visits", 64}}.dump());
  const json think = inbox.final_think();
  inbox.next("state");  // after the engine's move
  EXPECT_EQ(think["nodes"], 64);
  ASSERT_FALSE(think["candidates"].empty());
  double priors = 0;
  for (const auto& c : think["candidates"]) priors += c["prior"].get<double>();
  EXPECT_NEAR(priors, 1.0, 1e-3) << "the root's priors";
  const auto& most_visited = think["candidates"][0];
  EXPECT_TRUE(most_visited["net_wdl"].is_array()) << "the network's value after the move";
  ASSERT_TRUE(most_visited["wdl"].is_array()) << "the search's";
  EXPECT_NEAR(most_visited["wdl"][0].get<double>() - most_visited["wdl"][2].get<double>(),
              most_visited["value"].get<double>(), 1e-5)
      << "the mover's view, as the value";
  EXPECT_TRUE(think["net_wdl"].is_array()) << "the network's value of the root";
  ASSERT_TRUE(think["wdl"].is_array()) << "the search's";
  const auto& wdl = think["wdl"];
  EXPECT_NEAR(wdl[0].get<double>() + wdl[1].get<double>() + wdl[2].get<double>(), 1.0, 1e-5);
  EXPECT_NEAR(wdl[0].get<double>() - wdl[2].get<double>(), think["value"].get<double>(), 1e-5) << "no lead utility";
  EXPECT_TRUE(think["lead"].is_number());
  EXPECT_TRUE(think.at("mate").is_null()) << "nothing is proven at the start";
  session.on_message(json{{"type", "new"}, {"board", "6x6"}}.dump());
  EXPECT_EQ(inbox.next("state")["engine"], "alphabeta: no net plays 6x6");
}

// A candidate's `to` is the cell it lands on, where the page sums its prior for the heat map; a
// pass lands on none.
TEST(ReportJson, APassCandidateLandsOnNoCell) {
  using Move = AtaxxGame::Move;
  BasicMoveReport<AtaxxGame> report;
  const Move clone = parse_move("b6", board_7x7());
  for (const auto& [move, prior] : {std::pair{Move::pass(), 0.25f}, {clone, 0.75f}}) {
    BasicCandidateMove<AtaxxGame> candidate;
    candidate.move = move;
    candidate.prior = prior;
    report.candidates.push_back(candidate);
  }
  const json answer = report_json<AtaxxGame>(report, Position::startpos());
  EXPECT_TRUE(answer["candidates"][0]["to"].is_null()) << answer;
  EXPECT_EQ(answer["candidates"][1]["to"], GameView<AtaxxGame>::destination(clone)) << answer;
  EXPECT_GE(answer["candidates"][1]["to"].get<int>(), 0) << answer;
}

}  // namespace
}  // namespace ataxx::server
