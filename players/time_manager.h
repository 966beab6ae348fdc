// How long to think on a move of a timed game.
#pragma once

#include "games/game_type.h"
#include "players/player.h"

namespace ataxx {

// Milliseconds for this move: the time left shared over the moves still to make (movestogo when
// the clock has one), plus three quarters of the increment; never more than the time left minus
// the clock's move overhead, never less than 1.
int plan_move_time(int moves_left, const GameClock& clock);
// The moves left as the game expects them (G::Play::expected_moves_left).
template <GameType G>
int plan_move_time(const typename G::Position& position, const GameClock& clock) {
  return plan_move_time(G::Play::expected_moves_left(position), clock);
}

// The time a player's search may take on this move: none (0) for a search until stopped (`go
// infinite`, a `go ponder` before ponderhit), movetime when given, else the clock's plan, else 0
// (the player's own budget).
template <GameType G>
int move_time_ms(const typename G::Position& position, const MoveLimits& limits) {
  if (limits.infinite) return 0;
  if (limits.movetime_ms > 0) return limits.movetime_ms;
  return limits.clock.timed() ? plan_move_time<G>(position, limits.clock) : 0;
}

}  // namespace ataxx
