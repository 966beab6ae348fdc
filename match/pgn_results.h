// The results PGN files hold (each game's White, Black, Result and Variant tags), as pairs for
// fit_ratings (stats/ratings.h): what `ataxx-zero ratings` fits, from any match runner's PGN.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "stats/ratings.h"

namespace ataxx {

// Adds the games of `in` to `results`, one PairResult per pair of players (in the order they first
// met, first the one who moved first then). Games without a result ("*") are left out, and so are
// games of a player against one of its own name, whose number it returns. Throws
// std::runtime_error naming `source` and the line for a game without its White, Black or Result tag,
// or with a result PGN does not know.
int add_pgn_results(std::istream& in, const std::string& source, std::vector<PairResult>& results);

}  // namespace ataxx
