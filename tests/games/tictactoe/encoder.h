// Tic-tac-toe as the network sees it: the side to move's men, the other side's, and the board, on
// a canvas of 3; one policy plane, a cell's entry its number.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "games/core/network_io.h"
#include "games/core/symmetries.h"
#include "tests/games/tictactoe/position.h"

namespace ataxx::tictactoe {

class Encoder {
 public:
  static NetworkIo io() { return {.input_planes = 3, .mask_plane = 2, .move_planes = 1, .canvas = 3}; }
  static bool plays(const Position&) { return true; }
  static std::string plays_what() { return "tictactoe"; }
  static void check(const Position&, const std::string&) {}
  static void encode(const Position& pos, std::span<float> planes) {
    const Color us = pos.side_to_move();
    for (int cell = 0; cell < kCells; ++cell) {
      const Bitboard b = Bitboard{1} << cell;
      planes[cell] = pos.men(us) & b ? 1.0f : 0.0f;
      planes[kCells + cell] = pos.men(~us) & b ? 1.0f : 0.0f;
      planes[2 * kCells + cell] = 1.0f;
    }
  }
  static int policy_index(const Position&, Move move) { return move.cell; }
  static std::uint64_t key(const Position& pos) { return pos.hash(); }

  static SymmetryList augmentations(const Position&) {
    SymmetryList all;
    for (int s = 0; s < 8; ++s) all.symmetries[all.count++] = static_cast<std::uint8_t>(s);
    return all;
  }
  static Position transformed(int symmetry, const Position& pos) {
    Bitboard men[2] = {0, 0};
    for (int side = 0; side < 2; ++side)
      for (Bitboard b = pos.men(static_cast<Color>(side)); b;) men[side] |= Bitboard{1} << transform_cell(symmetry, pop_lsb(b));
    return Position::from_men(men[0], men[1], pos.side_to_move());
  }
  static Move transformed(int symmetry, const Position&, Move move) {
    return {static_cast<std::int8_t>(transform_cell(symmetry, move.cell))};
  }
  static int canvas_cell(int symmetry, const Position&, int cell) { return transform_cell(symmetry, cell); }
};

}  // namespace ataxx::tictactoe
