#include "server/game_view.h"

#include <algorithm>
#include <cmath>

#include "games/core/view_json.h"

namespace ataxx::server {
namespace {

json wdl_json(const std::optional<Wdl>& wdl) {
  if (!wdl) return nullptr;
  return json::array({wdl->win, wdl->draw, wdl->loss});
}

}  // namespace

template <typename G>
json turned_cells(const typename G::Position& before, const typename G::Position& after) {
  const Bitboard turned = (G::men(before, Color::kX) & G::men(after, Color::kO)) |
                          (G::men(before, Color::kO) & G::men(after, Color::kX));
  return view::cells_of(turned);
}

template <typename G>
json report_json(const BasicMoveReport<G>& report, const typename G::Position& root) {
  json pv = json::array();
  for (const auto& move : report.pv) pv.push_back(G::move_text(move, root));
  json candidates = json::array();
  for (const auto& c : report.candidates) {
    const int to = GameView<G>::destination(c.move);  // a pass lands on no cell
    candidates.push_back({{"move", G::move_text(c.move, root)},
                          {"to", to < 0 ? json(nullptr) : json(to)},
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
          {"reused", report.reused_nodes},
          {"seconds", report.seconds},
          {"nps", nps},
          {"value", value},
          {"score_cp", report.score_cp},
          {"mate", report.mate ? json(*report.mate) : json(nullptr)},  // a proven result: moves to the end, < 0 lost
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
      frame["ways"] = GameView<G>::ways(G::parse_move_text(text, pos), pos);
    }
    frames.push_back(frame);
  }
  return {{"board", GameView<G>::board(positions.at(0))},
          {"colours", {GameView<G>::kColours[0], GameView<G>::kColours[1]}},
          {"frames", frames},
          {"outcome", nullptr}};
}

#define ATAXX_INSTANTIATE(G)                                                                     \
  template json positions_json<G>(const std::vector<G::Position>&, const json&);                 \
  template json replay_json<G>(const G::Position&, const std::vector<std::string>&, const G::Rules&); \
  template json turned_cells<G>(const G::Position&, const G::Position&);                         \
  template json report_json<G>(const BasicMoveReport<G>&, const G::Position&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx::server
