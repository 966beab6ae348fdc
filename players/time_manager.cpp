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

// Fitted (tools/moves_left.py --schataxx) to 45 games of the shipped Schataxx net against itself at
// 100 ms a move from the 2-ply suite (5 to 565 plies): each drop restarts the count of plies that
// ends the game, so the men left to drop, not the empty squares, say how long it goes on. With up
// to 7 men in both stocks the mover's moves left are about 18.3 a man + 12.0; with more, 152 on
// average. With none, the plies left before the count ends the game bound them.
constexpr double kSchataxxMovesPerStockMan = 18.3;
constexpr double kSchataxxMovesAtEmptyStocks = 12.0;
constexpr int kSchataxxMaxMovesLeft = 152;
// The unlimited variant's soldiers never run out: nearly every move drops one, and the mover's
// moves left are 0.93 x empty squares - 1.8 (tools/moves_left.py --schataxx-unlimited: 20 games
// of the shipped net against itself at 100 ms a move, 76 to 135 plies but for three lost in the
// opening).
constexpr double kUnlimitedMovesLeftPerEmpty = 0.93;
constexpr double kUnlimitedMovesLeftAtFull = -1.8;

}  // namespace

int expected_moves_left(const Position& position) {
  const int empties = popcount(position.empty());
  return std::clamp(static_cast<int>(std::lround(kMovesLeftPerEmpty * empties + kMovesLeftAtFull)), kMinMovesLeft,
                    kMaxMovesLeft);
}

int expected_moves_left(const schataxx::Position& position) {
  if (position.variant() == schataxx::Variant::kUnlimited) {
    const int empties = schataxx::Position::kSquares - popcount(position.occupied());
    const double fitted = kUnlimitedMovesLeftPerEmpty * empties + kUnlimitedMovesLeftAtFull;
    return std::clamp(static_cast<int>(std::lround(fitted)), kMinMovesLeft, kSchataxxMaxMovesLeft);
  }
  int men = 0;
  for (const Color color : {schataxx::kWhite, schataxx::kBlack})
    for (int i = 0; i < schataxx::kStockTypes; ++i) men += position.stock(color, schataxx::stock_type(i));
  const double fitted = kSchataxxMovesPerStockMan * men + kSchataxxMovesAtEmptyStocks;
  int moves = std::min(kSchataxxMaxMovesLeft, static_cast<int>(std::lround(fitted)));
  if (men == 0) moves = std::min(moves, (schataxx::Rules{}.ply_limit - position.plies_since_drop() + 1) / 2);
  return std::max(kMinMovesLeft, moves);
}

int plan_move_time(int moves_left, const GameClock& clock) {
  const long long remaining = std::max(0, clock.own_ms);
  const long long moves = clock.moves_to_go > 0 ? std::min(clock.moves_to_go, moves_left) : moves_left;
  const long long planned = remaining / moves + static_cast<long long>(std::max(0, clock.own_increment_ms)) * 3 / 4;
  return static_cast<int>(std::max<long long>(1, std::min(planned, remaining - std::max(0, clock.move_overhead_ms))));
}

}  // namespace ataxx
