// Ataxx's opening suites: start positions for matches and self-play on each board, one FEN per
// line in their files ('#' comments).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/ataxx/position.h"

namespace ataxx {

// Every distinct position exactly `plies` moves after root that is not over, in a shuffled
// but fixed order (so any prefix of the suite is a fair sample).
std::vector<Position> generate_openings(const Position& root, int plies, std::uint64_t seed = 1);
// Two plies from a board's start position: the suite used when none is given.
std::vector<Position> default_openings(const Board& board = board_7x7());
// A board's suite: the positions of `file` (each must be on that board), or default_openings when
// file is "". Throws std::runtime_error as load_openings does.
std::vector<Position> board_openings(const Board& board, const std::string& file);
// The positions of a file of Ataxx FENs (games/core/opening_file.h).
std::vector<Position> load_openings(const std::string& path);
void save_openings(const std::string& path, const std::vector<Position>& openings, const std::string& comment);

}  // namespace ataxx
