// A UAI `go` line: what it asks the search for, and the clocks it gives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "players/player.h"

namespace ataxx {

// What a `go` line asks for; the clocks by UCI's colour names.
struct GoLine {
  MoveLimits limits;
  int white_ms = -1, black_ms = -1, white_increment_ms = 0, black_increment_ms = 0, moves_to_go = 0;
  bool ponder = false;                    // search until ponderhit, then within the limits, or until stop
  std::vector<std::string> search_moves;  // as written, legal or not
  std::vector<std::string> skipped;       // words that are no key (a misspelt one, say)
};

// The arguments after `go`. Words that are no key are skipped, as UCI asks, and listed in
// `skipped`; a key without its number throws std::invalid_argument.
GoLine read_go(std::string_view args);

// The mover's clock and the other's from a go line's colours (which colour a game's mover is, is
// the caller's: uai_engine.cpp's mover_is_white).
GameClock clock_of(const GoLine& go, bool mover_is_white, int move_overhead_ms);

}  // namespace ataxx
