// Balanced opening suites: the positions of a suite a judge scores near even.
#pragma once

#include <string>
#include <vector>

#include "games/ataxx/openings.h"
#include "games/core/opening_file.h"
#include "players/player.h"

namespace ataxx {

// The first `count` positions of `openings`, in order, that `judge` scores within max_cp of even
// for the side to move (a balanced suite: neither colour starts ahead).
std::vector<Position> balanced_openings(const std::vector<Position>& openings, Player& judge, int max_cp,
                                        std::size_t count);

}  // namespace ataxx
