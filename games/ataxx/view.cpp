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

std::string AtaxxView::diagram(const Position& pos) {
  const Board& board = pos.board();
  auto cell_char = [&](Square sq) {
    const Bitboard b = bit(sq);
    return (pos.pieces(Color::kX) & b) ? 'x' : (pos.pieces(Color::kO) & b) ? 'o' : (pos.gaps() & b) ? '#' : '.';
  };
  std::string text = "\n";
  for (int row = board.size - 1; row >= 0; --row) {
    std::string line(2 * board.size + 8, ' ');
    int first = -1, last = -1;
    for (int column = 0; column < board.size; ++column) {
      const auto sq = board.find(column, row);
      if (!sq) continue;
      if (first < 0) first = column;
      last = column;
      line[board.hexagonal ? 2 * column - row + 4 : 2 * column] = cell_char(*sq);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    if (board.hexagonal)
      line += std::string(2 * board.size + 2 - line.size(), ' ') + "  " + static_cast<char>('a' + first) +
              std::to_string(row + 1) + "-" + static_cast<char>('a' + last) + std::to_string(row + 1);
    text += std::to_string(row + 1) + "   " + line + "\n";
  }
  if (!board.hexagonal) {
    std::string files;
    for (int column = 0; column < board.size; ++column) files += std::string(1, static_cast<char>('a' + column)) + " ";
    text += "    " + files + "\n";
  }
  return text + "x " + std::to_string(popcount(pos.pieces(Color::kX))) + "  o " +
         std::to_string(popcount(pos.pieces(Color::kO))) + "   " + (pos.side_to_move() == Color::kX ? "x" : "o") +
         " to move   " + pos.fen() + "\n";
}

json AtaxxView::counts(const Position& pos) {
  return {{"pieces", {popcount(pos.pieces(Color::kX)), popcount(pos.pieces(Color::kO))}}};
}

}  // namespace ataxx
