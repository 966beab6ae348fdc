// How players play Schataxx (the contract's Play, games/game_type.h): the network player's
// defaults, the clock's estimate of the moves left, and the baselines' heuristics, by area.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "games/schataxx/position.h"

namespace ataxx::schataxx {

// Positions alike in all the search and the network see: the position, the plies since the last
// drop and the ply itself (the balanced variant's first plies differ).
std::uint64_t transposition_key(const Position& pos);

struct Play {
  // Measured per game (docs/experiments.md): flatter priors than Ataxx's, the most visited move
  // (which scored better against alpha-beta than a lower confidence bound), and c_puct 1.0, which
  // beat 1.5 55-45 in 400 games at 100 ms a move.
  static constexpr float kPolicyTemperature = 3.0f;
  static constexpr float kLcbStdevs = 0.0f;
  static constexpr bool kSolver = false;  // not measured in Schataxx
  static std::optional<float> c_puct(const Position&) { return 1.0f; }
  // From the men left in both stocks (about 18 moves a man, at most 152), and with both stocks
  // empty from the plies left before the game ends without a drop; in the unlimited variant, whose
  // soldiers never run out, from the empty squares (about one each).
  static int expected_moves_left(const Position& pos);

  static constexpr int kAlphaBetaDepth = 2;
  static constexpr int kTerminalDepth = 2;
  static constexpr int kCentipawnsAPoint = 10;  // a square of area is ten points, a hundred centipawns
  // The side to move's area less the other side's, ten points a square, plus its men less the
  // other side's.
  static int score(const Position& pos) {
    const Color us = pos.side_to_move();
    return 10 * (pos.area(us) - pos.area(~us)) + popcount(pos.men(us)) - popcount(pos.men(~us));
  }
  // Men turned, a drop's man; a king turned above all (below the table's move, 100).
  static int order_gain(const Position& pos, Move move) {
    constexpr int kKingTurned = 50;
    const Bitboard turned = pos.turned_by(move);
    if (turned & pos.men(PieceType::kKing)) return kKingTurned;
    return popcount(turned) + (move.is_drop() ? 1 : 0);
  }
  // The ply limit ends games: positions alike but for the plies since the last drop differ.
  static std::uint64_t table_key(const Position& pos) { return transposition_key(pos); }
  static int greedy_value(const Position& pos, Move move) {  // the mover's area after it
    Position child = pos;
    child.make_move(move);
    return child.area(pos.side_to_move());
  }
  // Uniform priors; the value grows with the side to move's lead in area.
  static constexpr std::string_view kHeuristicName = "area";
  static float heuristic_prior_logit(const Position&, Move) { return 0.0f; }
  static float heuristic_expectation(const Position& pos);
};

}  // namespace ataxx::schataxx
