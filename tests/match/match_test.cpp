#include "match/match.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "match/openings.h"
#include "players/alphabeta.h"
#include "players/baseline_players.h"

namespace ataxx {
namespace {

class ThrowingPlayer final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game&) override { throw std::runtime_error("out of order"); }
};

class IllegalPlayer final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game&) override { return parse_move("d4", board_7x7()); }
};

// Records the clock it is given before each move and takes `think` over each move.
class ClockedPlayer final : public Player {
 public:
  explicit ClockedPlayer(std::chrono::milliseconds think) : think_(think) {}
  void new_game(std::uint64_t) override {}
  void set_limits(const MoveLimits& limits) override { clocks.push_back(limits.clock); }
  Move choose_move(const Game& game) override {
    std::this_thread::sleep_for(think_);
    return moves_to_search<AtaxxGame>(game)[0];
  }
  std::vector<GameClock> clocks;

 private:
  std::chrono::milliseconds think_;
};

MatchConfig config(const std::string& p1, const std::string& p2, int games, int concurrency) {
  MatchConfig c;
  c.player1 = p1;
  c.player2 = p2;
  c.games = games;
  c.concurrency = concurrency;
  c.openings = default_openings();
  c.seed = 99;
  return c;
}

TEST(Match, FixedSeedIsReproducibleWhateverTheConcurrency) {
  const MatchResult a = run_match(config("greedy", "random", 12, 1));
  const MatchResult b = run_match(config("greedy", "random", 12, 3));
  ASSERT_EQ(a.games.size(), 12U);
  ASSERT_EQ(b.games.size(), 12U);
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(a.games[i].moves, b.games[i].moves) << i;
    EXPECT_EQ(a.games[i].outcome, b.games[i].outcome) << i;
  }
  EXPECT_EQ(a.score.wins, b.score.wins);
  MatchConfig other_seed = config("greedy", "random", 12, 1);
  other_seed.seed = 100;
  const MatchResult c = run_match(other_seed);
  bool any_different = false;
  for (int i = 0; i < 12; ++i) any_different |= a.games[i].moves != c.games[i].moves;
  EXPECT_TRUE(any_different);
}

TEST(Match, ColoursAlternateOnEachOpening) {
  const MatchResult result = run_match(config("random", "random", 4, 1));
  EXPECT_TRUE(result.games[0].player1_is_x);
  EXPECT_FALSE(result.games[1].player1_is_x);
  EXPECT_EQ(result.games[0].start, result.games[1].start);
  EXPECT_NE(result.games[1].start, result.games[2].start);
}

TEST(Match, AFailingPlayerLosesAndTheMatchGoesOn) {
  register_player_kind("test-throws", [](PlayerSpec&) { return std::make_unique<ThrowingPlayer>(); });
  register_player_kind("test-illegal", [](PlayerSpec&) { return std::make_unique<IllegalPlayer>(); });
  for (const char* bad : {"test-throws", "test-illegal"}) {
    const MatchResult result = run_match(config("random", bad, 6, 2));
    EXPECT_EQ(result.score.wins, 6) << bad;
    for (const GameRecord& game : result.games) EXPECT_FALSE(game.failure.empty());
  }
}

// A Ctrl-C reaches the engines as well as the match: the engine dies mid-move as the stop arrives.
std::atomic<bool> g_stop{false};
class StoppedEngine final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game&) override {
    g_stop = true;
    throw std::runtime_error("uai engine 'zataxx' exited");
  }
};

TEST(Match, AnEngineEndedByTheStopForfeitsNothing) {
  register_player_kind("test-stopped-engine", [](PlayerSpec&) { return std::make_unique<StoppedEngine>(); });
  g_stop = false;
  MatchConfig c = config("random", "test-stopped-engine", 10, 1);
  c.stopped = [] { return g_stop.load(); };
  int reported = 0;
  const MatchResult result = run_match(c, [&](const GameRecord&, const MatchScore&) { ++reported; });
  EXPECT_TRUE(result.stopped);
  EXPECT_EQ(result.score.games(), 0);
  EXPECT_TRUE(result.games.empty());
  EXPECT_EQ(reported, 0);
}

// A signal's stop reaches a player in mid-move, timed game or not: it is its limits' stop flag.
std::atomic<bool> g_interrupt{false};
std::atomic<int> g_answered_the_stop{0};
class StopWatchingPlayer final : public Player {
 public:
  void new_game(std::uint64_t) override {}
  Move choose_move(const Game& game) override {
    g_interrupt = true;  // as a signal would, in mid-move
    if (!limits_.stop || !limits_.stop->load()) throw std::runtime_error("would have thought on");
    ++g_answered_the_stop;
    return moves_to_search<AtaxxGame>(game)[0];
  }
};

TEST(Match, AnInterruptReachesThePlayerInMidMove) {
  register_player_kind("test-stop-watching", [](PlayerSpec&) { return std::make_unique<StopWatchingPlayer>(); });
  for (const std::string time_control : {"", "10+0.1"}) {
    g_interrupt = false;
    g_answered_the_stop = 0;
    MatchConfig c = config("test-stop-watching", "random", 4, 1);
    if (!time_control.empty()) c.time_control = parse_time_control(time_control);
    c.interrupt = &g_interrupt;
    const MatchResult result = run_match(c);
    EXPECT_TRUE(result.stopped) << time_control;
    EXPECT_TRUE(result.games.empty()) << time_control;  // the game stopped has no result
    EXPECT_EQ(g_answered_the_stop, 1) << time_control;
  }
}

TEST(Match, EachPlayerIsGivenItsOwnClockWithTheIncrement) {
  ClockedPlayer x(std::chrono::milliseconds(0));
  ClockedPlayer o(std::chrono::milliseconds(20));
  const GameRecord game = play_game(x, o, Position::startpos(), {}, TimeControl{10'000, 5});
  EXPECT_EQ(game.failure, "");
  ASSERT_GE(o.clocks.size(), 3U);
  EXPECT_EQ(x.clocks[0].own_ms, 10'000);
  EXPECT_EQ(x.clocks[0].own_increment_ms, 5);
  EXPECT_EQ(o.clocks[0].own_ms, 10'000);
  for (std::size_t i = 1; i < o.clocks.size(); ++i) {
    const int spent = o.clocks[i - 1].own_ms - o.clocks[i].own_ms;  // 20 ms or a little more, less the increment
    EXPECT_GE(spent, 15) << i;
    EXPECT_LT(spent, 1000) << i;
    EXPECT_EQ(x.clocks[i].opponent_ms, o.clocks[i].own_ms) << i;  // x sees o's clock
  }
}

TEST(Match, APlayerPastItsClockLosesOnTime) {
  register_player_kind("test-slow", [](PlayerSpec&) { return std::make_unique<ClockedPlayer>(std::chrono::milliseconds(40)); });
  MatchConfig c = config("test-slow", "random", 2, 1);
  c.time_control = parse_time_control("0.1");
  const MatchResult result = run_match(c);
  EXPECT_EQ(result.score.losses, 2);
  for (const GameRecord& game : result.games) EXPECT_NE(game.failure.find("lost on time"), std::string::npos) << game.failure;
}

TEST(Match, AnOverrunWithinTheTimeMarginLeavesTheClockAtZero) {
  ClockedPlayer x(std::chrono::milliseconds(10));
  RandomPlayer o;
  o.new_game(1);
  const GameRecord game = play_game(x, o, Position::startpos(), {}, TimeControl{.base_ms = 20, .increment_ms = 5, .margin_ms = 500});
  EXPECT_EQ(game.failure, "");  // x overruns its clock within a few moves
  ASSERT_GE(x.clocks.size(), 6U);
  for (const GameClock& clock : x.clocks) {
    EXPECT_GE(clock.own_ms, 0);
    EXPECT_LE(clock.own_ms, 20);
  }
  EXPECT_EQ(x.clocks.back().own_ms, 5);  // zero after the overrun, plus the increment
}

// Plays random moves and reports a search of `nps` nodes a second for each.
class ReportingPlayer final : public Player {
 public:
  explicit ReportingPlayer(int nps) : nps_(nps) {}
  void new_game(std::uint64_t seed) override { random_.new_game(seed); }
  Move choose_move(const Game& game) override {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    return random_.choose_move(game);
  }
  MoveReport last_report() const override {
    MoveReport report;
    report.nodes = 500;
    report.reused_nodes = 100;
    report.seconds = 400.0 / nps_;
    return report;
  }

 private:
  int nps_;
  RandomPlayer random_;
};

// Each player's speed comes from its own moves, as x and as o, whichever colour moves first.
TEST(Match, ReportsEachPlayersNodesPerSecond) {
  register_player_kind("test-reports", [](PlayerSpec& spec) {
    return std::make_unique<ReportingPlayer>(spec.get_int("nps", 1, 1, 1'000'000));
  });
  MatchConfig c = config("test-reports:nps=2000", "test-reports:nps=5000", 6, 2);
  c.openings = {Position::startpos(), Position::from_fen("x5o/7/7/7/7/7/o5x o 0 1")};  // o moves first in the second
  const MatchResult result = run_match(c);
  ASSERT_EQ(result.games.size(), 6U);
  EXPECT_NEAR(*nodes_per_second(result, true), 2000, 1e-6);
  EXPECT_NEAR(*nodes_per_second(result, false), 5000, 1e-6);
  const MatchResult unsearched = run_match(config("test-reports:nps=2000", "random", 2, 1));
  EXPECT_NEAR(*nodes_per_second(unsearched, true), 2000, 1e-6);
  EXPECT_FALSE(nodes_per_second(unsearched, false)) << "random reports no search";
}

// A decided endgame's visits end at finished games and run at millions a second: one such move
// must not outweigh a game of ordinary ones (a mean weighted by time gave 9 times the median).
TEST(Match, NodesPerSecondIsTheMedianMove) {
  GameRecord game;
  game.start = Position::startpos();
  game.player1_is_x = true;
  for (const double nps : {50'000.0, 1.0, 52'000.0, 2.0, 48'000.0, 3.0, 5'000'000.0, 4.0, 51'000.0, 5.0})
    game.comments.push_back(
        MoveComment{.score_cp = {}, .mate = {}, .depth = 0, .seconds = 0.1, .nodes_per_second = nps});
  MatchResult result;
  result.games = {game};
  EXPECT_DOUBLE_EQ(*nodes_per_second(result, true), 51'000) << "player 1 (x) made the moves 0, 2, 4, 6, 8";
  EXPECT_DOUBLE_EQ(*nodes_per_second(result, false), 3);
  result.games.front().comments.pop_back();
  result.games.front().comments.pop_back();  // player 1's 51,000 gone: four moves
  EXPECT_DOUBLE_EQ(*nodes_per_second(result, true), 51'000) << "the mean of the middle two, 50,000 and 52,000";
}

TEST(Match, TimeControlsReadAsCutechessWritesThem) {
  EXPECT_EQ(parse_time_control("10+0.1").base_ms, 10'000);
  EXPECT_EQ(parse_time_control("10+0.1").increment_ms, 100);
  EXPECT_EQ(parse_time_control("0.5").base_ms, 500);
  EXPECT_EQ(parse_time_control("0.5").increment_ms, 0);
  for (const char* bad : {"", "+1", "0", "-5+1", "10+", "10+-1", "ten", "10+0.1+1", "1e9"})
    EXPECT_THROW(parse_time_control(bad), std::invalid_argument) << bad;
  for (const char* text : {"10+0.1", "0.5", "3+0.03", "60"}) EXPECT_EQ(to_string(parse_time_control(text)), text);
}

TEST(Match, SprtStopsEarly) {
  MatchConfig c = config("greedy", "random", 400, 1);
  c.sprt = SprtParams{.elo0 = 0, .elo1 = 50, .alpha = 0.05, .beta = 0.05};  // every field given
  const MatchResult result = run_match(c);
  EXPECT_EQ(result.verdict, SprtVerdict::kAcceptH1);
  EXPECT_LT(result.score.games(), 400);
  EXPECT_EQ(static_cast<int>(result.games.size()), result.score.games());
}

TEST(MatchTally, AVerdictOnceReachedIsFinal) {
  MatchTally tally;
  tally.sprt = SprtParams{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
  GameRecord loss;
  loss.outcome.result = Result::kOWins;  // player 1 is x
  GameRecord win;
  win.outcome.result = Result::kXWins;
  while (tally.verdict == SprtVerdict::kContinue) tally.add(loss);
  ASSERT_EQ(tally.verdict, SprtVerdict::kAcceptH0);
  const double llr = tally.llr;
  for (int i = 0; i < 50; ++i) tally.add(win);  // games that were still being played
  EXPECT_EQ(tally.verdict, SprtVerdict::kAcceptH0);
  EXPECT_EQ(tally.llr, llr);
  EXPECT_EQ(tally.score.wins, 50);
}

// Plays random legal moves. The first one made (the match's up-front check's, which the first
// thread then plays with) takes 300 ms to start its first game in the match and then gives up; the
// others wait until that game has started, so that it ends after the other thread's games have
// decided the SPRT.
std::atomic<int> g_made{0};
std::atomic<bool> g_slow_game_started{false};
class SlowStarter final : public Player {
 public:
  explicit SlowStarter(bool slow) : slow_(slow) {}
  void new_game(std::uint64_t seed) override {
    if (slow_ && ++new_games_ == 2) {  // its first was the up-front check's
      g_slow_game_started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      throw std::runtime_error("cannot start");
    }
    while (!slow_ && !g_slow_game_started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    random_.new_game(seed);
  }
  Move choose_move(const Game& game) override { return random_.choose_move(game); }

 private:
  bool slow_;
  int new_games_ = 0;
  RandomPlayer random_;
};

TEST(Match, SprtVerdictStandsWhenGamesInFlightFinishAfterIt) {
  register_player_kind("test-throws", [](PlayerSpec&) { return std::make_unique<ThrowingPlayer>(); });
  register_player_kind("test-slow-starter", [](PlayerSpec&) { return std::make_unique<SlowStarter>(g_made++ == 0); });
  g_made = 0;
  g_slow_game_started = false;
  MatchConfig c = config("test-slow-starter", "test-throws", 200, 2);
  c.sprt = SprtParams{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
  const MatchResult result = run_match(c);
  EXPECT_EQ(result.verdict, SprtVerdict::kAcceptH1);
  EXPECT_GE(result.llr, sprt_upper_bound(*c.sprt));
  EXPECT_EQ(result.score.losses, 1);  // the slow game counts, and cannot take the verdict back
  EXPECT_LT(result.score.games(), 200);
  EXPECT_EQ(static_cast<int>(result.games.size()), result.score.games());
}

TEST(Match, AFailingGameThreadEndsTheMatchWithAnError) {
  static std::atomic<int> made{0};
  register_player_kind("test-unmakeable", [](PlayerSpec&) -> std::unique_ptr<Player> {
    if (made++ > 0) throw std::runtime_error("model file vanished");
    return std::make_unique<RandomPlayer>();
  });
  try {
    run_match(config("test-unmakeable", "random", 8, 3));
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("model file vanished"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test-unmakeable vs random"), std::string::npos) << e.what();
  }
}

TEST(Match, PlayedGamesEndByTheRules) {
  const MatchResult result = run_match(config("greedy", "random", 6, 2));
  for (const GameRecord& game : result.games) {
    Game replay(game.start);
    for (const Move m : game.moves) replay.play(m);
    EXPECT_EQ(replay.outcome(), game.outcome);
  }
}

TEST(Pgn, WritesTagsMovesAndResult) {
  GameRecord game;
  game.index = 4;
  game.player1_is_x = false;
  game.start = Position::startpos();
  for (const char* m : {"g2", "a2", "a7c5"}) game.moves.push_back(parse_move(m, board_7x7()));
  game.outcome = {Result::kDraw, EndReason::kHalfmoveClock};
  const std::string pgn = to_pgn(game, "alpha", "beta", "test");
  EXPECT_NE(pgn.find("[Round \"5\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[Black \"beta\"]"), std::string::npos);  // x is Black; player 2 had x
  EXPECT_NE(pgn.find("[White \"alpha\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]"), std::string::npos);
  EXPECT_NE(pgn.find("\n1. g2 a2 2. a7c5 1/2-1/2\n"), std::string::npos) << pgn;
  EXPECT_EQ(pgn.find("TimeControl"), std::string::npos);
  EXPECT_NE(to_pgn(game, "alpha", "beta", "test", TimeControl{3000, 30}).find("[TimeControl \"3+0.03\"]\n"),
            std::string::npos);
}

// cutechess-cli's move comments: score in hundreds of centipawns and depth, a mate as M, the time.
TEST(Pgn, CommentsEachMoveWithWhatItsPlayerSaid) {
  GameRecord game;
  game.start = Position::startpos();
  for (const char* m : {"g2", "a2", "a7c5"}) game.moves.push_back(parse_move(m, board_7x7()));
  game.comments = {{.score_cp = 25, .mate = {}, .depth = 12, .seconds = 0.5124},
                   {.score_cp = {}, .mate = {}, .depth = 0, .seconds = 0.0004},
                   {.score_cp = {}, .mate = -3, .depth = 5, .seconds = 1.0}};
  game.outcome = {Result::kOWins, EndReason::kNoMoves};
  const std::string pgn = to_pgn(game, "alpha", "beta", "test");
  EXPECT_NE(pgn.find("\n1. g2 {+0.25/12 0.512s} a2 {0.000s} 2. a7c5 {-M3/5 1.000s} 0-1\n"), std::string::npos) << pgn;
}

TEST(Pgn, WritesSchataxxAsChessVariantsDo) {
  BasicGameRecord<SchataxxGame> game;
  game.player1_is_x = true;
  game.start = schataxx::Position::startpos(schataxx::Variant::kBalanced);
  for (const char* m : {"P@b2", "N@g2", "h8f7"}) game.moves.push_back(schataxx::parse_move(m));
  game.outcome = {Result::kOWins, EndReason::kRepetition};
  const std::string pgn = to_pgn(game, "alpha", "beta", "test");
  EXPECT_NE(pgn.find("[White \"alpha\"]"), std::string::npos) << pgn;  // White moves first: player 1 had it
  EXPECT_NE(pgn.find("[Black \"beta\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Variant \"schataxx-balanced\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[FEN \"" + std::string(schataxx::Position::kStartFen) + "\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("\n1. P@b2 N@g2 2. h8f7 0-1\n"), std::string::npos) << pgn;
}

TEST(Openings, TwoPliesFromTheStart) {
  const auto openings = default_openings();
  EXPECT_EQ(openings.size(), 256U);  // 16 x 16, no transpositions at 2 plies
  std::set<std::string> fens;
  for (const Position& pos : openings) {
    EXPECT_EQ(pos.side_to_move(), Color::kX);
    fens.insert(pos.fen());
  }
  EXPECT_EQ(fens.size(), openings.size());
  EXPECT_EQ(default_openings()[0], openings[0]);  // a fixed order
}

TEST(Openings, BalancedKeepsOnlyWhatTheJudgeCallsEvenInOrder) {
  // Two lopsided positions (x four pieces up, then o) around two even ones.
  const std::vector<Position> suite = {
      Position::from_fen("xxxxx1o/7/7/7/7/7/o5x x 0 1"), Position::startpos(),
      Position::from_fen("oooooxx/7/7/7/7/7/o6 x 0 1"), Position::from_fen("x5o/7/7/7/7/7/o5x o 0 1")};
  AlphaBetaPlayer judge({.depth = 1});
  const auto balanced = balanced_openings(suite, judge, 150, 10);
  ASSERT_EQ(balanced.size(), 2U);
  EXPECT_EQ(balanced[0], suite[1]);
  EXPECT_EQ(balanced[1], suite[3]);
  EXPECT_EQ(balanced_openings(suite, judge, 150, 1).size(), 1U);
}

TEST(Openings, ShippedSuitesLoad) {
  for (const char* name : {"startpos-2ply", "gaps-four-2ply", "gaps-five-2ply", "mixed-2ply"}) {
    const auto suite = load_openings(std::string(ATAXX_SOURCE_DIR) + "/configs/openings/" + name + ".txt");
    EXPECT_GE(suite.size(), 196U) << name;
  }
  EXPECT_EQ(load_openings(std::string(ATAXX_SOURCE_DIR) + "/configs/openings/mixed-2ply.txt").size(), 648U);
}

TEST(Openings, FileRoundTripAndErrors) {
  const std::string path = testing::TempDir() + "/openings.txt";
  const auto openings = generate_openings(Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"), 1);
  save_openings(path, openings, "test");
  const auto loaded = load_openings(path);
  ASSERT_EQ(loaded.size(), openings.size());
  for (std::size_t i = 0; i < loaded.size(); ++i) EXPECT_EQ(loaded[i].fen(), openings[i].fen());
  EXPECT_THROW(load_openings(path + ".missing"), std::runtime_error);
  {
    std::ofstream bom(path);  // as Windows editors save UTF-8
    bom << "\xEF\xBB\xBFx5o/7/7/7/7/7/o5x x 0 1\n";
  }
  EXPECT_EQ(load_openings(path).size(), 1U);
  try {
    load_openings(testing::TempDir());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
  {
    std::ofstream bad(path);
    bad << "# comment\nx5o/7/7/7/7/7/o5x x 0 1\nnot a fen\n";
  }
  try {
    load_openings(path);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":3:"), std::string::npos) << e.what();
  }
}

TEST(Openings, ASchataxxFileLoadsInItsVariantWithTheSameChecks) {
  const std::string path = testing::TempDir() + "/schataxx-openings.txt";
  const auto read = [&] {
    return load_openings<schataxx::Position>(path, [](const std::string& fen) {
      return schataxx::Position::from_fen(fen, schataxx::Variant::kUnlimited);
    });
  };
  {
    std::ofstream file(path);
    file << "# two\n" << schataxx::Position::kStartFen << "\n\nk6N/8/8/8/8/8/1P6/K6n[QRRBBNPPPPPPPqrrbbnpppppppp] b - - 0 1\n";
  }
  const auto loaded = read();
  ASSERT_EQ(loaded.size(), 2U);
  EXPECT_EQ(loaded[1].variant(), schataxx::Variant::kUnlimited);
  EXPECT_EQ(loaded[1].side_to_move(), Color::kO);
  {
    std::ofstream file(path);
    file << schataxx::Position::kStartFen << "\nk6N/8/8/8/8/8/8/K6n[QQRRBBNPPPPPPPPqrrbbnpppppppp] w - - 0 1\n";
  }
  try {
    read();
    FAIL() << "a stock of two queens was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2:"), std::string::npos) << e.what();
  }
}

// The same match runner plays Schataxx: its players from Schataxx's specs, both colours, in parallel.
TEST(Match, TheSameRunnerPlaysSchataxx) {
  BasicMatchConfig<SchataxxGame> config;
  config.player1 = "alphabeta:depth=2";
  config.player2 = "greedy";
  config.games = 8;
  config.concurrency = 2;
  config.openings = {schataxx::Position::startpos(), schataxx::Position::startpos(schataxx::Variant::kBalanced)};
  std::vector<int> seen;
  const BasicMatchResult<SchataxxGame> result =
      run_match(config, [&](const BasicGameRecord<SchataxxGame>& game, const MatchScore&) { seen.push_back(game.index); });
  ASSERT_EQ(result.games.size(), 8U);
  EXPECT_EQ(seen.size(), 8U);
  for (const auto& game : result.games) {
    EXPECT_EQ(game.failure, "");
    EXPECT_TRUE(game.outcome.is_over());
    EXPECT_EQ(game.start, config.openings[(game.index / 2) % 2]);
  }
  EXPECT_GE(result.score.wins, 6);
  config.player2 = "tiktaxx";  // no player kind
  EXPECT_THROW(run_match(config), std::invalid_argument);
}

}  // namespace
}  // namespace ataxx
