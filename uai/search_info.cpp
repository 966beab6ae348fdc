#include "uai/search_info.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

namespace ataxx {
namespace {

// lc0's `wdl W D L`: the win, draw and loss chances in thousandths, summing to 1000.
std::string wdl_text(const Wdl& wdl) {
  const long win = std::lround(wdl.win * 1000), loss = std::lround(wdl.loss * 1000);
  return fmt::format(" wdl {} {} {}", win, std::max(1000 - win - loss, 0L), loss);
}

}  // namespace

template <typename G>
std::string info_lines(const BasicMoveReport<G>& r, const typename G::Position& root, const InfoDisplay& display) {
  const auto line = [&](int multipv, int depth, std::span<const typename G::Move> pv, int score_cp,
                        const std::optional<Wdl>& wdl, std::optional<int> mate = std::nullopt) {
    std::ostringstream text;
    text << "info depth " << depth;
    // A kept tree's pv may reach below the leaves this search selected.
    if (r.seldepth > 0) text << " seldepth " << std::max(r.seldepth, depth);
    if (multipv > 0) text << " multipv " << multipv;
    text << " nodes " << r.nodes << " nps " << static_cast<long long>(r.nodes_per_second());
    if (r.hashfull) text << " hashfull " << *r.hashfull;
    if (mate)
      text << " score mate " << *mate;
    else
      text << " score cp " << score_cp;
    if (display.show_wdl && wdl) text << wdl_text(*wdl);
    text << " time " << static_cast<int>(r.seconds * 1000) << " pv";
    for (const auto m : pv) text << ' ' << G::move_text(m, root);
    return text.str();
  };
  std::vector<const BasicCandidateMove<G>*> shown;
  if (display.multipv > 1 && !r.pv.empty()) {
    for (const auto& c : r.candidates)
      if (c.move == r.pv.front()) shown.push_back(&c);
    for (const auto& c : r.candidates)
      if (!shown.empty() && (c.visits > 0 || c.depth > 0) && c.move != r.pv.front() &&
          std::ssize(shown) < display.multipv)
        shown.push_back(&c);
  }
  // One line: MultiPV 1, or a search without candidates.
  if (shown.empty()) return line(0, r.depth, r.pv, r.score_cp, r.search_value, r.mate);
  std::string lines;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const BasicCandidateMove<G>& c = *shown[i];
    if (i > 0) lines += '\n';
    lines += line(static_cast<int>(i) + 1, c.depth > 0 ? c.depth : static_cast<int>(c.pv.size()), c.pv, c.score_cp,
                  c.search_value, c.mate);
  }
  return lines;
}

template <typename G>
std::string verbose_move_stats(const BasicMoveReport<G>& r, const typename G::Position& root) {
  const auto known = [](const std::optional<Wdl>& wdl, auto field) {
    return wdl ? fmt::format("{:+.5f}", field(*wdl)) : std::string("-");
  };
  const auto stats = [&](int visits, const std::optional<Wdl>& search, float q, const std::string& u,
                         const std::optional<Wdl>& network) {
    return fmt::format("(WL: {}) (D: {}) (Q: {}) (U: {}) (V: {}) (L: {})",
                       known(search, [](const Wdl& w) { return w.win - w.loss; }),
                       search ? fmt::format("{:.3f}", search->draw) : "-", visits > 0 ? fmt::format("{:+.5f}", q) : "-",
                       u, known(network, [](const Wdl& w) { return w.win - w.loss; }),
                       search ? fmt::format("{:+.1f}", search->lead * G::cells(root)) : "-");
  };
  std::vector<const BasicCandidateMove<G>*> moves;
  for (const auto& c : r.candidates) moves.push_back(&c);
  std::stable_sort(moves.begin(), moves.end(), [](const auto* a, const auto* b) {
    return std::pair(a->visits, a->prior) < std::pair(b->visits, b->prior);
  });
  std::string lines;
  for (const auto* c : moves)
    lines += fmt::format(
        "info string {:<5} N: {:>8} (P: {:6.2f}%) {}\n", G::move_text(c->move, root), c->visits, c->prior * 100,
        stats(c->visits, c->search_value, c->value, fmt::format("{:.5f}", c->exploration), c->network_value));
  return lines + fmt::format("info string node  N: {:>8} {}", r.nodes,
                             stats(static_cast<int>(r.nodes), r.search_value, r.value, "-", r.network_value));
}

#define ATAXX_INSTANTIATE(G)                                                                                       \
  template std::string info_lines<G>(const BasicMoveReport<G>&, const G::Position&, const InfoDisplay&); \
  template std::string verbose_move_stats<G>(const BasicMoveReport<G>&, const G::Position&);
ATAXX_FOR_EACH_GAME(ATAXX_INSTANTIATE)
#undef ATAXX_INSTANTIATE

}  // namespace ataxx
