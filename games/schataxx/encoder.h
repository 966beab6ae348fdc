// Schataxx as the network sees it (the contract's Encoder, games/game_type.h): one board, every
// variant, on a canvas of 8.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "games/core/network_io.h"
#include "games/core/symmetries.h"
#include "games/schataxx/encoding.h"

namespace ataxx::schataxx {

class Encoder {
 public:
  static NetworkIo io() { return {kInputPlanes, kMaskPlane, kMovePlanes, 8}; }
  static bool plays(const Position&) { return true; }
  static std::string plays_what() { return "schataxx"; }
  static void check(const Position&, const std::string&) {}
  static void encode(const Position& pos, std::span<float> planes) { schataxx::encode(pos, planes); }
  static int policy_index(const Position&, Move move) { return schataxx::policy_index(move); }
  static std::uint64_t key(const Position& pos) { return encoding_key(pos); }

  static SymmetryList augmentations(const Position&) {
    SymmetryList all;
    for (int s = 0; s < kSymmetries; ++s) all.symmetries[all.count++] = static_cast<std::uint8_t>(s);
    return all;
  }
  static Position transformed(int symmetry, const Position& pos) { return pos.transformed(symmetry); }
  static Move transformed(int symmetry, const Position&, Move move) { return transform_move(symmetry, move); }
  static int canvas_cell(int symmetry, const Position&, int square) { return transform_square(symmetry, square); }
};

}  // namespace ataxx::schataxx
