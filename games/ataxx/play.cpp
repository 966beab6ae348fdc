#include "games/ataxx/play.h"

#include <algorithm>
#include <cmath>

namespace ataxx {

int move_gain(const Position& pos, Move move) {
  if (move.is_pass()) return 0;
  return popcount(pos.board().clone_targets[move.to] & pos.pieces(~pos.side_to_move())) + (move.is_single() ? 1 : 0);
}

int AtaxxPlay::expected_moves_left(const Position& pos) {
  // Fitted (tools/moves_left.py) to 100 games of the default run's net against alphabeta:time=100
  // at 100 ms a move from balanced-4ply: the mover's moves left are 0.97 x empty cells + 3.2 on
  // average (jumps fill nothing, so games run long: 43 moves each from 44 empty cells).
  constexpr double kMovesLeftPerEmpty = 1.0;
  constexpr double kMovesLeftAtFull = 3.0;
  constexpr int kMinMovesLeft = 3;
  constexpr int kMaxMovesLeft = 50;
  const int empties = popcount(pos.empty());
  return std::clamp(static_cast<int>(std::lround(kMovesLeftPerEmpty * empties + kMovesLeftAtFull)), kMinMovesLeft,
                    kMaxMovesLeft);
}

float AtaxxPlay::heuristic_expectation(const Position& pos) {
  constexpr float kValueScale = 0.15f;  // tanh slope per man of difference
  const Color us = pos.side_to_move();
  return std::tanh(kValueScale * (popcount(pos.pieces(us)) - popcount(pos.pieces(~us))));
}

}  // namespace ataxx
