// The template definitions of players/mcts_player.h: included by mcts_player.cpp, which compiles them for
// every game of games/registry.h, and by code that plays a game of its own (the tests').
#pragma once

#include "players/mcts_player.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mcts/search_threads.h"
#include "players/time_manager.h"

namespace ataxx {
namespace {

// lc0's mapping of an expected result in [-1, 1] to centipawns.
int centipawns(float expected_result) {
  const double q = std::clamp<double>(expected_result, -0.99, 0.99);
  return static_cast<int>(std::lround(111.714640912 * std::tan(1.5620688421 * q)));
}

}  // namespace

template <typename G>
BasicMctsPlayer<G>::BasicMctsPlayer(const SearchParams& params, std::shared_ptr<Evaluator> evaluator, int threads)
    : evaluator_(std::move(evaluator)), search_(params, 0), base_params_(params), threads_(threads) {}

template <typename G>
void BasicMctsPlayer<G>::new_game(std::uint64_t seed) {
  search_ = Search(base_params_, seed);
  followed_.reset();
  pondered_.reset();
}

template <typename G>
void BasicMctsPlayer<G>::follow(const Game& game) {
  const auto& moves = game.moves();
  const bool continues = followed_ && followed_->start() == game.start() &&
                         followed_->moves().size() <= moves.size() &&
                         std::equal(followed_->moves().begin(), followed_->moves().end(), moves.begin());
  if (continues) search_.advance(std::span(moves).subspan(followed_->moves().size()));
  if (!continues || !(search_.root_position() == game.position()))
    search_.set_root(game.position(), game.recent_hashes());
  followed_ = game;
}

template <typename G>
typename G::Move BasicMctsPlayer<G>::choose_move(const Game& game) {
  search(game, this->limits_);
  return last_result_.best_move();  // the tree moves on at the next search, off the clock of this one
}

template <typename G>
void BasicMctsPlayer<G>::ponder(const Game& game) {
  MoveLimits until_stopped = this->limits_;  // the go line's limits apply from ponderhit (choose_move)
  until_stopped.infinite = true;
  until_stopped.nodes = 0;
  until_stopped.depth = 0;
  search(game, until_stopped);
  pondered_.emplace(game, last_counted_);
}

template <typename G>
void BasicMctsPlayer<G>::search(const Game& game, const MoveLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  follow(game);  // re-rooting the tree is part of the move's time
  if (c_puct_of_) search_.set_c_puct(c_puct_of_(game.position()));
  // A search that goes on from a ponder of this very game (UAI's ponderhit, or stop) counts its
  // time and nodes from the go ponder, as UCI's info lines do.
  const bool goes_on_from_ponder =
      pondered_ && pondered_->first.start() == game.start() && pondered_->first.moves() == game.moves();
  last_counted_ = goes_on_from_ponder ? pondered_->second : Counted{start, search_.root_visits()};
  pondered_.reset();
  const auto [counted_from, reused_visits] = last_counted_;
  // An outside time limit or `go infinite` replaces the player's own visit budget, as a node
  // limit does; otherwise the spec's visits apply.
  constexpr int kUnlimited = 1'000'000'000;
  const int movetime_ms = move_time_ms<G>(game.position(), limits);
  const bool timed = movetime_ms > 0 || limits.infinite || (limits.mate > 0 && base_params_.solver);
  search_.set_visits(limits.nodes > 0 ? limits.nodes : timed ? kUnlimited : base_params_.visits);
  const double limit_s = movetime_ms > 0 ? movetime_ms / 1000.0 : base_params_.time_limit_s;
  const double spent_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  search_.set_time_limit(limit_s > 0 ? std::max(limit_s - spent_s, 1e-6) : 0.0);
  search_.set_stop_flag(limits.stop);
  search_.set_depth(limits.depth);
  search_.set_ends_at_proof(limits.mate > 0);
  std::vector<Move> root_moves;
  if (!limits.search_moves.empty())
    for (const Move move : moves_to_search<G>(game, limits)) root_moves.push_back(move);
  search_.restrict_root_moves(std::move(root_moves));
  auto last_progress = start;
  auto progress = [&] {
    if (std::chrono::steady_clock::now() - last_progress < std::chrono::milliseconds(limits.progress_interval_ms))
      return;
    this->progress_(report_of(search_.result(), counted_from, reused_visits));
    last_progress =
        std::chrono::steady_clock::now();  // from the report's end: a slow report leaves the search its time
  };
  run_search_threads<G>(search_, *evaluator_, threads_,
                        this->progress_ ? std::function<void()>(progress) : std::function<void()>());
  last_result_ = search_.result();
  report_ = report_of(last_result_, counted_from, reused_visits);
}

template <typename G>
typename BasicMctsPlayer<G>::MoveReport BasicMctsPlayer<G>::report_of(const SearchResult& result,
                                                                      std::chrono::steady_clock::time_point start,
                                                                      int reused_visits) const {
  MoveReport report;
  report.depth = static_cast<int>(result.principal_variation.size());
  report.seldepth = result.selective_depth;
  report.nodes = static_cast<std::uint64_t>(result.total_visits);
  report.reused_nodes = static_cast<std::uint64_t>(reused_visits);
  report.hashfull = search_.permille_full();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The expected result, the lead's utility left out.
  report.score_cp = centipawns(result.root_search_value ? result.root_search_value->expectation() : result.value);
  if (result.proven_plies) report.mate = mate_in_moves(*result.proven_plies);
  report.pv = result.principal_variation;
  report.value = result.value;
  report.network_value = result.root_network_value;
  report.search_value = result.root_search_value;
  for (std::size_t i = 0; i < result.moves.size(); ++i) {
    const std::optional<Wdl>& after = result.search_values[i];
    auto line = search_.line_after(result.moves[i]);
    report.candidates.push_back({.move = result.moves[i],
                                 .visits = result.visits[i],
                                 .prior = result.priors[i],
                                 .exploration = result.explorations[i],
                                 .value = result.values[i],
                                 .network_value = result.network_values[i],
                                 .search_value = after,
                                 .score_cp = centipawns(after ? after->expectation() : result.values[i]),
                                 .mate = result.proven_plies_after[i]
                                             ? std::optional(mate_in_moves(*result.proven_plies_after[i]))
                                             : std::nullopt,
                                 .depth = 0,
                                 .pv = std::move(line.moves),
                                 .pv_visits = std::move(line.visits),
                                 .lower_bound = result.lower_bounds[i]});
  }
  std::stable_sort(report.candidates.begin(), report.candidates.end(),
                   [](const auto& a, const auto& b) { return a.visits > b.visits; });
  // searchmoves on a kept tree: the root's mean holds the visits the other moves had before, so
  // the score is that of the move played.
  if (search_.restricts_root_moves() && reused_visits > 0 && !result.moves.empty()) {
    const auto played =
        std::ranges::find_if(report.candidates, [&](const auto& c) { return c.move == result.best_move(); });
    report.score_cp = played->score_cp;
    report.value = played->value;
    report.search_value = played->search_value;
  }
  return report;
}

template <typename G>
BasicSearchParams<G> read_search_params(PlayerSpec& spec, BasicSearchParams<G> params) {
  constexpr int kMostVisits = 100'000'000;
  const bool visits_given = spec.has("visits");
  params.visits = spec.get_int("visits", params.visits, 1, kMostVisits);
  params.time_limit_s = spec.get_int("time", static_cast<int>(params.time_limit_s * 1000), 0, 3'600'000) / 1000.0;
  if (params.time_limit_s > 0 && !visits_given) params.visits = kMostVisits;  // a time alone is searched, as movetime
  params.c_puct = static_cast<float>(spec.get_double("cpuct", params.c_puct, 0.0, kMaxCPuct));
  params.fpu_reduction =
      static_cast<float>(spec.get_double("fpu", params.fpu_reduction, -kMaxFpuReduction, kMaxFpuReduction));
  params.policy_temperature = static_cast<float>(
      spec.get_double("ptemp", params.policy_temperature, kMinPolicyTemperature, kMaxPolicyTemperature));
  params.leaves_per_round = spec.get_int("batch", params.leaves_per_round, 1, 4096);
  params.reuse_tree = spec.get_int("reuse", params.reuse_tree, 0, 1) == 1;
  params.solver = spec.get_int("solver", params.solver, 0, 1) == 1;
  params.lcb_stdevs = static_cast<float>(spec.get_double("lcb", params.lcb_stdevs, 0.0, 10.0));
  params.transpositions = spec.get_int("transpose", params.transpositions, 0, 1) == 1;
  params.lead_utility = static_cast<float>(spec.get_double("lead", params.lead_utility, 0.0, 10.0));
  const int hash_mib = spec.get_int("hash", static_cast<int>(params.max_tree_bytes >> 20), 1, 1 << 20);
  params.max_tree_bytes = static_cast<std::size_t>(hash_mib) << 20;
  return params;
}

}  // namespace ataxx
