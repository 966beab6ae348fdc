// How Schataxx meets a network: input planes from the side to move's view and a policy layout
// over every move (the symmetries are in position.h). Plain C++.
#pragma once

#include <cstdint>
#include <span>

#include "games/schataxx/position.h"

namespace ataxx::schataxx {

// Plane-major over the 64 squares, as a convolutional head gives it: a man's move is one of 64
// offsets (the queen's 8 lines up to 7 squares: king steps, slides, the soldier's straight and
// diagonal jumps; the knight's 8: the soldier's other jumps) at its from-square, offset x 64 +
// from; then a drop, (64 + stock type) x 64 + to; then the pass.
inline constexpr int kOffsets = 64;
inline constexpr int kDropBase = 64 * kOffsets;
inline constexpr int kPassIndex = kDropBase + kStockTypes * 64;
inline constexpr int kPolicySize = kPassIndex + 1;
// Throws std::invalid_argument for a step that no man makes (an offset off the 64).
int policy_index(Move move);
// The move at a policy entry; the pass for an entry whose destination is off the board.
Move move_at(int index);

// Planes of 8 x 8, a square's entry at rank * 8 + file: the side to move's men by type (K Q R B N
// P), the other side's, the empty squares; each stock by type over a set's count (unlimited
// soldiers 1), the side to move's first; plies since the last drop / 100; a plane of ones while
// the balanced variant forbids queen and rook drops; a plane of ones in the unlimited variant;
// each side's territory (Position::territory), the side to move's first; each side's area / 64;
// the board (all ones).
// The last plane is all ones: the board's cells, for a network that masks its trunk to the board.
inline constexpr int kInputPlanes = 2 * kPieceTypes + 1 + 2 * kStockTypes + 3 + 4 + 1;
inline constexpr int kMaskPlane = kInputPlanes - 1;
inline constexpr int kMovePlanes = kOffsets + kStockTypes;  // the policy's planes of 64, before the pass
inline constexpr int kInputSize = kInputPlanes * 64;
// Throws std::invalid_argument unless planes.size() == kInputSize.
void encode(const Position& pos, std::span<float> planes);
// A hash of everything encode puts in the planes (the position's hash leaves out the counters).
std::uint64_t encoding_key(const Position& pos);

}  // namespace ataxx::schataxx
