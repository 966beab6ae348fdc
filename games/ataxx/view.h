// What the browser view draws of Ataxx (the contract's View, games/game_type.h).
#pragma once

#include <nlohmann/json_fwd.hpp>

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
};

}  // namespace ataxx
