#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "mcts/simple_evaluators.h"
#include "players/alphabeta.h"
#include "players/baseline_players.h"
#include "players/mcts_player.h"

namespace ataxx {
namespace {

TEST(PlayerSpec, MakesEachKind) {
  for (const char* spec : {"random", "greedy", "alphabeta", "alphabeta:depth=2", "alphabeta:time=50",
                           "mcts:visits=10", "mcts:visits=10,eval=uniform,cpuct=2,batch=4"}) {
    auto player = make_player(spec);
    player->new_game(1);
    Game game;
    EXPECT_TRUE(game.position().is_legal(player->choose_move(game))) << spec;
  }
}

// A tree kept from the move before counts in a report's nodes; its speed is this search's own.
TEST(MctsPlayer, ReportsTheNodesItsTreeKeptFromTheMoveBefore) {
  auto player = make_player("mcts:visits=300");
  player->new_game(1);
  Game game;
  game.play(player->choose_move(game));
  const MoveReport first = player->last_report();
  EXPECT_EQ(first.reused_nodes, 0U);
  ASSERT_GE(first.pv.size(), 2U);
  game.play(first.pv[1]);  // the reply it expected: its subtree is kept
  player->choose_move(game);
  const MoveReport second = player->last_report();
  EXPECT_EQ(second.nodes, 300U);
  EXPECT_GT(second.reused_nodes, 1U);
  EXPECT_LT(second.reused_nodes, 300U);
  EXPECT_DOUBLE_EQ(second.nodes_per_second(), static_cast<double>(300 - second.reused_nodes) / second.seconds);
}

// A spec's hash (MiB, as UAI's Hash) bounds its tree's memory: the search stops there.
TEST(MctsPlayer, AHashBoundsItsTree) {
  for (const auto& [spec, bounded] : {std::pair{"mcts:visits=20000", false}, std::pair{"mcts:visits=20000,hash=1", true}}) {
    auto player = make_player(spec);
    player->new_game(1);
    player->choose_move(Game());
    const MoveReport report = player->last_report();
    ASSERT_TRUE(report.hashfull) << spec;
    EXPECT_EQ(report.nodes < 20000U, bounded) << spec << ": " << report.nodes << " nodes";
    EXPECT_EQ(*report.hashfull >= 700, bounded) << spec << ": hashfull " << *report.hashfull;
  }
}

// The interval between interim reports runs from a report's end: reports slower than it had been
// made one after another, and the search between them starved (a turn of 100,000 visits with
// reports every 10 ms ran minutes).
TEST(MctsPlayer, InterimReportsLeaveTheSearchItsIntervalAfterEach) {
  auto player = make_player("mcts:time=200");
  player->new_game(1);
  MoveLimits limits;
  limits.progress_interval_ms = 5;
  player->set_limits(limits);
  using Clock = std::chrono::steady_clock;
  std::vector<std::pair<Clock::time_point, Clock::time_point>> reports;  // each one's start and end
  player->on_progress([&](const MoveReport&) {
    const auto start = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // slower than the interval
    reports.emplace_back(start, Clock::now());
  });
  player->choose_move(Game());
  ASSERT_GE(reports.size(), 2U);
  for (std::size_t i = 1; i < reports.size(); ++i)
    EXPECT_GE(reports[i].first - reports[i - 1].second, std::chrono::milliseconds(5)) << "report " << i;
}

TEST(PlayerSpec, RejectsBadSpecs) {
  for (const char* spec : {"", "nobody", "alphabeta:depth=0", "alphabeta:depth=x", "alphabeta:width=3",
                           "mcts:visits", "mcts:visits=10,visits=20", "mcts:eval=magic", "mcts:hash=0", "random:seed=1"})
    EXPECT_THROW(make_player(spec), std::invalid_argument) << spec;
}

// A time alone is a search of that time, as `go movetime` is; with visits, the first reached ends it.
TEST(PlayerSpec, ATreeSearchGivenATimeAloneSearchesForThatTime) {
  auto visits_of = [](const char* text) {
    PlayerSpec spec(text);
    return read_search_params(spec, BasicSearchParams<AtaxxGame>{}).visits;
  };
  EXPECT_EQ(visits_of("mcts:time=100"), 100'000'000);
  EXPECT_EQ(visits_of("mcts:time=100,visits=50"), 50);
  EXPECT_EQ(visits_of("mcts:visits=50"), 50);
  EXPECT_EQ(visits_of("mcts"), BasicSearchParams<AtaxxGame>{}.visits);
  EXPECT_EQ(visits_of("mcts:time=0"), BasicSearchParams<AtaxxGame>{}.visits) << "time=0 is no time limit";
}

// A value in double quotes may hold commas (a model's path, say); its quotes are not part of it.
TEST(PlayerSpec, AQuotedValueHoldsCommas) {
  PlayerSpec spec(R"(nn:model="runs/a,b=c/models/best",visits=3,name=x=y)");
  EXPECT_EQ(spec.get_string("model", ""), "runs/a,b=c/models/best");
  EXPECT_EQ(spec.get_int("visits", 0, 1, 10), 3);
  EXPECT_EQ(spec.get_string("name", ""), "x=y");
  for (const char* bad : {R"(nn:model="runs/a,b)", R"(nn:model="a"b,visits=3)", "nn:model=a,,visits=3", "nn:=a"})
    EXPECT_THROW(PlayerSpec{bad}, std::invalid_argument) << bad;
}

TEST(PlayerSpec, ErrorNamesTheUnknownOption) {
  try {
    make_player("alphabeta:depth=2,width=3");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("width"), std::string::npos) << e.what();
  }
}

TEST(Greedy, TakesTheMostPieces) {
  // x on a1; o on c3, d3 and c4. Greedy must always pick a move of the largest gain.
  const Position pos = Position::from_fen("7/7/7/2o4/2oo3/7/x6 x 0 1");
  int best_gain = 0;
  MoveList moves;
  pos.generate_moves(moves);
  for (const Move m : moves) best_gain = std::max(best_gain, move_gain(pos, m));
  GreedyPlayer greedy;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    greedy.new_game(seed);
    EXPECT_EQ(move_gain(pos, greedy.choose_move(Game(pos))), best_gain);
  }
}

// greedy:random=P, the fixed references between random and greedy: a share P of its moves at random.
TEST(Greedy, PlaysTheShareOfRandomMovesItIsGiven) {
  const Position pos = Position::from_fen("7/7/7/2o4/2oo3/7/x6 x 0 1");
  MoveList moves;
  pos.generate_moves(moves);
  int best_gain = 0;
  for (const Move m : moves) best_gain = std::max(best_gain, move_gain(pos, m));
  auto misses = [&](const char* spec) {
    auto player = make_player(spec);
    int count = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
      player->new_game(seed);
      count += move_gain(pos, player->choose_move(Game(pos))) < best_gain;
    }
    return count;
  };
  const int all_random = misses("greedy:random=1");
  EXPECT_EQ(misses("greedy:random=0"), 0);
  EXPECT_GT(all_random, 160);  // 4 of the 7 moves from a1 gain less than the best: about 229
  const int half = misses("greedy:random=0.5");
  EXPECT_GT(half, all_random / 2 - 50);
  EXPECT_LT(half, all_random / 2 + 50);
  EXPECT_THROW(make_player("greedy:random=1.5"), std::invalid_argument);
}

TEST(Greedy, BreaksTiesAtRandom) {
  GreedyPlayer greedy;
  std::set<std::string> chosen;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    greedy.new_game(seed);
    chosen.insert(to_string(greedy.choose_move(Game()), board_7x7()));
  }
  EXPECT_GT(chosen.size(), 2U);  // the 6 clones at the start all gain one piece
}

AlphaBetaPlayer::Limits depth_limit(int depth) {
  AlphaBetaPlayer::Limits limits;
  limits.depth = depth;
  return limits;
}

TEST(AlphaBeta, FindsTheMoveThatWinsOutright) {
  // x: a1. o: c2 and c3. Only b2 and b3 capture both; a1c1 or a1c4 would take one.
  const Position pos = Position::from_fen("7/7/7/7/2o4/2o4/x6 x 0 1");
  for (int depth : {1, 2, 3}) {
    AlphaBetaPlayer player(depth_limit(depth));
    player.new_game(1);
    Position after = pos;
    const Move move = player.choose_move(Game(pos));
    after.make_move(move);
    EXPECT_EQ(after.outcome().result, Result::kXWins) << "depth " << depth << ": " << to_string(move, pos.board());
    EXPECT_EQ(player.last_report().mate, 1) << "depth " << depth;
  }
}

// A proven result's plies as `score mate N`: the mover's moves to the end, its last included. In
// Ataxx a side can end the game in its own loss (its move fills the board): lost in one ply read
// `mate 0`, and a loss in three as one in one.
TEST(MateInMoves, CountsTheMoversMovesToTheEnd) {
  EXPECT_EQ(mate_in_moves(1), 1);
  EXPECT_EQ(mate_in_moves(2), 1);  // the loser's forced reply ends it
  EXPECT_EQ(mate_in_moves(3), 2);
  EXPECT_EQ(mate_in_moves(-1), -1);
  EXPECT_EQ(mate_in_moves(-2), -1);
  EXPECT_EQ(mate_in_moves(-3), -2);
  EXPECT_EQ(mate_in_moves(-4), -2);
}

// `go mate N` searches at most 2N - 1 plies, lifting the player's own depth, and stops at the first
// win it proves. Here x wins in 2 moves (b6c5, then whatever o plays, a capture of every o), not in 1.
TEST(AlphaBeta, GoMateSearchesForAWinInThatManyMovesAndStopsAtTheFirst) {
  const Position pos = Position::from_fen("7/1x3o1/3o3/7/7/7/6x x 0 1");
  const auto search = [&](int mate) {
    AlphaBetaPlayer player(depth_limit(2));
    player.new_game(1);
    MoveLimits limits;
    limits.mate = mate;
    player.set_limits(limits);
    player.choose_move(Game(pos));
    return player.last_report();
  };
  const MoveReport one = search(1);
  EXPECT_EQ(one.depth, 1);
  EXPECT_FALSE(one.mate);
  for (int mate : {2, 3, 64, 1'000'000'000}) {
    const MoveReport report = search(mate);
    EXPECT_EQ(report.depth, 3) << mate;
    EXPECT_EQ(report.mate, 2) << mate;
  }
}

// The reported pv is the line the search expects: its move first, legal move by move, no deeper
// than the search (the table may cut it short); where it is whole and the game goes on, its last
// position's material is the score.
TEST(AlphaBeta, ReportsTheLineItExpects) {
  const Position start = Position::from_fen("x5o/7/2xo3/3x3/2oox2/7/o5x x 4 5");
  int whole = 0;
  for (int depth : {1, 2, 3, 4}) {
    AlphaBetaPlayer player(depth_limit(depth));
    player.new_game(1);
    const Move move = player.choose_move(Game(start));
    const MoveReport report = player.last_report();
    ASSERT_FALSE(report.pv.empty()) << depth;
    EXPECT_EQ(report.pv.front(), move) << depth;
    EXPECT_LE(std::ssize(report.pv), depth);
    Position pos = start;
    for (const Move m : report.pv) {
      ASSERT_TRUE(pos.is_legal(m)) << to_string(m, pos.board()) << " in " << pos.fen();
      pos.make_move(m);
    }
    if (std::ssize(report.pv) < depth || pos.outcome().is_over()) continue;
    ++whole;
    const Color us = start.side_to_move();
    EXPECT_EQ(report.score_cp, 100 * (popcount(pos.pieces(us)) - popcount(pos.pieces(~us)))) << depth;
  }
  EXPECT_GE(whole, 2) << "lines cut short at every depth";
}

// MultiPV: a line for each of the best moves, best first, each scored as a search one ply shorter
// from the position after it scores that (at depth 3 no position recurs: the table cannot make
// them differ).
TEST(AlphaBeta, MultiPvScoresEachLineAsTheSearchAfterItsMove) {
  const Position start = Position::from_fen("x5o/7/2xo3/3x3/2oox2/7/o5x x 4 5");
  AlphaBetaPlayer player(depth_limit(3));
  player.new_game(1);
  MoveLimits limits;
  limits.multi_pv = 4;
  player.set_limits(limits);
  const Move move = player.choose_move(Game(start));
  const MoveReport report = player.last_report();
  ASSERT_EQ(report.candidates.size(), 4U);
  EXPECT_EQ(report.candidates[0].move, move);
  EXPECT_EQ(report.candidates[0].pv, report.pv);
  EXPECT_EQ(report.candidates[0].score_cp, report.score_cp);
  std::set<std::string> moves;
  for (std::size_t i = 0; i < report.candidates.size(); ++i) {
    const auto& line = report.candidates[i];
    moves.insert(to_string(line.move, start.board()));
    EXPECT_EQ(line.depth, 3);
    EXPECT_EQ(line.pv.front(), line.move);
    if (i > 0) {
      EXPECT_LE(line.score_cp, report.candidates[i - 1].score_cp) << "best first";
    }
    Position after = start;
    after.make_move(line.move);
    AlphaBetaPlayer reply(depth_limit(2));
    reply.new_game(1);
    reply.choose_move(Game(after));
    EXPECT_EQ(reply.last_report().score_cp, -line.score_cp) << to_string(line.move, start.board());
  }
  EXPECT_EQ(moves.size(), 4U) << "four moves";

  AlphaBetaPlayer single(depth_limit(3));
  single.new_game(1);
  single.choose_move(Game(start));
  EXPECT_EQ(single.last_report().score_cp, report.score_cp) << "the other lines change nothing of the best one";
  EXPECT_TRUE(single.last_report().candidates.empty());
}

// `go nodes N` searches N nodes, not the next multiple of the 1024 the clock is read at.
TEST(AlphaBeta, ANodeLimitIsKeptToTheNode) {
  for (const int nodes : {1, 30, 300, 3000}) {
    AlphaBetaPlayer player(depth_limit(64));
    player.new_game(1);
    MoveLimits limits;
    limits.nodes = nodes;
    player.set_limits(limits);
    Game game;
    EXPECT_TRUE(game.position().is_legal(player.choose_move(game)));
    EXPECT_EQ(player.last_report().nodes, static_cast<std::uint64_t>(nodes)) << nodes;
  }
}

TEST(AlphaBeta, TimeLimitStillReturnsALegalMove) {
  AlphaBetaPlayer::Limits limits = depth_limit(64);
  limits.time_ms = 30;
  AlphaBetaPlayer player(limits);
  player.new_game(1);
  Game game;
  EXPECT_TRUE(game.position().is_legal(player.choose_move(game)));
}

}  // namespace
}  // namespace ataxx
