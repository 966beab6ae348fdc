// What the games' views (games/<game>/view.h) build their JSON from.
#pragma once

#include <nlohmann/json.hpp>

#include "games/core/bitboard.h"

namespace ataxx::view {

using nlohmann::json;

// The cells of a bitboard as a list of indices.
inline json cells_of(Bitboard cells) {
  json list = json::array();
  for (Bitboard b = cells; b;) list.push_back(pop_lsb(b));
  return list;
}

// One way to make a move, as the page offers it: from a cell (-1: none, as for a drop) to a cell
// (-1: none, the pass), of a kind ("clone", "jump", "move", "drop", "pass").
inline json way(int from, int to, const char* kind) {
  return {{"from", from < 0 ? json(nullptr) : json(from)}, {"to", to < 0 ? json(nullptr) : json(to)}, {"kind", kind}};
}

}  // namespace ataxx::view
