// What the browser view draws of Ataxx (the contract's View, games/game_type.h).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "games/ataxx/position.h"

namespace ataxx {

struct AtaxxView {
  static constexpr const char* kColours[2] = {"x", "o"};
  // {"name", "hexagonal", "size", "cells": [{"index", "column", "row", "name"}, ...]}.
  static nlohmann::json board(const Position& pos);
  // Per cell: "x", "o", "#" (a gap) or "".
  static nlohmann::json men(const Position& pos);
  // A clone once per piece that can make it (the page shows a piece's moves when it is selected),
  // a jump once, the pass with no squares.
  static nlohmann::json ways(Move move, const Position& pos);
  static nlohmann::json counts(const Position& pos);  // {"pieces": [x's, o's]}
  static int destination(Move move) { return move.is_pass() ? -1 : move.to; }
  // The position as text, for the terminal: rows from the top (on the hexagon each row shifted
  // half a cell a row from the middle, so that a cell's six neighbours sit around it), the men
  // of each side, the side to move and the FEN.
  static std::string diagram(const Position& pos);
};

}  // namespace ataxx
