#include "analysis/analysis_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "games/registry.h"
#include "nn/model_info.h"
#include "tests/test_paths.h"

namespace ataxx::analysis {
namespace {

using json = nlohmann::json;

// Small random nets: 7x7 and the hexagon, and Schataxx.
const NetShelf& test_nets() {
  static const NetShelf nets = [] {
    const std::string dir = temp_path("analysis-nets");
    std::filesystem::create_directories(dir);
    write_random_play_file(dir + "/a-ataxx.net", {1, 8}, 3, BoardSet::parse("7x7,hexagon"));
    write_random_play_file(dir + "/b-schataxx.net", {1, 8}, 4, {}, {}, SchataxxGame::kName);
    return NetShelf("", dir);
  }();
  return nets;
}

// An engine whose answers the test reads as they come.
class Session {
 public:
  explicit Session(int threads = 1)
      : engine_({.nets = &test_nets(), .threads = threads, .default_visits = 16}, [this](const std::string& line) {
          const std::lock_guard lock(mutex_);
          answers_.push_back(json::parse(line));
          arrived_.notify_all();
        }) {}

  void send(std::string_view line) { engine_.handle(line); }
  void send_json(const json& line) { engine_.handle(line.dump()); }
  // Every answer once the engine has answered every turn asked.
  std::vector<json> finish() {
    engine_.finish();
    return answers();
  }
  std::vector<json> answers() {
    const std::lock_guard lock(mutex_);
    return answers_;
  }
  // Waits for an answer that `wanted` says yes to (a minute at most).
  json wait_for(const std::function<bool(const json&)>& wanted) {
    std::unique_lock lock(mutex_);
    std::optional<json> found;
    arrived_.wait_for(lock, std::chrono::minutes(1), [&] {
      for (const json& answer : answers_)
        if (wanted(answer)) found = answer;
      return found.has_value();
    });
    if (!found) throw std::runtime_error("no such answer came");
    return *found;
  }
  Engine& engine() { return engine_; }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<json> answers_;
  Engine engine_;  // last: its workers answer into the members above
};

std::vector<json> with_id(const std::vector<json>& answers, const std::string& id) {
  std::vector<json> kept;
  for (const json& answer : answers)
    if (answer.value("id", "") == id) kept.push_back(answer);
  return kept;
}

// The position after the first `turn` of `moves` from the 7x7 start.
AtaxxGame::Position after(const std::vector<std::string>& moves, int turn) {
  AtaxxGame::Game game(AtaxxGame::start());
  for (int i = 0; i < turn; ++i) game.play(moves[i]);
  return game.position();
}

TEST(Analysis, AnswersEachTurnAskedByIdAndTurnWithItsSearch) {
  Session session;
  const std::vector<std::string> moves = {"b6", "f6", "a7c5"};
  session.send_json(json{{"id", "q1"}, {"moves", moves}, {"analyzeTurns", {3, 0}}, {"maxVisits", 64}});
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 2U) << json(answers).dump();
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const json& answer = answers[i];
    SCOPED_TRACE(answer.dump());
    EXPECT_EQ(answer["id"], "q1");
    const int turn = answer["turnNumber"];
    EXPECT_EQ(turn, i == 0 ? 0 : 3);  // one thread: in turn order, whatever the order asked
    EXPECT_FALSE(answer["isDuringSearch"]);
    const AtaxxGame::Position pos = after(moves, turn);
    EXPECT_EQ(answer["rootInfo"]["currentPlayer"], turn == 0 ? "x" : "o");
    const int visits = answer["rootInfo"]["visits"];
    EXPECT_GE(visits, 64);
    EXPECT_LT(visits, 64 + 8);  // a round's leaves past the limit at most
    int children = 0;
    const json& infos = answer["moveInfos"];
    ASSERT_GE(infos.size(), 2U);
    for (std::size_t order = 0; order < infos.size(); ++order) {
      const json& info = infos[order];
      EXPECT_EQ(info["order"], order);
      EXPECT_TRUE(pos.is_legal(AtaxxGame::parse_move_text(info["move"].get<std::string>(), pos))) << info;
      EXPECT_EQ(info["pv"][0], info["move"]);
      EXPECT_GE(info["winrate"].get<double>(), 0.0);
      EXPECT_LE(info["winrate"].get<double>(), 1.0);
      EXPECT_GT(info["prior"].get<double>(), 0.0);
      EXPECT_GE(info["visits"].get<int>(), 1);
      if (order > 1) {
        EXPECT_LE(info["visits"], infos[order - 1]["visits"]);  // after the first, by visits
      }
      children += info["visits"].get<int>();
    }
    EXPECT_EQ(children, visits - 1);  // every visit but the root's own first
  }
}

TEST(Analysis, TheLastTurnUnlessAskedAndThePolicyOfEveryLegalMove) {
  Session session;
  session.send(R"({"id":"q","moves":["b6"],"includePolicy":true})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 1U);
  EXPECT_EQ(answers[0]["turnNumber"], 1);
  AtaxxGame::MoveList legal;
  after({"b6"}, 1).generate_moves(legal);
  const json& policy = answers[0]["policy"];
  ASSERT_EQ(policy.size(), static_cast<std::size_t>(legal.size())) << policy;
  double sum = 0;
  for (const auto& [move, prior] : policy.items()) sum += prior.get<double>();
  EXPECT_NEAR(sum, 1.0, 0.01);
  EXPECT_GE(answers[0]["rootInfo"]["visits"], 16);  // the engine's default visits
}

TEST(Analysis, RefusesABadLineNamingTheFieldAndGoesOn) {
  Session session;
  session.send("not json");
  session.send(R"({"moves":["b6"]})");
  session.send(R"({"id":"illegal","moves":["b6","a7c5"]})");
  session.send(R"({"id":"turns","moves":["b6"],"analyzeTurns":[2]})");
  session.send(R"({"id":"visits","maxVisits":0})");
  session.send(R"({"id":"fen","initialFen":"x5o/7/7/7/7/7/o5"})");
  session.send(R"({"id":"variant","variant":"chess"})");
  session.send(R"({"id":"board","initialFen":"x6o/8/8/8/8/8/8/o6x x 0 1"})");
  session.send(R"({"id":"good","maxVisits":8})");
  session.send(R"({"id":"huge","priority":1e400})");
  // Empty, these were taken as left out: the start of Ataxx, the last turn.
  session.send(R"({"id":"nofen","initialFen":""})");
  session.send(R"({"id":"novariant","variant":""})");
  session.send(R"({"id":"noturns","analyzeTurns":[]})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 13U) << json(answers).dump();
  EXPECT_FALSE(answers[0].contains("id"));
  EXPECT_NE(answers[0]["error"].get<std::string>().find("not a JSON object on one line (parse error at line 1, "),
            std::string::npos)
      << answers[0];
  const auto huge =
      std::ranges::find_if(answers, [](const json& a) { return a.dump().find("1e400") != std::string::npos; });
  ASSERT_NE(huge, answers.end());
  EXPECT_NE((*huge)["error"].get<std::string>().find("(number overflow parsing '1e400')"), std::string::npos) << *huge;
  EXPECT_EQ(answers[1]["field"], "id");
  const auto error_of = [&](const std::string& id) { return with_id(answers, id).at(0); };
  EXPECT_EQ(error_of("illegal")["field"], "moves");
  EXPECT_NE(error_of("illegal")["error"].get<std::string>().find("move 2 ('a7c5')"), std::string::npos);
  EXPECT_EQ(error_of("turns")["field"], "analyzeTurns");
  EXPECT_EQ(error_of("visits")["field"], "maxVisits");
  EXPECT_EQ(error_of("fen")["field"], "initialFen");
  EXPECT_EQ(error_of("variant")["field"], "variant");
  EXPECT_EQ(error_of("board")["error"], "no net plays Ataxx on 8x8");
  EXPECT_EQ(error_of("nofen")["field"], "initialFen");
  EXPECT_EQ(error_of("novariant")["field"], "variant");
  EXPECT_EQ(error_of("noturns")["field"], "analyzeTurns");
  EXPECT_EQ(error_of("good")["isDuringSearch"], false);
  EXPECT_TRUE(error_of("good").contains("moveInfos"));
}

// The moves of a turn's answer, as it lists them.
std::vector<std::string> moves_answered(const json& answer) {
  std::vector<std::string> moves;
  for (const json& info : answer.at("moveInfos")) moves.push_back(info["move"]);
  std::ranges::sort(moves);
  return moves;
}

// KataGo's allowMoves and avoidMoves: the mover's search keeps to the moves allowed and leaves out
// those avoided; a restriction of the other side leaves the turn alone.
TEST(Analysis, AllowMovesAndAvoidMovesRestrictTheMoversSearch) {
  Session session;
  session.send(
      R"({"id":"allow","maxVisits":64,"allowMoves":[{"player":"x","moves":["b6","a7c5","g2"],"untilDepth":1}]})");
  session.send(R"({"id":"avoid","maxVisits":64,"avoidMoves":[{"player":"x","moves":["b6","a6","b7"],"untilDepth":1},
                                                            {"player":"x","moves":["f1","g2","f2"],"untilDepth":1}]})");
  session.send(R"({"id":"both","maxVisits":64,"allowMoves":[{"player":"x","moves":["b6","g2"],"untilDepth":1}],
                   "avoidMoves":[{"player":"x","moves":["g2"],"untilDepth":1}]})");
  session.send(R"({"id":"other","maxVisits":64,"allowMoves":[{"player":"o","moves":["f6"],"untilDepth":1}]})");
  session.send(
      R"({"id":"o","moves":["b6"],"maxVisits":64,"allowMoves":[{"player":"o","moves":["f6","a2"],"untilDepth":1}]})");
  session.send(R"({"id":"none","maxVisits":8,"allowMoves":[{"player":"x","moves":["d4"],"untilDepth":1}]})");
  session.send(R"({"id":"B","maxVisits":64,"allowMoves":[{"player":"B","moves":["b6"],"untilDepth":1}]})");
  // x has no move but the pass: no restriction makes it an error.
  session.send(
      R"({"id":"pass","initialFen":"xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo/oooooo1 x 0 1","maxVisits":8,)"
      R"("allowMoves":[{"player":"x","moves":["b6"],"untilDepth":1}]})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 8U) << json(answers).dump();
  const auto answer_of = [&](const std::string& id) { return with_id(answers, id).at(0); };
  EXPECT_EQ(moves_answered(answer_of("allow")), (std::vector<std::string>{"a7c5", "b6", "g2"}));
  const std::vector<std::string> avoided = moves_answered(answer_of("avoid"));
  for (const char* move : {"b6", "a6", "b7", "f1", "g2", "f2"}) EXPECT_EQ(std::ranges::count(avoided, move), 0) << move;
  EXPECT_GT(avoided.size(), 5U) << "the jumps are left";
  EXPECT_EQ(moves_answered(answer_of("both")), (std::vector<std::string>{"b6"}));
  EXPECT_GT(moves_answered(answer_of("other")).size(), 3U) << "o's restriction leaves x's turn alone";
  EXPECT_EQ(moves_answered(answer_of("o")), (std::vector<std::string>{"a2", "f6"}));
  EXPECT_NE(answer_of("none")["error"].get<std::string>().find("no legal move"), std::string::npos)
      << "d4 is no move at the start";
  EXPECT_EQ(moves_answered(answer_of("B")), (std::vector<std::string>{"b6"})) << "KataGo's B: Ataxx's x is Black";
  EXPECT_EQ(moves_answered(answer_of("pass")), (std::vector<std::string>{"0000"})) << answer_of("pass");
}

// Schataxx's sides by their names in any case, as their colours.
TEST(Analysis, MoveRestrictionsNameSchataxxSidesByColour) {
  Session session;
  session.send(
      R"({"id":"w","variant":"schataxx","maxVisits":32,"allowMoves":[{"player":"white","moves":["Q@b2"],"untilDepth":1}]})");
  session.send(
      R"({"id":"b","variant":"schataxx","maxVisits":32,"allowMoves":[{"player":"black","moves":["Q@b2"],"untilDepth":1}]})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 2U) << json(answers).dump();
  const json white = with_id(answers, "w").at(0), black = with_id(answers, "b").at(0);
  EXPECT_EQ(white["rootInfo"]["currentPlayer"], "White") << white;
  EXPECT_EQ(moves_answered(white), (std::vector<std::string>{"Q@b2"})) << white;
  EXPECT_GT(moves_answered(black).size(), 1U) << "Black's restriction leaves White's turn alone";
}

TEST(Analysis, RefusesAMoveRestrictionItCannotKeep) {
  Session session;
  const auto refused = [&](const std::string& restriction) {
    session.send(R"({"id":"q","maxVisits":8,)" + restriction + "}");
    const json answer = session.wait_for([](const json& a) { return a.contains("error"); });
    session.finish();
    return answer;
  };
  const json depth = refused(R"("avoidMoves":[{"player":"x","moves":["b6"],"untilDepth":3}])");
  EXPECT_EQ(depth["field"], "avoidMoves");
  EXPECT_NE(depth["error"].get<std::string>().find("untilDepth must be 1"), std::string::npos) << depth;
  Session second;
  second.send(R"({"id":"player","maxVisits":8,"avoidMoves":[{"player":"red","moves":["b6"],"untilDepth":1}]})");
  second.send(R"({"id":"move","maxVisits":8,"allowMoves":[{"player":"x","moves":["z9"],"untilDepth":1}]})");
  second.send(R"({"id":"two","maxVisits":8,"allowMoves":[{"player":"x","moves":["b6"],"untilDepth":1},
                                                         {"player":"o","moves":["f6"],"untilDepth":1}]})");
  second.send(R"({"id":"shape","maxVisits":8,"avoidMoves":{"player":"x","moves":["b6"],"untilDepth":1}})");
  const std::vector<json> answers = second.finish();
  ASSERT_EQ(answers.size(), 4U) << json(answers).dump();
  for (const json& answer : answers) {
    SCOPED_TRACE(answer.dump());
    EXPECT_TRUE(answer.contains("error"));
    EXPECT_FALSE(answer.contains("turnNumber")) << "refused as a query, not searched";
  }
  EXPECT_NE(with_id(answers, "player").at(0)["error"].get<std::string>().find("'red' is not a side of Ataxx (x or o)"),
            std::string::npos);
  EXPECT_EQ(with_id(answers, "move").at(0)["field"], "allowMoves");
  EXPECT_EQ(with_id(answers, "two").at(0)["field"], "allowMoves");
  EXPECT_EQ(with_id(answers, "shape").at(0)["field"], "avoidMoves");
}

TEST(Analysis, QueryVersionAndClearCacheAreAnsweredAtOnce) {
  Session session;
  session.send(R"({"id":"v","action":"query_version"})");
  session.send(R"({"id":"c","action":"clear_cache"})");
  session.send(R"({"id":"x","action":"clear"})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 3U) << json(answers).dump();
  EXPECT_EQ(answers[0]["action"], "query_version");
  EXPECT_EQ(answers[0]["version"], ATAXX_PROJECT_VERSION);
  const std::string hash = answers[0]["git_hash"];
  if (std::filesystem::exists(std::string(ATAXX_SOURCE_DIR) + "/.git")) {
    EXPECT_TRUE(std::regex_match(hash, std::regex("[0-9a-f]{40}(-dirty)?"))) << hash;
  } else {
    EXPECT_EQ(hash, "") << "built outside a git checkout";
  }
  EXPECT_EQ(answers[1], json::parse(R"({"id":"c","action":"clear_cache"})"));
  EXPECT_EQ(answers[2]["field"], "action");
}

// KataGo's lcb: the bound the engine chooses its move by (Ataxx: 4 standard errors under the
// mean), in winrate's units, from a move's second visit; the move played first has the highest of
// those with a tenth of the most visits. Schataxx plays the most visited: no bound.
TEST(Analysis, EachMovesLowerConfidenceBoundIsTheOneTheEnginePlaysBy) {
  Session session;
  session.send(R"({"id":"q","moves":["b6","f6"],"maxVisits":400})");
  session.send(R"({"id":"s","variant":"schataxx","maxVisits":50})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 2U) << json(answers).dump();
  const json infos = with_id(answers, "q").at(0)["moveInfos"];
  int most = 0;
  for (const json& info : infos) most = std::max(most, info["visits"].get<int>());
  int bounded = 0;
  for (const json& info : infos) {
    SCOPED_TRACE(info.dump());
    const int visits = info["visits"];
    ASSERT_EQ(info.contains("lcb"), visits >= 2);
    if (visits < 2) continue;
    ++bounded;
    EXPECT_LE(info["lcb"].get<double>(), info["winrate"].get<double>());
    if (visits >= std::max(2, most / 10)) {
      EXPECT_LE(info["lcb"].get<double>(), infos[0]["lcb"].get<double>() + 1e-4);
    }
  }
  EXPECT_GE(bounded, 3) << infos.dump();
  const json schataxx = with_id(answers, "s").at(0);
  for (const json& info : schataxx["moveInfos"]) EXPECT_FALSE(info.contains("lcb")) << info;
}

// The answers to one query each, by id, once the engine has answered every turn.
std::map<std::string, json> answers_by_id(Session& session) {
  std::map<std::string, json> by_id;
  for (const json& answer : session.finish()) by_id[answer.value("id", "")] = answer;
  return by_id;
}

void expect_near(const json& a, const json& b, const std::string& what) {
  EXPECT_NEAR(a.get<double>(), b.get<double>(), 1.5e-4) << what;
}

// KataGo's reportAnalysisWinratesAs: BLACK reports the turn of o (White) from x's view, WHITE as
// the side to move there.
TEST(Analysis, ReportsFromOneSidesViewWhenOverrideSettingsAskIt) {
  Session session;
  const std::string turn =
      R"("moves":["b6"],"maxVisits":64,"includeOwnership":true,"includeOwnershipStdev":true,"includeMovesOwnership":true)";
  session.send(R"({"id":"mover",)" + turn + "}");
  session.send(R"({"id":"black",)" + turn + R"(,"overrideSettings":{"reportAnalysisWinratesAs":"BLACK"}})");
  session.send(R"({"id":"white",)" + turn + R"(,"overrideSettings":{"reportAnalysisWinratesAs":"white"}})");
  std::map<std::string, json> answers = answers_by_id(session);
  ASSERT_EQ(answers.size(), 3U);
  const json& mover = answers["mover"];
  EXPECT_EQ(answers["white"], [&] {
    json same = mover;
    same["id"] = "white";
    return same;
  }());
  const json& black = answers["black"];
  EXPECT_EQ(black["rootInfo"]["currentPlayer"], "o");
  expect_near(black["rootInfo"]["winrate"], 1 - mover["rootInfo"]["winrate"].get<double>(), "root winrate");
  expect_near(black["rootInfo"]["scoreLead"], -mover["rootInfo"]["scoreLead"].get<double>(), "root lead");
  expect_near(black["rootInfo"]["drawrate"], mover["rootInfo"]["drawrate"], "root draws");
  for (std::size_t cell = 0; cell < mover["ownership"].size(); ++cell)
    expect_near(black["ownership"][cell], -mover["ownership"][cell].get<double>(), "ownership");
  EXPECT_EQ(black["ownershipStdev"], mover["ownershipStdev"]);  // a spread is no side's
  ASSERT_EQ(black["moveInfos"].size(), mover["moveInfos"].size());
  int bounded = 0;
  for (std::size_t i = 0; i < mover["moveInfos"].size(); ++i) {
    const json& seen = black["moveInfos"][i];
    const json& own = mover["moveInfos"][i];
    SCOPED_TRACE(own.dump());
    EXPECT_EQ(seen["move"], own["move"]);
    expect_near(seen["winrate"], 1 - own["winrate"].get<double>(), "winrate");
    expect_near(seen["scoreLead"], -own["scoreLead"].get<double>(), "lead");
    ASSERT_EQ(seen["ownership"].size(), own["ownership"].size());
    for (std::size_t cell = 0; cell < own["ownership"].size(); ++cell)
      expect_near(seen["ownership"][cell], -own["ownership"][cell].get<double>(), "a move's ownership");
    if (own.contains("lcb")) {
      ++bounded;
      expect_near(seen["lcb"], 1 - own["lcb"].get<double>(), "lcb");
    }
  }
  EXPECT_GT(bounded, 0);
}

// Schataxx's White moves first: at its start WHITE is the mover's view, BLACK the other's.
TEST(Analysis, ReportsSchataxxFromTheSideItsColourNames) {
  Session session;
  const std::string start = R"("variant":"schataxx","maxVisits":16)";
  session.send(R"({"id":"mover",)" + start + "}");
  session.send(R"({"id":"white",)" + start + R"(,"overrideSettings":{"reportAnalysisWinratesAs":"WHITE"}})");
  session.send(R"({"id":"black",)" + start + R"(,"overrideSettings":{"reportAnalysisWinratesAs":"BLACK"}})");
  std::map<std::string, json> answers = answers_by_id(session);
  ASSERT_EQ(answers["mover"]["rootInfo"]["currentPlayer"], "White");
  const double winrate = answers["mover"]["rootInfo"]["winrate"];
  expect_near(answers["white"]["rootInfo"]["winrate"], winrate, "White's view");
  expect_near(answers["black"]["rootInfo"]["winrate"], 1 - winrate, "Black's view");
  expect_near(answers["black"]["rootInfo"]["scoreLead"], -answers["mover"]["rootInfo"]["scoreLead"].get<double>(),
              "lead");
}

// KataGo's analysisPVLen and includePVVisits.
TEST(Analysis, LinesAreCutToAnalysisPVLenAndCarryTheirVisitsWhenAsked) {
  Session session;
  const std::string turn = R"("moves":["b6","f6"],"maxVisits":300,"includePVVisits":true)";
  session.send(R"({"id":"whole",)" + turn + "}");
  session.send(R"({"id":"cut",)" + turn + R"(,"overrideSettings":{"analysisPVLen":1}})");
  std::map<std::string, json> answers = answers_by_id(session);
  const json& whole = answers["whole"]["moveInfos"];
  const json& cut = answers["cut"]["moveInfos"];
  ASSERT_EQ(whole.size(), cut.size());
  std::size_t longest = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    SCOPED_TRACE(whole[i].dump());
    const json& pv = whole[i]["pv"];
    const json& visits = whole[i]["pvVisits"];
    longest = std::max(longest, pv.size());
    ASSERT_EQ(visits.size(), pv.size());
    EXPECT_EQ(visits[0], whole[i]["visits"]);
    for (std::size_t ply = 1; ply < visits.size(); ++ply) {
      EXPECT_GE(visits[ply].get<int>(), 1);
      EXPECT_LT(visits[ply].get<int>(), visits[ply - 1].get<int>());
    }
    const std::size_t kept = std::min<std::size_t>(pv.size(), 2);
    EXPECT_EQ(cut[i]["pv"], json(std::vector<json>(pv.begin(), pv.begin() + kept)));
    EXPECT_EQ(cut[i]["pvVisits"], json(std::vector<json>(visits.begin(), visits.begin() + kept)));
  }
  EXPECT_GT(longest, 2U);
}

// The net's ownership of a turn's position, from the view of its side to move (one visit: the
// root alone).
json net_ownership(const std::vector<std::string>& moves) {
  Session session;
  session.send_json(json{{"id", "a"}, {"moves", moves}, {"maxVisits", 1}, {"includeOwnership", true}});
  return session.finish().at(0)["ownership"];
}

double largest_difference(const json& a, const json& b) {
  double largest = 0;
  for (std::size_t cell = 0; cell < a.size(); ++cell)
    largest = std::max(largest, std::abs(a[cell].get<double>() - b[cell].get<double>()));
  return largest;
}

// The moves of an answer with their ownership and its spread, for each move: the visits.
std::map<std::string, json> moves_ownership(const std::string& query) {
  Session session;
  session.send(R"({"id":"q","moves":["b6"],"includeMovesOwnership":true,"includeMovesOwnershipStdev":true,)" + query +
               "}");
  const json infos = session.finish().at(0)["moveInfos"];
  std::map<std::string, json> by_move;
  for (const json& info : infos) by_move[info["move"]] = info;
  return by_move;
}

// The net's ownership after `move` of o's at the turn after b6, from o's view.
json net_ownership_after(const std::string& move) {
  json owners = net_ownership({"b6", move});
  for (json& owner : owners) owner = -owner.get<double>();  // x's view there: x is to move after o's move
  return owners;
}

// A move's ownership is its subtree's (KataGo's tree ownership), from the turn's view (the
// mover's): with one visit, the net's of the position after the move; with many, the lines below
// it change it and spread about it.
TEST(Analysis, EachMovesOwnershipIsItsSubtreesFromTheTurnsView) {
  int single = 0;
  for (const auto& [move, info] : moves_ownership(R"("maxVisits":17)")) {
    SCOPED_TRACE(move + ": " + info["visits"].dump() + " visits");
    ASSERT_EQ(info["ownership"].size(), 49U);
    if (info["visits"] != 1) continue;
    ++single;
    EXPECT_LT(largest_difference(info["ownership"], net_ownership_after(move)), 1.5e-4);
    EXPECT_EQ(info["ownershipStdev"], json(std::vector<double>(49, 0.0)));
  }
  EXPECT_GT(single, 0);
  const auto searched =
      moves_ownership(R"("maxVisits":64,"allowMoves":[{"player":"o","moves":["a1b3"],"untilDepth":1}])");
  ASSERT_EQ(searched.size(), 1U);
  const json& info = searched.at("a1b3");
  EXPECT_EQ(info["visits"], 63);
  EXPECT_GT(largest_difference(info["ownership"], net_ownership_after("a1b3")), 0.01);
  EXPECT_GT(std::ranges::max(info["ownershipStdev"]).get<double>(), 0.01);
  Session plain;
  plain.send(R"({"id":"q","moves":["b6"],"maxVisits":32})");
  const json plain_infos = plain.finish().at(0)["moveInfos"];
  for (const json& plain_info : plain_infos) EXPECT_FALSE(plain_info.contains("ownership"));
}

// A move that ends the game owns the final board's men, exactly: the net, never trained on a
// finished board, had put 0.1 to 0.3 on cells no one can take any more.
TEST(Analysis, AMoveThatEndsTheGameOwnsItsFinalBoard) {
  Session session;
  session.send(R"({"id":"q","initialFen":"o6/1x5/7/7/7/7/7 x 0 1","maxVisits":300,"includeMovesOwnership":true,)"
               R"("includeMovesOwnershipStdev":true})");
  const json infos = session.finish().at(0)["moveInfos"];
  const auto wins = std::ranges::find_if(infos, [](const json& info) { return info["move"] == "a6"; });
  ASSERT_NE(wins, infos.end());  // x takes o's last man
  std::vector<double> final_board(49, 0.0);
  for (const int cell : {35, 36, 42}) final_board[cell] = 1.0;  // a6, b6, a7: x's
  EXPECT_EQ((*wins)["ownership"], json(final_board));
  EXPECT_EQ((*wins)["ownershipStdev"], json(std::vector<double>(49, 0.0)));
}

// A gap is no one's: the net's ownership head had put up to 0.8 on one.
TEST(Analysis, AGapIsOwnedByNoOne) {
  Session session;
  session.send(R"({"id":"q","initialFen":"x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1","maxVisits":50,"includeOwnership":true,)"
               R"("includeOwnershipStdev":true,"includeMovesOwnership":true})");
  const json answer = session.finish().at(0);
  for (const int gap : {16, 18, 30, 32}) {  // c3, e3, c5, e5
    EXPECT_EQ(answer["ownership"][gap], 0.0) << gap;
    EXPECT_EQ(answer["ownershipStdev"][gap], 0.0) << gap;
    for (const json& info : answer["moveInfos"])
      EXPECT_EQ(info["ownership"][gap], 0.0) << gap << " after " << info["move"];
  }
}

// The turn's ownership is the search's: the net's where the search is the root alone, else the
// lines' below it, with their spread (includeOwnershipStdev) from 0 to 1.
TEST(Analysis, TheTurnsOwnershipIsTheSearchTreesWithItsSpread) {
  Session session;
  session.send(R"({"id":"q","moves":["b6"],"maxVisits":200,"includeOwnership":true,"includeOwnershipStdev":true})");
  const json answer = session.finish().at(0);
  EXPECT_GT(largest_difference(answer["ownership"], net_ownership({"b6"})), 0.01);
  ASSERT_EQ(answer["ownershipStdev"].size(), 49U);
  for (const json& spread : answer["ownershipStdev"]) {
    EXPECT_GE(spread.get<double>(), 0.0);
    EXPECT_LE(spread.get<double>(), 1.0);
  }
  EXPECT_GT(std::ranges::max(answer["ownershipStdev"]).get<double>(), 0.01);
  Session alone;
  alone.send(R"({"id":"q","moves":["b6"],"maxVisits":1,"includeOwnershipStdev":true})");
  const json one_visit = alone.finish().at(0);
  EXPECT_EQ(one_visit["ownershipStdev"], json(std::vector<double>(49, 0.0)));
  EXPECT_FALSE(one_visit.contains("ownership")) << "only what is asked, as KataGo";
  alone.send(R"({"id":"m","moves":["b6"],"maxVisits":8,"includeMovesOwnershipStdev":true})");
  for (const json& info : alone.finish().at(0)["moveInfos"]) {
    EXPECT_TRUE(info.contains("ownershipStdev"));
    EXPECT_FALSE(info.contains("ownership"));
  }
}

// overrideSettings: the search's options by their player names, maxTime; the rest refused by field
// or warned of.
TEST(Analysis, OverrideSettingsSetTheSearchAndRefuseWhatTheyCannotTake) {
  Session session;
  session.send(R"({"id":"lcb","moves":["b6"],"maxVisits":200})");
  session.send(R"({"id":"nolcb","moves":["b6"],"maxVisits":200,"overrideSettings":{"lcb":0,"solver":true}})");
  // maxTime caps the visits (KataGo's): without it this search would not end.
  session.send(R"({"id":"time","maxVisits":100000000,"overrideSettings":{"maxTime":0.2}})");
  session.send(R"({"id":"visits","maxVisits":8,"overrideSettings":{"maxTime":60}})");
  session.send(R"({"id":"odd","maxVisits":4,"overrideSettings":{"playoutDoublingAdvantage":0.5}})");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"("x")", "overrideSettings"},
      {R"({"cpuct":1000})", "cpuct"},
      {R"({"cpuct":true})", "cpuct"},
      {R"({"ptemp":"2"})", "ptemp"},
      {R"({"reportAnalysisWinratesAs":"RED"})", "reportAnalysisWinratesAs"},
      {R"({"analysisPVLen":-1})", "analysisPVLen"},
      {R"({"analysisPVLen":1.5})", "analysisPVLen"},
      {R"({"maxTime":0})", "maxTime"}};
  for (std::size_t i = 0; i < bad.size(); ++i)
    session.send(R"({"id":"bad)" + std::to_string(i) + R"(","overrideSettings":)" + bad[i].first + "}");
  const std::vector<json> answers = session.finish();
  const auto lcb_count = [&](const std::string& id) {
    const json infos = with_id(answers, id).at(0)["moveInfos"];
    int count = 0;
    for (const json& info : infos) count += info.contains("lcb") ? 1 : 0;
    return count;
  };
  EXPECT_GT(lcb_count("lcb"), 0);
  EXPECT_EQ(lcb_count("nolcb"), 0);
  const int timed = with_id(answers, "time").at(0)["rootInfo"]["visits"];
  EXPECT_GT(timed, 0);
  EXPECT_LT(timed, 100000000);
  EXPECT_LT(with_id(answers, "visits").at(0)["rootInfo"]["visits"].get<int>(), 8 + 8);
  const std::vector<json> odd = with_id(answers, "odd");
  ASSERT_EQ(odd.size(), 2U) << json(odd).dump();
  EXPECT_EQ(odd[0]["field"], "overrideSettings.playoutDoublingAdvantage");
  EXPECT_TRUE(odd[1].contains("moveInfos"));
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const std::vector<json> refused = with_id(answers, "bad" + std::to_string(i));
    ASSERT_EQ(refused.size(), 1U) << bad[i].first << ": " << json(refused).dump();
    EXPECT_EQ(refused[0]["field"], "overrideSettings") << refused[0];
    EXPECT_NE(refused[0].value("error", "").find(bad[i].second), std::string::npos) << refused[0];
  }
  // In the query's words, not those of the player spec the settings are made into.
  EXPECT_EQ(with_id(answers, "bad1").at(0)["error"], "cpuct=1000 is not a number in [0, 100]");
}

TEST(Analysis, WarnsOfAFieldItDoesNotKnowAndGoesOn) {
  Session session;
  session.send(R"({"id":"q","maxvisits":5,"maxVisits":8})");
  session.send(R"({"id":"r","maxvisits":5,"maxVisits":0})");  // refused: its warning had been lost
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 4U) << json(answers).dump();
  EXPECT_EQ(answers[0]["field"], "maxvisits");
  EXPECT_TRUE(answers[0].contains("warning"));
  const std::vector<json> refused = with_id(answers, "r");
  ASSERT_EQ(refused.size(), 2U) << json(answers).dump();
  EXPECT_EQ(refused[0]["field"], "maxvisits");
  EXPECT_TRUE(refused[0].contains("warning"));
  EXPECT_EQ(refused[1]["field"], "maxVisits");
  EXPECT_TRUE(refused[1].contains("error"));
  EXPECT_LT(with_id(answers, "q").back()["rootInfo"]["visits"], 8 + 8);
}

// The shipped 7x7 net's ownership head: x, to move, holds most of the board and o a corner.
TEST(Analysis, OwnershipIsTheNetsCellByCellFromTheMoversView) {
  const NetShelf shipped(std::string(ATAXX_SOURCE_DIR) + "/nets/ataxx-7x7.net", "");
  std::vector<std::string> lines;
  {
    Engine engine({.nets = &shipped}, [&](const std::string& line) { lines.push_back(line); });
    engine.handle(R"({"id":"q","initialFen":"xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxx2/xxxx3/xxxx1oo x 0 1",)"
                  R"("maxVisits":8,"includeOwnership":true})");
    engine.finish();
  }
  ASSERT_EQ(lines.size(), 1U);
  const json answer = json::parse(lines[0]);
  const json& ownership = answer.at("ownership");
  const auto pos = AtaxxGame::Position::from_fen("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxx2/xxxx3/xxxx1oo x 0 1");
  ASSERT_EQ(ownership.size(), 49U);
  float x_cells = 0;
  for (int cell = 0; cell < 49; ++cell) {
    const float owner = ownership[cell];
    EXPECT_GE(owner, -1.0f);
    EXPECT_LE(owner, 1.0f);
    if (pos.pieces(Color::kX) & bit(static_cast<Square>(cell))) x_cells += owner / popcount(pos.pieces(Color::kX));
  }
  EXPECT_GT(x_cells, 0.7f);  // x's men stay x's, but for those o may still turn (d1, g4)
  for (const char* far_from_o : {"a7", "d7", "g7", "a4"}) {
    const int cell = AtaxxGame::parse_move_text(far_from_o, pos).to;
    EXPECT_GT(ownership[cell].get<float>(), 0.8f) << far_from_o;
  }
  EXPECT_GT(answer["rootInfo"]["scoreLead"].get<double>(), 30.0);  // of 49 cells: x's 42 men less o's 2
}

TEST(Analysis, ATurnAtTheEndOfTheGameIsAnsweredWithAnErrorAndTheOthersGoOn) {
  Session session;
  // x takes the last o man: the game is over after the move.
  session.send(R"({"id":"q","initialFen":"xo5/7/7/7/7/7/7 x 0 1","moves":["b6"],"analyzeTurns":[0,1],"maxVisits":8})");
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 2U) << json(answers).dump();
  EXPECT_TRUE(answers[0].contains("moveInfos"));
  EXPECT_EQ(answers[1]["turnNumber"], 1);
  EXPECT_EQ(answers[1]["isDuringSearch"], false);
  EXPECT_NE(answers[1]["error"].get<std::string>().find("the game is over"), std::string::npos);
}

TEST(Analysis, EveryGameAndBoardGoesToTheNetThatPlaysIt) {
  Session session;
  session.send_json(json{{"id", "hexagon"}, {"initialFen", AtaxxGame::start_of("hexagon").fen()}, {"maxVisits", 8}});
  session.send(R"({"id":"schataxx","variant":"schataxx-balanced","maxVisits":8})");
  session.send_json(json{{"id", "fen"}, {"initialFen", SchataxxGame::start().fen()}, {"maxVisits", 8}});
  const std::vector<json> answers = session.finish();
  ASSERT_EQ(answers.size(), 3U) << json(answers).dump();
  const auto hexagon = AtaxxGame::start_of("hexagon");
  const json hexagon_infos = with_id(answers, "hexagon").at(0)["moveInfos"];
  ASSERT_FALSE(hexagon_infos.empty());
  for (const json& info : hexagon_infos)
    EXPECT_TRUE(hexagon.is_legal(AtaxxGame::parse_move_text(info["move"].get<std::string>(), hexagon))) << info;
  const auto balanced = SchataxxGame::start_of("schataxx-balanced");
  const json schataxx_infos = with_id(answers, "schataxx").at(0)["moveInfos"];
  ASSERT_FALSE(schataxx_infos.empty());
  for (const json& info : schataxx_infos)
    EXPECT_TRUE(balanced.is_legal(SchataxxGame::parse_move_text(info["move"].get<std::string>(), balanced))) << info;
  EXPECT_EQ(with_id(answers, "fen").at(0)["rootInfo"]["currentPlayer"], "White");
}

TEST(Analysis, ReportsDuringASearchAndATerminatedSearchAnswersWithWhatItFound) {
  Session session;  // one thread: turn 1 waits while turn 0 searches
  session.send(R"({"id":"q","moves":["b6"],"analyzeTurns":[0,1],"maxVisits":100000000,"reportDuringSearchEvery":0.05})");
  const json interim = session.wait_for([](const json& a) { return a.value("isDuringSearch", false); });
  EXPECT_EQ(interim["turnNumber"], 0);
  EXPECT_GE(interim["moveInfos"].size(), 1U);
  session.send(R"({"id":"q","action":"terminate"})");  // no terminateId: the query of its own id
  const std::vector<json> answers = session.finish();
  std::vector<json> finals;
  for (const json& answer : answers)
    if (answer.contains("turnNumber") && !answer["isDuringSearch"]) finals.push_back(answer);
  ASSERT_EQ(finals.size(), 2U) << json(answers).dump();
  EXPECT_EQ(finals[0]["turnNumber"], 1);  // dropped unstarted, answered at once
  EXPECT_EQ(finals[0]["noResults"], true);
  EXPECT_EQ(finals[1]["turnNumber"], 0);
  EXPECT_LT(finals[1]["rootInfo"]["visits"], 100000000);
  EXPECT_GE(finals[1]["rootInfo"]["visits"], interim["rootInfo"]["visits"]);
  EXPECT_EQ(with_id(answers, "q").size(), answers.size());
  EXPECT_NE(std::find(answers.begin(), answers.end(), json::parse(R"({"id":"q","action":"terminate"})")), answers.end());
}

TEST(Analysis, TerminatesOnlyTheTurnsNamedAndTerminateAllStopsTheRest) {
  Session session;  // one thread: the short query waits while the long one searches
  session.send(R"({"id":"long","maxVisits":100000000,"reportDuringSearchEvery":0.05})");
  session.wait_for([](const json& a) { return a.value("isDuringSearch", false); });
  session.send(R"({"id":"short","moves":["b6"],"analyzeTurns":[0,1],"maxVisits":16})");
  session.send(R"({"id":"t0","action":"terminate","terminateId":"short","turnNumbers":[]})");  // none, as KataGo's
  session.send(R"({"id":"t1","action":"terminate","terminateId":"short","turnNumbers":[1]})");
  session.send(R"({"id":"t2","action":"terminate_all"})");
  const std::vector<json> answers = session.finish();
  const auto at = [&](const std::string& id, int turn) {
    for (std::size_t i = 0; i < answers.size(); ++i)
      if (answers[i].value("id", "") == id && answers[i].value("turnNumber", -1) == turn) return i;
    return answers.size();
  };
  const auto acknowledged = [&](const std::string& id) {
    for (std::size_t i = 0; i < answers.size(); ++i)
      if (answers[i].value("id", "") == id && answers[i].contains("action")) return i;
    return answers.size();
  };
  ASSERT_EQ(with_id(answers, "short").size(), 2U) << json(answers).dump();
  EXPECT_EQ(answers.at(at("short", 1))["noResults"], true);
  EXPECT_LT(at("short", 1), acknowledged("t1"));
  EXPECT_EQ(answers.at(at("short", 0))["noResults"], true);  // left by t1, dropped by t2
  EXPECT_GT(at("short", 0), acknowledged("t1"));
  EXPECT_LT(at("short", 0), acknowledged("t2"));
  const json long_final = with_id(answers, "long").back();
  EXPECT_EQ(long_final["isDuringSearch"], false);
  EXPECT_LT(long_final["rootInfo"]["visits"], 100000000);
}

TEST(Analysis, AQueryOfHigherPriorityIsSearchedBeforeTheQueuedOnes) {
  Session session;  // one thread
  session.send(R"({"id":"long","maxVisits":100000000,"reportDuringSearchEvery":0.05})");
  session.wait_for([](const json& a) { return a.value("isDuringSearch", false); });
  session.send(R"({"id":"low","maxVisits":8})");
  session.send(R"({"id":"high","maxVisits":8,"priority":5})");
  session.send(R"({"id":"t","action":"terminate","terminateId":"long"})");
  const std::vector<json> answers = session.finish();
  std::vector<std::string> finished;
  for (const json& answer : answers)
    if (answer.contains("rootInfo") && !answer["isDuringSearch"]) finished.push_back(answer["id"]);
  EXPECT_EQ(finished, (std::vector<std::string>{"long", "high", "low"}));
}

TEST(Analysis, AnEngineClosedWithTurnsQueuedAnswersEachOfThem) {
  std::vector<std::string> lines;
  std::mutex mutex;
  {
    Engine engine({.nets = &test_nets(), .threads = 1},
                  [&](const std::string& line) {
                    const std::lock_guard lock(mutex);
                    lines.push_back(line);
                  });
    engine.handle(R"({"id":"q","moves":["b6","f6"],"analyzeTurns":[2,0,1,0],"maxVisits":100000000})");
  }
  ASSERT_EQ(lines.size(), 3U);  // each turn once
  for (const std::string& line : lines) EXPECT_EQ(json::parse(line)["isDuringSearch"], false) << line;
}

}  // namespace
}  // namespace ataxx::analysis
