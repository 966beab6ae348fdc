#include "tests/games/tictactoe/view.h"

#include "games/core/view_json.h"

namespace ataxx::tictactoe {

using view::json;

json View::board(const Position&) {
  json cells = json::array();
  for (int cell = 0; cell < kCells; ++cell)
    cells.push_back({{"index", cell}, {"column", cell % 3}, {"row", cell / 3}, {"name", to_string({static_cast<std::int8_t>(cell)})}});
  return {{"name", "3x3"}, {"hexagonal", false}, {"size", 3}, {"cells", cells}};
}

json View::men(const Position& pos) {
  json men = json::object();
  for (int cell = 0; cell < kCells; ++cell) {
    const Bitboard b = Bitboard{1} << cell;
    men[std::to_string(cell)] = pos.men(Color::kX) & b ? "x" : pos.men(Color::kO) & b ? "o" : "";
  }
  return men;
}

json View::ways(Move move, const Position&) { return json::array({view::way(-1, move.cell, "drop")}); }

json View::counts(const Position& pos) {
  return {{"men", {popcount(pos.men(Color::kX)), popcount(pos.men(Color::kO))}}};
}

std::string View::diagram(const Position& pos) {
  std::string text = "\n";
  const std::string fen = pos.fen();
  for (int row = 0; row < 3; ++row) text += "  " + fen.substr(static_cast<std::size_t>(4 * row), 3) + "\n";
  return text + "\n" + (pos.side_to_move() == Color::kX ? "x" : "o") + " to move\nFEN: " + fen + "\n";
}

}  // namespace ataxx::tictactoe
