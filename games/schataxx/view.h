// What the browser view draws of Schataxx (the contract's View, games/game_type.h).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "games/schataxx/position.h"

namespace ataxx::schataxx {

struct View {
  static constexpr const char* kColours[2] = {"white", "black"};
  static nlohmann::json board(const Position& pos);
  // Per cell: "" or a FEN letter ("K" White's king, "p" a Black soldier).
  static nlohmann::json men(const Position& pos);
  static nlohmann::json ways(Move move, const Position& pos);
  // Areas, territories and stocks of each side, and the variant: {"area": [w, b], "territory":
  // [[cells], [cells]], "stocks": [{"Q": 1, ...}, {...}], "variant"}, an unlimited count as -1.
  static nlohmann::json counts(const Position& pos);
  static int destination(Move move) { return move.is_pass() ? -1 : move.to; }
  // The position as text, for the terminal: the board with White's men in capitals, then both
  // stocks and areas, the side to move and the FEN.
  static std::string diagram(const Position& pos);
};

}  // namespace ataxx::schataxx
