// Position and move encoding for the network, and the 8 symmetries of the square board.
// Plain C++: search, self-play and tests use it without torch.
#pragma once

#include <array>
#include <span>

#include "game/position.h"

namespace ataxx {

inline constexpr int kEncodingVersion = 1;

// Input planes, from the side to move's view, each 7x7 with square = rank * 7 + file:
// own pieces, opponent pieces, gaps, empty squares, halfmove clock / 100, ones (marks the board
// inside the convolutions' zero padding).
inline constexpr int kInputPlanes = 6;
inline constexpr int kInputSize = kInputPlanes * kNumSquares;

// Policy: destination x 17 (a single, then the 16 jump sources by offset) + the pass.
inline constexpr int kMovesPerSquare = 17;
inline constexpr int kPolicySize = kNumSquares * kMovesPerSquare + 1;
inline constexpr int kPassIndex = kPolicySize - 1;

void encode_position(const Position& pos, std::span<float, kInputSize> planes);
// A hash of everything encode_position puts in the planes: equal keys, equal inputs (but for
// hash collisions). The position's hash alone leaves out the halfmove clock.
std::uint64_t encoding_key(const Position& pos);
int policy_index(Move move);
Move move_from_policy_index(int index);  // index must be a valid policy index

// Symmetry s in [0, 8): bit 0 mirrors files, bit 1 mirrors ranks, bit 2 swaps files and ranks
// (applied in that order). One table serves squares, moves, positions and policies.
inline constexpr int kNumSymmetries = 8;
Square transform_square(int symmetry, Square sq);
Move transform_move(int symmetry, Move move);
Position transform_position(int symmetry, const Position& pos);
int inverse_symmetry(int symmetry);

}  // namespace ataxx
