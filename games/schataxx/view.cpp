#include "games/schataxx/view.h"

#include <cctype>

#include "games/core/view_json.h"

namespace ataxx::schataxx {

using view::json;

json View::board(const Position&) {
  json cells = json::array();
  for (int cell = 0; cell < 64; ++cell)
    cells.push_back({{"index", cell}, {"column", cell % 8}, {"row", cell / 8}, {"name", square_name(cell)}});
  return {{"name", "8x8"}, {"hexagonal", false}, {"size", 8}, {"cells", cells}};
}

json View::men(const Position& pos) {
  json men = json::object();
  for (int cell = 0; cell < 64; ++cell) {
    std::string man;
    if (pos.occupied() & bit(cell)) {
      const char letter = piece_letter(pos.type_on(cell));
      man = pos.men(kWhite) & bit(cell) ? letter : static_cast<char>(std::tolower(letter));
    }
    men[std::to_string(cell)] = man;
  }
  return men;
}

json View::ways(Move move, const Position&) {
  if (move.is_pass()) return json::array({view::way(-1, -1, "pass")});
  if (!move.is_drop()) return json::array({view::way(move.from, move.to, "move")});
  json drop = view::way(-1, move.to, "drop");
  drop["piece"] = std::string(1, piece_letter(move.drop));
  return json::array({drop});
}

std::string View::diagram(const Position& pos) {
  std::string text = "\n";
  for (int rank = 7; rank >= 0; --rank) {
    std::string line;
    for (int file = 0; file < 8; ++file) {
      const int sq = rank * 8 + file;
      const PieceType type = pos.type_on(sq);
      const char letter = type == PieceType::kNone ? '.' : piece_letter(type);
      line += (pos.men(kBlack) & bit(sq)) ? static_cast<char>(letter - 'A' + 'a') : letter;
      line += ' ';
    }
    text += std::to_string(rank + 1) + "   " + line + "\n";
  }
  text += "    a b c d e f g h\n";
  for (const Color side : {kWhite, kBlack}) {
    std::string stock;
    for (int i = 0; i < kStockTypes; ++i) {
      const PieceType type = stock_type(i);
      const int count = pos.stock(side, type);
      if (count == Position::kUnlimitedSoldiers)
        stock += std::string(" ") + piece_letter(type) + "x*";
      else if (count > 0)
        stock += std::string(" ") + piece_letter(type) + (count > 1 ? "x" + std::to_string(count) : "");
    }
    text += std::string(side == kWhite ? "White" : "Black") + ": area " + std::to_string(pos.area(side)) + ", stock" +
            (stock.empty() ? " empty" : stock) + "\n";
  }
  return text + (pos.side_to_move() == kWhite ? "White" : "Black") + " to move   " + pos.fen() + "\n";
}

json View::counts(const Position& pos) {
  json stocks = json::array();
  for (const Color side : {kWhite, kBlack}) {
    json stock = json::object();
    for (int i = 0; i < kStockTypes; ++i) {
      const PieceType type = stock_type(i);
      const int count = pos.stock(side, type);
      const bool unlimited = pos.variant() == Variant::kUnlimited && type == PieceType::kSoldier;
      stock[std::string(1, piece_letter(type))] = unlimited ? -1 : count;
    }
    stocks.push_back(stock);
  }
  return {{"area", {pos.area(kWhite), pos.area(kBlack)}},
          {"territory", {view::cells_of(pos.territory(kWhite)), view::cells_of(pos.territory(kBlack))}},
          {"stocks", stocks},
          {"variant", variant_name(pos.variant())}};
}

}  // namespace ataxx::schataxx
