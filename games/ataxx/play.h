// How players play Ataxx (the contract's Play, games/game_type.h): the network player's defaults,
// the clock's estimate of the moves left, and the baselines' heuristics, all by material.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "games/ataxx/position.h"

namespace ataxx {

// Pieces the side to move gains by the move (captures, plus one for a single).
int move_gain(const Position& pos, Move move);

struct AtaxxPlay {
  // Flatter priors than the net's (docs/experiments.md).
  static constexpr float kPolicyTemperature = 2.0f;
  static constexpr float kLcbStdevs = 4.0f;
  static constexpr bool kSolver = true;  // +28 Elo at 100 ms a move (216-184), more against Zataxx
  // The search's c_puct, tuned on 7x7, but 1.0 on the boards of more than 7x7's 49 cells (8x8, the
  // hexagon), where it beat 1.5 at 100 ms a move and was level on 5x5 to 7x7.
  static std::optional<float> c_puct(const Position& pos) {
    return pos.board().num_cells > 49 ? std::optional(1.0f) : std::nullopt;
  }
  // From the empty cells left (a fit to played games: about one per empty cell, as jumps fill nothing).
  static int expected_moves_left(const Position& pos);

  static constexpr int kAlphaBetaDepth = 3;
  static constexpr int kTerminalDepth = 4;
  static constexpr int kCentipawnsAPoint = 100;  // a man
  static int score(const Position& pos) {
    const Color us = pos.side_to_move();
    return popcount(pos.pieces(us)) - popcount(pos.pieces(~us));
  }
  static int order_gain(const Position& pos, Move move) { return move_gain(pos, move); }
  static std::uint64_t table_key(const Position& pos) { return pos.hash(); }
  static int greedy_value(const Position& pos, Move move) { return move_gain(pos, move); }
  // Priors by the men a move gains (a ratio of e a man); the value grows with the men ahead.
  static constexpr std::string_view kHeuristicName = "material";
  static float heuristic_prior_logit(const Position& pos, Move move) { return static_cast<float>(move_gain(pos, move)); }
  static float heuristic_expectation(const Position& pos);
};

}  // namespace ataxx
