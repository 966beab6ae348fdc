// Perft: the number of leaf nodes of the legal move tree, the standard check of move generation.
// A finished position has no children. Repetition needs game history and is not applied.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "games/ataxx/position.h"

namespace ataxx {

std::uint64_t perft(const Position& pos, int depth, int halfmove_limit = RuleSettings{}.halfmove_limit);
// The perft of each legal move's child, in move generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_split(const Position& pos, int depth,
                                                        int halfmove_limit = RuleSettings{}.halfmove_limit);

}  // namespace ataxx
