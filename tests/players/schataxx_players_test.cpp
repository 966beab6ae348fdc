#include "players/baseline_players.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <vector>

#include "nn/inference_server.h"
#include "players/alphabeta.h"

namespace ataxx {
namespace {

// Games between two Schataxx players from the start, each side playing x (White) in half of them;
// returns the first player's points (1 a win, 0.5 a draw).
double play_games(const std::string& first, const std::string& second, int games) {
  double points = 0;
  for (int g = 0; g < games; ++g) {
    auto a = make_player<SchataxxGame>(first), b = make_player<SchataxxGame>(second);
    a->new_game(2 * g + 1);
    b->new_game(2 * g + 2);
    const bool first_is_white = g % 2 == 0;
    schataxx::Game game;
    while (!game.outcome().is_over()) {
      const bool white_to_move = game.position().side_to_move() == schataxx::kWhite;
      BasicPlayer<SchataxxGame>& mover = white_to_move == first_is_white ? *a : *b;
      game.play(mover.choose_move(game));
    }
    points += (result_for(first_is_white ? Color::kX : Color::kO, game.outcome().result) + 1) / 2.0;
  }
  return points;
}

TEST(SchataxxPlayers, SpecsMakeTheBaselinesAndRefuseOthers) {
  for (const char* spec : {"random", "greedy", "alphabeta", "alphabeta:depth=1", "alphabeta:time=50", "mcts:visits=50",
                           "mcts:eval=uniform", "uai:cmd=engine"})
    EXPECT_NO_THROW(make_player<SchataxxGame>(spec)) << spec;
  EXPECT_THROW(make_player<SchataxxGame>("alphabeta:depth=65"), std::invalid_argument);
  EXPECT_THROW(make_player<SchataxxGame>("uai"), std::invalid_argument);  // a UAI engine needs cmd=
  EXPECT_THROW(make_player<SchataxxGame>("greedy:depth=2"), std::invalid_argument);
}

// `nn` plays Schataxx with a Schataxx network, under the model's rules, and refuses an Ataxx one.
TEST(SchataxxPlayers, TheNetworkPlayerTakesASchataxxModelOnly) {
  const std::string schataxx_net = testing::TempDir() + "/schataxx-player.net";
  const std::string ataxx_net = testing::TempDir() + "/ataxx-player.net";
  write_random_play_file(schataxx_net, {1, 8}, 5, {}, {100, 2}, SchataxxGame::kName);
  write_random_play_file(ataxx_net, {1, 8}, 5);
  auto player = make_player<SchataxxGame>("nn:model=" + schataxx_net + ",visits=16");
  player->new_game(1);
  const schataxx::Game game;
  EXPECT_TRUE(game.position().is_legal(player->choose_move(game)));
  EXPECT_THROW(make_player<SchataxxGame>("nn:model=" + ataxx_net), ModelFileError);
}

TEST(SchataxxPlayers, EachBaselineBeatsTheOneBelowIt) {
  EXPECT_GE(play_games("greedy", "random", 20), 18.0);
  EXPECT_GE(play_games("alphabeta:depth=2", "greedy", 10), 7.0);
  EXPECT_GE(play_games("mcts:visits=200", "random", 6), 5.0);  // the shared search, on Schataxx
}

TEST(SchataxxPlayers, AlphaBetaTakesAKingWhenItCan) {
  auto player = make_player<SchataxxGame>("alphabeta:depth=2");
  player->new_game(1);
  const schataxx::Game game(schataxx::Position::from_fen(
      "k7/2N5/8/8/8/8/8/K6n[QRRBBNPPPPPPPPqrrbbnpppppppp] w - - 0 1"));
  schataxx::Position after = game.position();
  after.make_move(player->choose_move(game));
  EXPECT_EQ(after.outcome().reason, EndReason::kKingTurned) << after.fen();
}

// Its report gives its move as the pv and its score: at depth 1, the best evaluation after a move,
// a hundred centipawns a square of area.
TEST(SchataxxPlayers, AlphaBetaReportsItsScoreAndMove) {
  auto player = make_player<SchataxxGame>("alphabeta:depth=1");
  player->new_game(1);
  const schataxx::Game game;
  const schataxx::Position& start = game.position();
  const auto move = player->choose_move(game);
  int best = std::numeric_limits<int>::min();
  schataxx::MoveList moves;
  start.generate_moves(moves);
  for (const auto m : moves) {
    schataxx::Position after = start;
    after.make_move(m);
    best = std::max(best, -SchataxxGame::Play::score(after));
  }
  const auto report = player->last_report();
  EXPECT_EQ(report.score_cp, 10 * best);
  EXPECT_NE(best, 0) << "a score a report without one would match";
  EXPECT_EQ(report.pv, std::vector{move});
  EXPECT_EQ(report.depth, 1);
  EXPECT_GT(report.nodes, 0U);
}

// The line it reports is the one it expects: its move first, legal move by move, no deeper than
// the search (the table may cut it short); where it is whole and the game goes on, its last
// position's evaluation, from the side to move at the root, is the score.
TEST(SchataxxPlayers, AlphaBetaReportsTheLineItExpects) {
  schataxx::Position start =
      schataxx::Position::from_fen("8/k4N2/8/8/8/8/8/K6n[QRRBBNPPPPPPPPqrrbbnpppppppp] w - - 2 2");
  for (const char* move : {"R@a2", "Q@a6", "R@g6", "R@b6", "Q@b3", "R@g2", "B@c2", "P@a8"})
    start.make_move(schataxx::parse_move(move));
  const Color us = start.side_to_move();
  int whole = 0;
  for (int depth : {1, 2, 3, 4}) {
    auto player = make_player<SchataxxGame>("alphabeta:depth=" + std::to_string(depth));
    player->new_game(1);
    const auto move = player->choose_move(schataxx::Game(start));
    const auto report = player->last_report();
    EXPECT_EQ(report.depth, depth);
    ASSERT_FALSE(report.pv.empty()) << depth;
    EXPECT_EQ(report.pv.front(), move) << depth;
    EXPECT_LE(std::ssize(report.pv), depth);
    schataxx::Position pos = start;
    for (const auto m : report.pv) {
      ASSERT_TRUE(pos.is_legal(m)) << schataxx::to_string(m) << " in " << pos.fen();
      pos.make_move(m);
    }
    if (std::ssize(report.pv) < depth || pos.outcome().is_over()) continue;
    ++whole;
    const int from_the_mover = pos.side_to_move() == us ? SchataxxGame::Play::score(pos) : -SchataxxGame::Play::score(pos);
    EXPECT_EQ(report.score_cp, 10 * from_the_mover) << depth;
  }
  EXPECT_GE(whole, 2) << "lines cut short at every depth";
}

// With a time limit it deepens until the time is up, and answers with a legal move all the same.
TEST(SchataxxPlayers, AlphaBetaWithATimeLimitPlaysALegalMove) {
  auto player = make_player<SchataxxGame>("alphabeta:time=30");
  player->new_game(1);
  const schataxx::Game game;
  EXPECT_TRUE(game.position().is_legal(player->choose_move(game)));
  EXPECT_GE(player->last_report().depth, 1);
}

}  // namespace
}  // namespace ataxx
