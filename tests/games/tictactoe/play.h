// How players play tic-tac-toe: the search's defaults, and baselines that take a win, block a
// loss and otherwise prefer the centre.
#pragma once

#include <optional>
#include <string_view>

#include "tests/games/tictactoe/position.h"

namespace ataxx::tictactoe {

struct Play {
  static constexpr float kPolicyTemperature = 1.0f;
  static constexpr float kLcbStdevs = 0.0f;
  static constexpr bool kSolver = false;
  static std::optional<float> c_puct(const Position&) { return std::nullopt; }
  static int expected_moves_left(const Position& pos) { return (popcount(pos.empty()) + 1) / 2; }

  static constexpr int kAlphaBetaDepth = kCells;  // the whole game
  static constexpr int kTerminalDepth = kCells;
  static constexpr int kCentipawnsAPoint = 100;
  static int score(const Position&) { return 0; }  // only the end of the game counts
  static int order_gain(const Position&, Move move) { return move.cell == 4 ? 1 : 0; }
  static std::uint64_t table_key(const Position& pos) { return pos.hash(); }
  // A win, then a block of the other side's line, then the centre.
  static int greedy_value(const Position& pos, Move move) {
    const Bitboard cell = Bitboard{1} << move.cell;
    const Color us = pos.side_to_move();
    return has_line(pos.men(us) | cell) ? 3 : has_line(pos.men(~us) | cell) ? 2 : move.cell == 4 ? 1 : 0;
  }
  static constexpr std::string_view kHeuristicName = "centre";
  static float heuristic_prior_logit(const Position&, Move move) { return move.cell == 4 ? 1.0f : 0.0f; }
  static float heuristic_expectation(const Position&) { return 0.0f; }
};

}  // namespace ataxx::tictactoe
