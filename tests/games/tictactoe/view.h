// What the browser view draws of tic-tac-toe: a 3x3 board whose moves are drops on empty cells.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "tests/games/tictactoe/position.h"

namespace ataxx::tictactoe {

struct View {
  static constexpr const char* kColours[2] = {"x", "o"};
  static nlohmann::json board(const Position& pos);
  static nlohmann::json men(const Position& pos);  // per cell: "", "x" or "o"
  static nlohmann::json ways(Move move, const Position& pos);
  static nlohmann::json counts(const Position& pos);  // {"men": [x, o]}
  static int destination(Move move) { return move.cell; }
  static std::string diagram(const Position& pos);
};

}  // namespace ataxx::tictactoe
