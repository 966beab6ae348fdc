#include "games/ataxx/view.h"

#include "games/core/view_json.h"

namespace ataxx {

using view::json;

json AtaxxView::board(const Position& pos) {
  const Board& board = pos.board();
  json cells = json::array();
  for (int cell = 0; cell < kMaxCells; ++cell) {
    if (!board.has_cell(cell)) continue;
    cells.push_back({{"index", cell}, {"column", board.column[cell]}, {"row", board.row[cell]},
                     {"name", square_name(cell, board)}});
  }
  return {{"name", board.name}, {"hexagonal", board.hexagonal}, {"size", board.size}, {"cells", cells}};
}

json AtaxxView::men(const Position& pos) {
  json men = json::object();
  for (Bitboard b = pos.board().cells; b;) {
    const Square cell = pop_lsb(b);
    const char* man = pos.pieces(Color::kX) & bit(cell) ? "x" : pos.pieces(Color::kO) & bit(cell) ? "o"
                    : pos.gaps() & bit(cell)            ? "#"
                                                        : "";
    men[std::to_string(cell)] = man;
  }
  return men;
}

json AtaxxView::ways(Move move, const Position& pos) {
  json list = json::array();
  if (move.is_pass()) {
    list.push_back(view::way(-1, -1, "pass"));
  } else if (move.is_jump()) {
    list.push_back(view::way(move.from, move.to, "jump"));
  } else {
    for (Bitboard from = pos.board().clone_targets[move.to] & pos.pieces(pos.side_to_move()); from;)
      list.push_back(view::way(pop_lsb(from), move.to, "clone"));
  }
  return list;
}

json AtaxxView::counts(const Position& pos) {
  return {{"pieces", {popcount(pos.pieces(Color::kX)), popcount(pos.pieces(Color::kO))}}};
}

}  // namespace ataxx
