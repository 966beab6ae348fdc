// The games only the tests play, as games/registry.h lists the programs' games: a game is its
// folder and its line here.
#pragma once

#include "games/registry.h"
#include "tests/games/tictactoe/traits.h"

namespace ataxx {

using TestGames = GameList<TicTacToeGame>;

}  // namespace ataxx
