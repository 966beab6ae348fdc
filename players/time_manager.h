// How long to think on a move of a timed game.
#pragma once

#include "game/position.h"
#include "players/player.h"

namespace ataxx {

// The moves the side to move is still expected to make, from the empty cells left (a fit to
// played games: about one per empty cell, as jumps fill nothing).
int expected_moves_left(const Position& position);

// Milliseconds for this move: the time left shared over the moves still to make (movestogo when
// the clock has one), plus three quarters of the increment; never more than the time left minus
// the clock's move overhead, never less than 1.
int plan_move_time(const Position& position, const GameClock& clock);

// The time a player's search may take on this move: movetime when given, else the clock's plan,
// else 0 (the player's own budget).
int move_time_ms(const Position& position, const MoveLimits& limits);

}  // namespace ataxx
