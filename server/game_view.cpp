#include "server/game_view.h"

#include <algorithm>
#include <cmath>

namespace ataxx::server {
namespace {

json cells_of(Bitboard cells) {
  json list = json::array();
  for (Bitboard b = cells; b;) list.push_back(pop_lsb(b));
  return list;
}

json wdl_json(const std::optional<Wdl>& wdl) {
  if (!wdl) return nullptr;
  return json::array({wdl->win, wdl->draw, wdl->loss});
}

json way(int from, int to, const char* kind) {
  return {{"from", from < 0 ? json(nullptr) : json(from)}, {"to", to < 0 ? json(nullptr) : json(to)}, {"kind", kind}};
}

}  // namespace

json GameView<AtaxxGame>::board(const Position& pos) {
  const Board& board = pos.board();
  json cells = json::array();
  for (int cell = 0; cell < kMaxCells; ++cell) {
    if (!board.has_cell(cell)) continue;
    cells.push_back({{"index", cell}, {"column", board.column[cell]}, {"row", board.row[cell]},
                     {"name", square_name(cell, board)}});
  }
  return {{"name", board.name}, {"hexagonal", board.hexagonal}, {"size", board.size}, {"cells", cells}};
}

json GameView<AtaxxGame>::men(const Position& pos) {
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

json GameView<AtaxxGame>::ways(Move move, const Position& pos) {
  json list = json::array();
  if (move.is_pass()) {
    list.push_back(way(-1, -1, "pass"));
  } else if (move.is_jump()) {
    list.push_back(way(move.from, move.to, "jump"));
  } else {
    for (Bitboard from = pos.board().clone_targets[move.to] & pos.pieces(pos.side_to_move()); from;)
      list.push_back(way(pop_lsb(from), move.to, "clone"));
  }
  return list;
}

json GameView<AtaxxGame>::counts(const Position& pos) {
  return {{"pieces", {popcount(pos.pieces(Color::kX)), popcount(pos.pieces(Color::kO))}}};
}

json GameView<SchataxxGame>::board(const schataxx::Position&) {
  json cells = json::array();
  for (int cell = 0; cell < 64; ++cell)
    cells.push_back({{"index", cell}, {"column", cell % 8}, {"row", cell / 8}, {"name", schataxx::square_name(cell)}});
  return {{"name", "8x8"}, {"hexagonal", false}, {"size", 8}, {"cells", cells}};
}

json GameView<SchataxxGame>::men(const schataxx::Position& pos) {
  json men = json::object();
  for (int cell = 0; cell < 64; ++cell) {
    std::string man;
    if (pos.occupied() & bit(cell)) {
      const char letter = schataxx::piece_letter(pos.type_on(cell));
      man = pos.men(schataxx::kWhite) & bit(cell) ? letter : static_cast<char>(std::tolower(letter));
    }
    men[std::to_string(cell)] = man;
  }
  return men;
}

json GameView<SchataxxGame>::ways(schataxx::Move move, const schataxx::Position&) {
  if (move.is_pass()) return json::array({way(-1, -1, "pass")});
  if (!move.is_drop()) return json::array({way(move.from, move.to, "move")});
  json drop = way(-1, move.to, "drop");
  drop["piece"] = std::string(1, schataxx::piece_letter(move.drop));
  return json::array({drop});
}

json GameView<SchataxxGame>::counts(const schataxx::Position& pos) {
  using schataxx::PieceType;
  json stocks = json::array();
  for (const Color side : {schataxx::kWhite, schataxx::kBlack}) {
    json stock = json::object();
    for (int i = 0; i < schataxx::kStockTypes; ++i) {
      const PieceType type = schataxx::stock_type(i);
      const int count = pos.stock(side, type);
      const bool unlimited = pos.variant() == schataxx::Variant::kUnlimited && type == PieceType::kSoldier;
      stock[std::string(1, schataxx::piece_letter(type))] = unlimited ? -1 : count;
    }
    stocks.push_back(stock);
  }
  return {{"area", {pos.area(schataxx::kWhite), pos.area(schataxx::kBlack)}},
          {"territory", {cells_of(pos.territory(schataxx::kWhite)), cells_of(pos.territory(schataxx::kBlack))}},
          {"stocks", stocks},
          {"variant", schataxx::variant_name(pos.variant())}};
}

template <typename G>
json turned_cells(const typename G::Position& before, const typename G::Position& after) {
  const Bitboard turned = (G::men(before, Color::kX) & G::men(after, Color::kO)) |
                          (G::men(before, Color::kO) & G::men(after, Color::kX));
  return cells_of(turned);
}

template <typename G>
json report_json(const BasicMoveReport<G>& report, const typename G::Position& root) {
  json pv = json::array();
  for (const auto& move : report.pv) pv.push_back(G::move_text(move, root));
  json candidates = json::array();
  for (const auto& c : report.candidates) {
    candidates.push_back({{"move", G::move_text(c.move, root)},
                          {"to", GameView<G>::destination(c.move)},
                          {"visits", c.visits},
                          {"prior", c.prior},
                          {"value", c.value},
                          {"wdl", wdl_json(c.search_value)},
                          {"net_wdl", wdl_json(c.network_value)}});
  }
  // Below a millisecond the rate says nothing (alpha-beta at a shallow depth).
  const json nps = report.seconds >= 1e-3 ? json(std::llround(report.nodes_per_second())) : json(nullptr);
  // A search without candidates (alpha-beta) has a score, not a value: no value is made up from it.
  const json value = report.candidates.empty() ? json(nullptr) : json(report.value);
  // The search's expected final lead, in men.
  const json lead = report.search_value ? json(report.search_value->lead * G::cells(root)) : json(nullptr);
  return {{"depth", report.depth},
          {"nodes", report.nodes},
          {"seconds", report.seconds},
          {"nps", nps},
          {"value", value},
          {"score_cp", report.score_cp},
          {"wdl", wdl_json(report.search_value)},
          {"net_wdl", wdl_json(report.network_value)},
          {"lead", lead},
          {"pv", pv},
          {"candidates", candidates}};
}

json outcome_json(const Outcome& outcome, const char* const colours[2]) {
  if (!outcome.is_over()) return nullptr;
  const char* score = outcome.result == Result::kXWins ? "1-0" : outcome.result == Result::kOWins ? "0-1" : "1/2-1/2";
  const char* winner = outcome.result == Result::kXWins   ? colours[0]
                       : outcome.result == Result::kOWins ? colours[1]
                                                          : nullptr;
  return {{"winner", winner ? json(winner) : json(nullptr)}, {"score", score}, {"reason", to_string(outcome.reason)}};
}

template <typename G>
json replay_json(const typename G::Position& start, const std::vector<std::string>& moves,
                 const typename G::Rules& rules) {
  typename G::Game game(start, rules);
  json frames = json::array({{{"men", GameView<G>::men(start)}, {"move", nullptr}, {"turned", json::array()}}});
  for (const std::string& text : moves) {
    const auto before = game.position();
    game.play(text);
    frames.push_back({{"men", GameView<G>::men(game.position())},
                      {"move", text},
                      {"ways", GameView<G>::ways(game.moves().back(), before)},
                      {"turned", turned_cells<G>(before, game.position())}});
  }
  return {{"board", GameView<G>::board(start)},
          {"colours", {GameView<G>::kColours[0], GameView<G>::kColours[1]}},
          {"frames", frames},
          {"outcome", outcome_json(game.outcome(), GameView<G>::kColours)}};
}

template <typename G>
json positions_json(const std::vector<typename G::Position>& positions, const json& searched) {
  json frames = json::array();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto& pos = positions[i];
    json frame = {{"men", GameView<G>::men(pos)}, {"move", nullptr}, {"turned", json::array()}};
    const json& visits = searched.at(i);
    const auto best = std::max_element(visits.begin(), visits.end(),
                                       [](const json& a, const json& b) { return a[1] < b[1]; });
    if (best != visits.end()) {
      const std::string text = (*best)[0];
      frame["move"] = text;
      frame["visits"] = (*best)[1];
      frame["ways"] = GameView<G>::ways(GameView<G>::parse(text, pos), pos);
    }
    frames.push_back(frame);
  }
  return {{"board", GameView<G>::board(positions.at(0))},
          {"colours", {GameView<G>::kColours[0], GameView<G>::kColours[1]}},
          {"frames", frames},
          {"outcome", nullptr}};
}

template json positions_json<AtaxxGame>(const std::vector<Position>&, const json&);
template json positions_json<SchataxxGame>(const std::vector<schataxx::Position>&, const json&);
template json replay_json<AtaxxGame>(const Position&, const std::vector<std::string>&, const AtaxxGame::Rules&);
template json replay_json<SchataxxGame>(const schataxx::Position&, const std::vector<std::string>&,
                                        const SchataxxGame::Rules&);
template json turned_cells<AtaxxGame>(const Position&, const Position&);
template json turned_cells<SchataxxGame>(const schataxx::Position&, const schataxx::Position&);
template json report_json<AtaxxGame>(const BasicMoveReport<AtaxxGame>&, const Position&);
template json report_json<SchataxxGame>(const BasicMoveReport<SchataxxGame>&, const schataxx::Position&);

}  // namespace ataxx::server
