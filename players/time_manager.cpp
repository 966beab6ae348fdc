#include "players/time_manager.h"

#include <algorithm>
#include <cmath>

namespace ataxx {
namespace {

// Fitted (tools/moves_left.py) to 100 games of the default run's net against alphabeta:time=100
// at 100 ms a move from balanced-4ply: the mover's moves left are 0.97 x empty cells + 3.2 on
// average (jumps fill nothing, so games run long: 43 moves each from 44 empty cells).
constexpr double kMovesLeftPerEmpty = 1.0;
constexpr double kMovesLeftAtFull = 3.0;
constexpr int kMinMovesLeft = 3;
constexpr int kMaxMovesLeft = 50;

}  // namespace

int expected_moves_left(const Position& position) {
  const int empties = popcount(position.empty());
  return std::clamp(static_cast<int>(std::lround(kMovesLeftPerEmpty * empties + kMovesLeftAtFull)), kMinMovesLeft,
                    kMaxMovesLeft);
}

int expected_moves_left(const schataxx::Position& position) {
  const int empties = schataxx::Position::kSquares - popcount(position.occupied());
  return std::clamp(empties / 2, kMinMovesLeft, kMaxMovesLeft);
}

int plan_move_time(int moves_left, const GameClock& clock) {
  const long long remaining = std::max(0, clock.own_ms);
  const long long moves = clock.moves_to_go > 0 ? std::min(clock.moves_to_go, moves_left) : moves_left;
  const long long planned = remaining / moves + static_cast<long long>(std::max(0, clock.own_increment_ms)) * 3 / 4;
  return static_cast<int>(std::max<long long>(1, std::min(planned, remaining - std::max(0, clock.move_overhead_ms))));
}

}  // namespace ataxx
