// Opening suites: start positions for matches and self-play, one FEN per line ('#' comments).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "games/ataxx/position.h"
#include "players/player.h"

namespace ataxx {

// Every distinct position exactly `plies` moves after root that is not over, in a shuffled
// but fixed order (so any prefix of the suite is a fair sample).
std::vector<Position> generate_openings(const Position& root, int plies, std::uint64_t seed = 1);
// The first `count` positions of `openings`, in order, that `judge` scores within max_cp of even
// for the side to move (a balanced suite: neither colour starts ahead).
std::vector<Position> balanced_openings(const std::vector<Position>& openings, Player& judge, int max_cp,
                                        std::size_t count);
// Two plies from a board's start position: the suite used when none is given.
std::vector<Position> default_openings(const Board& board = board_7x7());
// A board's suite: the positions of `file` (each must be on that board), or default_openings when
// file is "". Throws std::runtime_error as load_openings does.
std::vector<Position> board_openings(const Board& board, const std::string& file);
// Several boards' suites merged one position of each in turn, so that any prefix holds every board.
std::vector<Position> interleave(const std::vector<std::vector<Position>>& suites);
// The positions of a file, each line's FEN read by `parse` (a game's from_fen). Throws
// std::runtime_error naming the file and line of a bad FEN or a finished position, or an empty or
// missing file. For Ataxx and Schataxx positions.
template <typename P>
std::vector<P> load_openings(const std::string& path, const std::function<P(const std::string&)>& parse);
std::vector<Position> load_openings(const std::string& path);
void save_openings(const std::string& path, const std::vector<Position>& openings, const std::string& comment);

}  // namespace ataxx
