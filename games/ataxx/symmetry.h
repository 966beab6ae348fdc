// The symmetries of a board acting on cells, moves and positions (the tables live in Board).
// Square boards have the square's 8; the hexagon has 12 rotations and reflections, of which
// augmentation uses those that keep the position's gaps (Hexxagon's removed cells) in place.
#pragma once

#include "games/ataxx/position.h"
#include "games/core/symmetries.h"

namespace ataxx {

Bitboard transform_bitboard(const Board& board, int symmetry, Bitboard b);
Move transform_move(const Board& board, int symmetry, Move move);
Position transform_position(int symmetry, const Position& pos);

// The symmetries that training may apply to pos: every symmetry of a square board; on the
// hexagon those that map its gaps onto themselves (6 for the standard removed cells, 12 without).
SymmetryList augmentation_symmetries(const Position& pos);

}  // namespace ataxx
