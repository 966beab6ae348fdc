// How long to think on a move of a timed game.
#pragma once

#include "games/ataxx/position.h"
#include "players/player.h"
#include "games/schataxx/position.h"

namespace ataxx {

// The moves the side to move is still expected to make, from the empty cells left (a fit to
// played games: about one per empty cell, as jumps fill nothing).
int expected_moves_left(const Position& position);
// Schataxx's, from the men left in both stocks (a fit to played games: about 18 moves a man, at
// most 152), and with both stocks empty from the plies left before the game ends without a drop;
// in the unlimited variant, whose soldiers never run out, from the empty squares (about one each).
int expected_moves_left(const schataxx::Position& position);

// Milliseconds for this move: the time left shared over the moves still to make (movestogo when
// the clock has one), plus three quarters of the increment; never more than the time left minus
// the clock's move overhead, never less than 1.
int plan_move_time(int moves_left, const GameClock& clock);
template <typename P>
int plan_move_time(const P& position, const GameClock& clock) {
  return plan_move_time(expected_moves_left(position), clock);
}

// The time a player's search may take on this move: none (0) for a search until stopped (`go
// infinite`, a `go ponder` before ponderhit), movetime when given, else the clock's plan, else 0
// (the player's own budget).
template <typename P>
int move_time_ms(const P& position, const MoveLimits& limits) {
  if (limits.infinite) return 0;
  if (limits.movetime_ms > 0) return limits.movetime_ms;
  return limits.clock.timed() ? plan_move_time(position, limits.clock) : 0;
}

}  // namespace ataxx
