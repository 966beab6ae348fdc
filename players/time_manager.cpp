#include "players/time_manager.h"

#include <algorithm>

namespace ataxx {

int plan_move_time(int moves_left, const GameClock& clock) {
  const long long remaining = std::max(0, clock.own_ms);
  const long long moves = clock.moves_to_go > 0 ? std::min(clock.moves_to_go, moves_left) : moves_left;
  const long long planned = remaining / moves + static_cast<long long>(std::max(0, clock.own_increment_ms)) * 3 / 4;
  return static_cast<int>(std::max<long long>(1, std::min(planned, remaining - std::max(0, clock.move_overhead_ms))));
}

}  // namespace ataxx
