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
